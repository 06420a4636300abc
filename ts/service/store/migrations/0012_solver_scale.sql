-- Issue 12, the solver at scale.

-- Wake-ups across processes: every statement that writes outbox events notifies `ferry_outbox` (sent
-- when its transaction commits; PostgreSQL folds the notifications of one transaction into one). A
-- replica's solver, webhook worker and websocket tail LISTEN on it (PostgreSQL; the embedded engine is
-- one process and is woken in process) and read at once instead of at their next poll.
CREATE FUNCTION ferry_notify_outbox() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('ferry_outbox', '');
  RETURN NULL;
END;
$$;

CREATE TRIGGER request_events_notify AFTER INSERT ON request_events
  FOR EACH STATEMENT EXECUTE FUNCTION ferry_notify_outbox();

-- The nonce manager (ts/service/solver/nonceManager.ts): one row per (chain, sender) holding the next
-- nonce to hand out. Allocation locks the row (SELECT … FOR UPDATE), so the processes and replicas
-- that share a key never hand out one nonce twice; it starts from the chain's pending nonce.
CREATE TABLE solver_nonces (
  chain_id   bigint NOT NULL,
  address    text NOT NULL,
  next_nonce bigint NOT NULL,
  PRIMARY KEY (chain_id, address)
);

-- Every transaction the solver sends, one row per nonce, written in the same database transaction as
-- the nonce allocation and as the request's own record of it, before the broadcast: what it is for
-- (purpose + subject: a requestId, a stray deposit, a token), the call (to, data, value, gas) and every
-- signed attempt of that nonce (the first, re-broadcasts of the same bytes, fee-bumped replacements:
-- hash, raw transaction, fees). `state`: pending → mined (mined_hash) | superseded (the nonce was
-- consumed by a transaction that is none of the attempts).
CREATE TABLE solver_transactions (
  chain_id   bigint NOT NULL,
  address    text NOT NULL,
  nonce      bigint NOT NULL,
  purpose    text NOT NULL,
  subject    text NOT NULL,
  call       jsonb NOT NULL,
  attempts   jsonb NOT NULL,
  state      text NOT NULL DEFAULT 'pending',
  mined_hash text,
  created_at timestamptz(3) NOT NULL,
  updated_at timestamptz(3) NOT NULL,
  PRIMARY KEY (chain_id, address, nonce)
);
CREATE INDEX solver_transactions_pending ON solver_transactions (chain_id, address) WHERE state = 'pending';
CREATE INDEX solver_transactions_subject ON solver_transactions (purpose, subject);

-- Inventory: what each fill in flight holds of the solver's balance on its destination chain (the
-- amount in its currency, and native for its gas: gas limit × max fee), so that concurrent fills — in
-- one process or across replicas — never spend the same balance twice. A reservation counts while its
-- request is `pending` or `submitted` (once the fill is mined the balance itself is lower); it is
-- written under a per-chain advisory lock after the balance was read (ts/service/store/solverReservations.ts).
CREATE TABLE solver_reservations (
  request_id text PRIMARY KEY REFERENCES requests (id),
  chain_id   bigint NOT NULL,
  currency   text NOT NULL,
  amount     numeric(78, 0) NOT NULL,
  gas        numeric(78, 0) NOT NULL,
  created_at timestamptz(3) NOT NULL
);
CREATE INDEX solver_reservations_chain ON solver_reservations (chain_id, currency);

-- Stray deposits: money in a Depository that no request accounts for — a second deposit for an order
-- already credited (DOUBLE_SPEND) or a deposit for an orderId Ferry never quoted (UNKNOWN_ORDER). The
-- solver returns each one to its credited depositor. Keyed by the log itself, so re-reading a range,
-- two replicas and POST /transactions/index record it once.
CREATE TABLE stray_deposits (
  chain_id         bigint NOT NULL,
  tx_hash          text NOT NULL,
  log_index        integer NOT NULL,
  depository       text NOT NULL,
  block            bigint NOT NULL,
  order_id         text NOT NULL,
  depositor        text NOT NULL,
  token            text NOT NULL,
  -- Exact: uint256 does not fit a bigint.
  amount           numeric(78, 0) NOT NULL CHECK (amount >= 0),
  reason           text NOT NULL CHECK (reason IN ('DOUBLE_SPEND', 'UNKNOWN_ORDER')),
  -- DOUBLE_SPEND: the request that holds the credited deposit.
  request_id       text,
  state            text NOT NULL DEFAULT 'pending' CHECK (state IN ('pending', 'refunded', 'ignored')),
  ignored_reason   text,
  -- The refund payout exactly as a request's data.refund holds it (../../solver/payoutPlan.ts
  -- StoredPayout: nonce, expiration, calls, requestHash, status, hash, block), stored before signing.
  refund           jsonb,
  -- The solver's lease (solver_claims references requests, so strays carry their own).
  claim_owner      text,
  claim_expires_at timestamptz(3),
  created_at       timestamptz(3) NOT NULL,
  updated_at       timestamptz(3) NOT NULL,
  PRIMARY KEY (chain_id, tx_hash, log_index),
  CHECK ((state = 'ignored') = (ignored_reason IS NOT NULL))
);

-- The solver's work list reads pending strays, least recently touched first.
CREATE INDEX stray_deposits_state ON stray_deposits (state, updated_at);

-- From which block each Depository's strays are refunded automatically. A database can only tell a
-- stray from a settled deposit for deposits it watched arrive: one that starts on a chain with history
-- (or restored, or wiped) would otherwise see every earlier deposit as an unknown order and pay it out
-- of funds that belong to other requests. Set when the indexer first runs on a chain (its head + 1);
-- for a database upgraded to this migration, from the block after its checkpoint.
CREATE TABLE stray_tracking (
  chain_id   bigint NOT NULL,
  contract   text NOT NULL,
  from_block bigint NOT NULL,
  PRIMARY KEY (chain_id, contract)
);
INSERT INTO stray_tracking (chain_id, contract, from_block) SELECT chain_id, contract, block + 1 FROM indexer_checkpoints;

-- App balances (issue 22): what an app (an API key) has funded onchain, holds on it for what the
-- service is about to spend on its behalf (relayed gas, sponsored fees, fast fills, withdrawals),
-- and what was debited. Amounts are USD micro-units (6 decimals) as integers (numeric(38,0)).
--
-- app_balances is one row per app with the running totals; it is the row every hold locks
-- (SELECT … FOR UPDATE), so two replicas placing holds on one app serialise on it, and the CHECK
-- keeps available = credited − debited − held from ever going negative.
CREATE TABLE app_balances (
  api_key_id   text PRIMARY KEY,
  credited_usd numeric(38,0) NOT NULL DEFAULT 0,
  debited_usd  numeric(38,0) NOT NULL DEFAULT 0,
  held_usd     numeric(38,0) NOT NULL DEFAULT 0,
  updated_at   timestamptz(3) NOT NULL,
  CHECK (credited_usd >= 0 AND debited_usd >= 0 AND held_usd >= 0),
  CHECK (credited_usd - debited_usd - held_usd >= 0)
);

-- A hold: money set aside for one spend, ended by a settle (debit of what was spent, the rest back)
-- or a release (all back). (purpose, reference) is the spend's idempotency key. The hold remembers
-- the exposure window it counted in (and the solver currency, when one was named), so that ending it
-- gives back to the same window what was not spent.
CREATE TABLE app_balance_holds (
  id                text PRIMARY KEY,
  api_key_id        text NOT NULL,
  purpose           text NOT NULL CHECK (purpose IN ('execute', 'sponsorship', 'fastFill', 'withdrawal')),
  reference         text NOT NULL,
  amount_usd        numeric(38,0) NOT NULL CHECK (amount_usd > 0),
  state             text NOT NULL CHECK (state IN ('held', 'settled', 'released')),
  spent_usd         numeric(38,0) CHECK (spent_usd >= 0 AND spent_usd <= amount_usd),
  exposure_chain_id bigint,
  exposure_currency text,
  exposure_scopes   jsonb NOT NULL DEFAULT '[]',
  window_start      timestamptz(3) NOT NULL,
  created_at        timestamptz(3) NOT NULL,
  ended_at          timestamptz(3),
  UNIQUE (purpose, reference)
);
CREATE INDEX app_balance_holds_key ON app_balance_holds (api_key_id, created_at);

-- The ledger lines, append-only: credits (a funding deposit, once per log; the indexer only reads
-- final blocks, so a credit is never made for a deposit a shallow reorg can remove), holds, debits (a
-- settled hold's spend) and releases (a hold's unspent part given back).
CREATE TABLE app_balance_entries (
  id               bigserial PRIMARY KEY,
  api_key_id       text NOT NULL,
  kind             text NOT NULL CHECK (kind IN ('credit', 'hold', 'debit', 'release')),
  amount_usd       numeric(38,0) NOT NULL CHECK (amount_usd >= 0),
  hold_id          text,
  purpose          text,
  reference        text,
  source_chain_id  bigint,
  source_tx_hash   text,
  source_log_index integer,
  currency         text,
  amount           numeric(78,0),
  created_at       timestamptz(3) NOT NULL
);
CREATE INDEX app_balance_entries_key ON app_balance_entries (api_key_id, id DESC);
-- A funding log credits once.
CREATE UNIQUE INDEX app_balance_entries_source ON app_balance_entries (source_chain_id, source_tx_hash, source_log_index)
  WHERE kind = 'credit';

-- Exposure budgets (config appBalances.exposure): how much each scope ('app:<keyId>' or
-- 'currency:<chainId>:<address>') has exposed per purpose in one store-clock hour (the hold keeps the
-- scopes it counted in: exposure_scopes). Every hold locks its rows (insert-if-missing, then FOR UPDATE), so replicas share the count, as
-- permit_failures does; a settle or release gives the unspent part back.
CREATE TABLE app_exposure_windows (
  scope        text NOT NULL,
  purpose      text NOT NULL,
  window_start timestamptz(3) NOT NULL,
  used_usd     numeric(38,0) NOT NULL DEFAULT 0 CHECK (used_usd >= 0),
  PRIMARY KEY (scope, purpose, window_start)
);

-- Funding orders: POST /app-balance/deposits answers a deposit step under a fresh order id recorded
-- here as "funds app X"; the indexer, finding a final Deposited log under such an order id, credits
-- the app (app_balance_entries' unique source: once per log) instead of treating it as a request.
CREATE TABLE app_funding_orders (
  order_id   text PRIMARY KEY,
  api_key_id text NOT NULL,
  chain_id   bigint NOT NULL,
  currency   text NOT NULL,
  amount     numeric(78,0) NOT NULL CHECK (amount > 0),
  created_at timestamptz(3) NOT NULL
);
CREATE INDEX app_funding_orders_key ON app_funding_orders (api_key_id, created_at);

-- Where an app's withdrawals are paid: set by the operator (`ferry keys funding-address`), never by
-- the caller of the withdrawal.
ALTER TABLE api_keys ADD COLUMN funding_address text;

-- Withdrawals: one row per POST /app-balance/withdrawals, holding its "withdrawal" hold until the
-- allocator-signed Depository payout is mined (settled) or cannot be sent (released).
CREATE TABLE app_withdrawals (
  id          text PRIMARY KEY,
  api_key_id  text NOT NULL,
  chain_id    bigint NOT NULL,
  currency    text NOT NULL,
  amount_usd  numeric(38,0) NOT NULL CHECK (amount_usd > 0),
  amount      numeric(78,0) NOT NULL CHECK (amount > 0),
  recipient   text NOT NULL,
  hold_id     text NOT NULL REFERENCES app_balance_holds (id),
  state       text NOT NULL CHECK (state IN ('pending', 'sent', 'paid', 'failed')),
  payout      jsonb,
  tx_hash     text,
  fail_reason text,
  created_at  timestamptz(3) NOT NULL,
  updated_at  timestamptz(3) NOT NULL
);
CREATE INDEX app_withdrawals_pending ON app_withdrawals (state) WHERE state IN ('pending', 'sent');

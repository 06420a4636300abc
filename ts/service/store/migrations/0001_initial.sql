-- Ferry's schema, the same on PGlite and PostgreSQL. Addresses and hashes are stored lowercase.
-- Timestamps have millisecond precision so that the continuation cursor (ISO ms) round-trips exactly.

CREATE TABLE api_keys (
  id              text PRIMARY KEY,
  key_hash        text NOT NULL UNIQUE,
  name            text NOT NULL,
  rate_limit      integer,
  webhook_url     text,
  webhook_headers jsonb NOT NULL DEFAULT '{}'::jsonb,
  created_at      timestamptz(3) NOT NULL,
  revoked_at      timestamptz(3)
);

CREATE TABLE quotes (
  request_id text PRIMARY KEY,
  order_id   text NOT NULL,
  order_data jsonb NOT NULL,
  quote      jsonb NOT NULL,
  expires_at timestamptz(3) NOT NULL,
  api_key_id text REFERENCES api_keys (id),
  created_at timestamptz(3) NOT NULL
);
CREATE INDEX quotes_order_id ON quotes (order_id);

CREATE TABLE requests (
  id                   text PRIMARY KEY,
  order_id             text NOT NULL,
  status               text NOT NULL CHECK (status IN ('waiting', 'depositing', 'pending', 'submitted', 'success', 'failure', 'refund')),
  "user"               text NOT NULL,
  recipient            text NOT NULL,
  origin_chain_id      bigint NOT NULL,
  destination_chain_id bigint NOT NULL,
  in_tx_hashes         text[] NOT NULL DEFAULT '{}',
  tx_hashes            text[] NOT NULL DEFAULT '{}',
  fail_reason          text,
  refund_fail_reason   text,
  data                 jsonb NOT NULL DEFAULT '{}'::jsonb,
  referrer             text,
  api_key_id           text REFERENCES api_keys (id),
  origin_block         bigint,
  created_at           timestamptz(3) NOT NULL,
  updated_at           timestamptz(3) NOT NULL
);
CREATE UNIQUE INDEX requests_order_id ON requests (order_id);
CREATE INDEX requests_created_at ON requests (created_at, id);
CREATE INDEX requests_updated_at ON requests (updated_at, id);
CREATE INDEX requests_user ON requests ("user");
CREATE INDEX requests_recipient ON requests (recipient);
CREATE INDEX requests_in_tx_hashes ON requests USING gin (in_tx_hashes);
CREATE INDEX requests_tx_hashes ON requests USING gin (tx_hashes);

-- The outbox: one row per status change, written in the transaction that makes the change.
-- Webhook and websocket delivery read the undelivered rows and set delivered_at.
CREATE TABLE request_events (
  id           bigserial PRIMARY KEY,
  request_id   text NOT NULL REFERENCES requests (id),
  status       text NOT NULL,
  payload      jsonb NOT NULL,
  created_at   timestamptz(3) NOT NULL,
  delivered_at timestamptz(3)
);
CREATE INDEX request_events_undelivered ON request_events (id) WHERE delivered_at IS NULL;
CREATE INDEX request_events_request_id ON request_events (request_id, id);

CREATE TABLE indexer_checkpoints (
  chain_id   bigint NOT NULL,
  contract   text NOT NULL,
  block      bigint NOT NULL,
  updated_at timestamptz(3) NOT NULL,
  PRIMARY KEY (chain_id, contract)
);

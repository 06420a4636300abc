-- Deposit addresses (issue 23). One row per address a quote handed out, keyed by chain and address
-- (strict: one address per quote, `request_id` its quote). The solver's deposit-address watcher reads
-- the addresses still waiting for their payment (`state` 'watching') on each origin chain; when the
-- payment is final it sends one `deployAndForward` through the nonce manager and, in the same store
-- transaction as that nonce, moves the row to 'forwarding' with the payment it saw: a restart or a
-- second replica finds the row past 'watching' and never forwards twice (the factory's replay guard on
-- the instruction id is the onchain backstop). `payment` is the payment as seen (who paid, which
-- transaction, how much, the block), for the records' `depositAddress.depositor` / `depositTxHash`.
CREATE TABLE deposit_addresses (
  chain_id     bigint NOT NULL,
  address      text NOT NULL,
  mode         text NOT NULL CHECK (mode IN ('strict', 'open')),
  factory      text NOT NULL,
  refund_to    text NOT NULL,
  request_id   text NOT NULL,
  order_id     text NOT NULL,
  currency     text NOT NULL,
  amount       numeric(78, 0) NOT NULL,
  expires_at   timestamptz(3) NOT NULL,
  state        text NOT NULL DEFAULT 'watching' CHECK (state IN ('watching', 'forwarding')),
  instruction_id text,
  payment      jsonb,
  created_at   timestamptz(3) NOT NULL,
  updated_at   timestamptz(3) NOT NULL,
  PRIMARY KEY (chain_id, address)
);
CREATE INDEX deposit_addresses_watching ON deposit_addresses (chain_id) WHERE state = 'watching';
CREATE INDEX deposit_addresses_request ON deposit_addresses (request_id);
-- GET /requests/v2?depositAddress= (every chain: the same address on each).
CREATE INDEX deposit_addresses_address ON deposit_addresses (address);

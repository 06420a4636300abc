-- Open deposit addresses (issue 23): one reusable address per refund recipient and route. The address
-- row (`deposit_addresses`, mode 'open', state 'open') is written once, by the first quote that hands the
-- address out (a second quote of the same user and route finds it and writes nothing); its `request_id`,
-- `order_id`, `currency` and `expires_at` are that first quote's (informative only), `amount` 0. `route`
-- holds what every payment is re-quoted with (user, recipient, destination chain and currency, the app
-- fees and referrer of the first quote), `api_key_id` the quoting API key, `scanned_block` how far the
-- solver has looked for payments (final blocks only).
ALTER TABLE deposit_addresses DROP CONSTRAINT deposit_addresses_state_check;
ALTER TABLE deposit_addresses ADD CONSTRAINT deposit_addresses_state_check CHECK (state IN ('watching', 'forwarding', 'refunding', 'refunded', 'open'));
ALTER TABLE deposit_addresses ADD COLUMN route jsonb;
ALTER TABLE deposit_addresses ADD COLUMN api_key_id text;
ALTER TABLE deposit_addresses ADD COLUMN scanned_block bigint;
CREATE INDEX deposit_addresses_open ON deposit_addresses (chain_id) WHERE state = 'open';
-- Every quote that handed out an open address (its placeholder request: `superseded_by_request_id` is
-- the first payment's request after it).
CREATE TABLE deposit_address_quotes (
  request_id   text PRIMARY KEY,
  chain_id     bigint NOT NULL,
  address      text NOT NULL,
  superseded_by_request_id text,
  created_at   timestamptz(3) NOT NULL
);
CREATE INDEX deposit_address_quotes_address ON deposit_address_quotes (chain_id, address, created_at);
-- Each payment into an open address (one per ERC-20 Transfer log, one per block whose native balance
-- rose), keyed by (chain, address, payment_key): found once. `detected` → `forwarding` (re-quoted: its
-- own request and order, forwarded by one deployAndForward whose nonce's store transaction makes the
-- move, a compare-and-set) or `detected` → `refunding` → `refunded` (it could not be re-quoted: refunded
-- to refundTo, `reason` why).
CREATE TABLE deposit_address_payments (
  chain_id     bigint NOT NULL,
  address      text NOT NULL,
  payment_key  text NOT NULL,
  payment      jsonb NOT NULL,
  state        text NOT NULL DEFAULT 'detected' CHECK (state IN ('detected', 'forwarding', 'refunding', 'refunded')),
  request_id   text,
  order_id     text,
  instruction_id text,
  refunds      jsonb,
  reason       text,
  created_at   timestamptz(3) NOT NULL,
  updated_at   timestamptz(3) NOT NULL,
  PRIMARY KEY (chain_id, address, payment_key)
);
CREATE INDEX deposit_address_payments_detected ON deposit_address_payments (chain_id) WHERE state IN ('detected', 'refunding');
CREATE INDEX deposit_address_payments_order ON deposit_address_payments (order_id);
CREATE INDEX deposit_address_payments_address ON deposit_address_payments (address);

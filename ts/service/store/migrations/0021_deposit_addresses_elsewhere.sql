-- Deposit addresses on the other chains (issue 23): the factory sits at the same address on every chain
-- Ferry deploys to, so an address handed out for one origin chain exists on the others too, and a payer
-- may pay it there. The solver watches it there through a row of that chain in state 'elsewhere' (a
-- copy of the origin row's binding: mode, refund_to, order_id, currency, amount, expires_at, route),
-- written when the solver first looks at the chain after the quote. `scanned_block` is how far its ERC-20
-- Transfer logs were read on that chain (NULL: never; the first read takes the balances), `refunds` the
-- payments found there and their refunds to `refund_to`, `next_check_at` the same cadence as the origin's.
ALTER TABLE deposit_addresses DROP CONSTRAINT deposit_addresses_state_check;
ALTER TABLE deposit_addresses ADD CONSTRAINT deposit_addresses_state_check CHECK (state IN ('watching', 'forwarding', 'refunding', 'refunded', 'open', 'elsewhere'));
CREATE INDEX deposit_addresses_elsewhere ON deposit_addresses (chain_id, next_check_at) WHERE state = 'elsewhere';
CREATE INDEX deposit_addresses_factory ON deposit_addresses (factory, created_at) WHERE state <> 'elsewhere';

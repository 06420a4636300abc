-- Deposit addresses read at a cadence (issue 23): `next_check_at` is when the solver must next read an
-- address's balances. NULL: on every pass (a live quote, or within an hour of its expiry). Past that
-- grace an unpaid address is read once an hour for a week after its expiry, then once a day, so
-- expired unpaid addresses are no longer read on every pass forever while a late payment is still
-- found and refunded; an address after its decision (forwarded or refunded) is read at the same cadence
-- for later payments, which are refunded to `refund_to` too (ts/service/solver/depositAddress/).
ALTER TABLE deposit_addresses ADD COLUMN next_check_at timestamptz(3);
CREATE INDEX deposit_addresses_settled ON deposit_addresses (chain_id, next_check_at) WHERE state IN ('forwarding', 'refunded');

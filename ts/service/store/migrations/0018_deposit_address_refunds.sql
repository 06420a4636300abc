-- Mis-routed payments into strict deposit addresses (issue 23 item 4): refunded to `refund_to` from
-- the address. Once the quote has expired on the origin chain's final blocks and the bound payment did
-- not arrive in time (too little, late, or only another token), the solver plans the address's refunds
-- once, moving the row 'watching' → 'refunding' with `refunds` (one entry per token held: amount,
-- reason, instruction id, state 'planned' | 'ignored' | 'sent'), a compare-and-set so two replicas or a
-- restart plan once. Each planned entry is sent by one `deployAndForward` (Refund) through the nonce
-- manager, whose store transaction moves it 'planned' → 'sent'; once every sent instruction is executed
-- at a final block the row is 'refunded' and the request is written (`refund`, its failReason).
-- A forwarded row ('forwarding') may carry refunds too: what the address held besides the forwarded
-- payment (an overpayment's excess, another currency), planned with the forwarding's compare-and-set.
ALTER TABLE deposit_addresses DROP CONSTRAINT deposit_addresses_state_check;
ALTER TABLE deposit_addresses ADD CONSTRAINT deposit_addresses_state_check CHECK (state IN ('watching', 'forwarding', 'refunding', 'refunded'));
ALTER TABLE deposit_addresses ADD COLUMN refunds jsonb;
CREATE INDEX deposit_addresses_refunding ON deposit_addresses (chain_id) WHERE state = 'refunding';

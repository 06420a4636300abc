-- Reclaimable deposits (issue 27). A reclaimable deposit whose reclaim time is earlier than its quote's
-- (or that answers a quote that was not reclaimable) does not match it: a stray named INCORRECT_PAYMENT.
-- A reclaimable stray is recorded 'ignored' (reason RECLAIMABLE): its depositor takes it back with
-- `reclaim`, and a refund by `execute` would leave that right intact — paying it twice.
ALTER TABLE stray_deposits DROP CONSTRAINT stray_deposits_reason_check;
ALTER TABLE stray_deposits ADD CONSTRAINT stray_deposits_reason_check CHECK (reason IN (
  'DOUBLE_SPEND', 'UNKNOWN_ORDER', 'DEPOSIT_CHAIN_MISMATCH', 'INCORRECT_DEPOSIT_CURRENCY', 'DEPOSITED_AMOUNT_TOO_LOW_TO_FILL', 'INCORRECT_PAYMENT'));

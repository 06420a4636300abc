-- Issue 11 (safe with other people's money), service side.
-- A deposit under a quoted orderId that does not match the quote (another chain, another currency,
-- less than quoted) no longer consumes the order: it is a stray deposit, named by the mismatch.
ALTER TABLE stray_deposits DROP CONSTRAINT stray_deposits_reason_check;
ALTER TABLE stray_deposits ADD CONSTRAINT stray_deposits_reason_check CHECK (reason IN (
  'DOUBLE_SPEND', 'UNKNOWN_ORDER', 'DEPOSIT_CHAIN_MISMATCH', 'INCORRECT_DEPOSIT_CURRENCY', 'DEPOSITED_AMOUNT_TOO_LOW_TO_FILL'));

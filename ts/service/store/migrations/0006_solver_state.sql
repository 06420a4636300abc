-- The request model split (ts/service/model): `data` keeps only the spec's public request-record
-- fields; the solver's private state (the quoted intent, the credited deposit, the fill, the repayment
-- and refund payouts) moves to `solver_state`; the status record's `details` gets its own column; a
-- request the solver cannot step (a non-retryable error) is `parked` until an operator clears it.
ALTER TABLE requests ADD COLUMN solver_state jsonb;
ALTER TABLE requests ADD COLUMN details jsonb;
ALTER TABLE requests ADD COLUMN parked jsonb;

-- Existing rows: the intent comes from the request's quote, the rest from the old `data` keys.
UPDATE requests r SET solver_state = jsonb_strip_nulls(jsonb_build_object(
    'intent', q.intent,
    'deposit', r.data->'deposit',
    'fill', r.data->'fill',
    'repayment', r.data->'repayment',
    'refund', r.data->'refund'))
  FROM quotes q WHERE q.request_id = r.id AND q.intent <> '{}'::jsonb;
UPDATE requests SET details = data->'details' WHERE jsonb_typeof(data->'details') = 'object';
UPDATE requests SET data = data - ARRAY['originCurrency', 'originAmount', 'destinationCurrency', 'destinationAmount',
  'fillDeadline', 'quoteExpiresAt', 'refundTo', 'depositor', 'depositedAmount', 'deposit', 'fill', 'repayment',
  'refund', 'refundTxs', 'details'];

-- The solver's work list skips parked requests.
CREATE INDEX requests_unparked_status ON requests (status, updated_at) WHERE parked IS NULL;

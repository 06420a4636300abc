-- Issue 24: the request record's USD figures (feesUsd, refundCurrencyData.amountUsd) are the quote's,
-- priced at the origin currency's USD price the quote used. New quotes store that price in their
-- intent (`originUsdPriceE8`, 1e-8 USD per whole unit). Quotes stored before carry it only inside
-- their quote body: `details.currencyIn` = {amount, amountUsd, currency.decimals}. Their price is
-- derived from it (amountUsd × 1e8 × 10^decimals / amount, rounded down: exact for the usual
-- amounts, never above the quote's) and written to the quote's intent and to the intent copy in its
-- request's solver state. A quote whose amountUsd was "0" (no configured price) or that has no such
-- body gets none: its record's USD figures stay "0", as its quote's were.
UPDATE quotes
SET intent = jsonb_set(
  intent,
  '{originUsdPriceE8}',
  to_jsonb(floor(
    (quote->'details'->'currencyIn'->>'amountUsd')::numeric * 100000000
      * power(10::numeric, (quote->'details'->'currencyIn'->'currency'->>'decimals')::integer)
      / (quote->'details'->'currencyIn'->>'amount')::numeric
  )::text)
)
WHERE (intent->'originUsdPriceE8') IS NULL
  AND (intent->'requestId') IS NOT NULL
  AND quote->'details'->'currencyIn'->>'amountUsd' ~ '^[0-9]{1,30}(\.[0-9]{1,30})?$'
  AND quote->'details'->'currencyIn'->>'amount' ~ '^[1-9][0-9]{0,77}$'
  AND quote->'details'->'currencyIn'->'currency'->>'decimals' ~ '^[0-9]{1,3}$'
  AND (quote->'details'->'currencyIn'->'currency'->>'decimals')::integer <= 255
  AND (quote->'details'->'currencyIn'->>'amountUsd')::numeric > 0;

UPDATE requests
SET solver_state = jsonb_set(solver_state, '{intent,originUsdPriceE8}', quotes.intent->'originUsdPriceE8')
FROM quotes
WHERE quotes.request_id = requests.id
  AND (quotes.intent->'originUsdPriceE8') IS NOT NULL
  AND (requests.solver_state->'intent') IS NOT NULL
  AND (requests.solver_state->'intent'->'originUsdPriceE8') IS NULL;

-- Every quote is stored with its QuotedIntent (ts/service/model/quotedIntent.ts): what the quote commits
-- Ferry to, read by the indexer and the solver (getQuoteByOrderId(orderId).intent) to match a deposit.
-- Rows written before this migration (none are written by a released quote route) get an empty object;
-- the default is dropped right away so every new quote must carry its intent.
ALTER TABLE quotes ADD COLUMN intent jsonb NOT NULL DEFAULT '{}'::jsonb;
ALTER TABLE quotes ALTER COLUMN intent DROP DEFAULT;

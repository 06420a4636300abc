/**
 * What a deposit's orderId names, read in one statement: the indexer's lookup before it credits a
 * deposit (../../solver/indexer/recordDeposits.ts). An app funding order (../appFundingOrders.ts) comes
 * first; else the newest quote with that orderId (../quotes.ts) and the request of that order — the one
 * with the orderId, else the one with the quote's requestId.
 * Before, these were three statements per deposit (issue 26: store queries per intent).
 *
 * Each part is decoded as its own repository decodes it, in that order: a quote that does not decode is
 * a StoredValueInvalidError naming `quotes…` before its request is looked at.
 */
import type { StoredRequest } from "../../model/storedRequest.ts";
import type { Bytes32 } from "../../model/values.ts";
import { FUNDING_ORDER_COLUMNS, fundingOrderFromRow, type AppFundingOrder } from "../appFundingOrders.ts";
import type { Row, StoreContext } from "../engine.ts";
import { QUOTE_COLUMNS, quoteFromRow, type QuoteRow, type StoredQuote } from "../quotes.ts";
import { REQUEST_COLUMNS, requestFromRow } from "../requests.ts";

export type DepositOrder = { funding: AppFundingOrder } | { funding: null; quote: StoredQuote | null; request: StoredRequest | null };

export async function getDepositOrder({ db }: StoreContext, orderId: Bytes32): Promise<DepositOrder> {
  const { rows } = await db.query<{ funding: Row | null; quote: QuoteRow | null; request: Row | null }>(
    `WITH q AS (SELECT ${QUOTE_COLUMNS} FROM quotes WHERE order_id = $1 ORDER BY created_at DESC LIMIT 1)
     SELECT
       (SELECT to_jsonb(f) FROM (SELECT ${FUNDING_ORDER_COLUMNS} FROM app_funding_orders WHERE order_id = $1) f) AS funding,
       (SELECT to_jsonb(q) FROM q) AS quote,
       (SELECT to_jsonb(r) FROM (SELECT ${REQUEST_COLUMNS} FROM requests
          WHERE order_id = $1 OR id = (SELECT request_id FROM q) ORDER BY (order_id = $1) DESC LIMIT 1) r) AS request`,
    [orderId],
  );
  const row = rows[0]!;
  if (row.funding) return { funding: fundingOrderFromRow(row.funding as Parameters<typeof fundingOrderFromRow>[0]) };
  const quote = row.quote ? quoteFromRow(row.quote) : null;
  return { funding: null, quote, request: quote && row.request ? requestFromRow(row.request) : null };
}

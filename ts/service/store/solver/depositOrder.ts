/**
 * What a deposit's orderId names, read in one statement — or the orders of a whole range of deposits
 * in one: the indexer's lookup before it credits a deposit (../../solver/indexer/recordDeposits.ts). An app funding order (../appFundingOrders.ts) comes
 * first; else the newest quote with that orderId (../quotes.ts) and the request of that order — the one
 * with the orderId, else the one with the quote's requestId.
 * Before, these were three statements per deposit (issue 26: store queries per intent).
 *
 * Each part is decoded as its own repository decodes it, in that order: a quote that does not decode is
 * a StoredValueInvalidError naming `quotes…` before its request is looked at.
 */
import type { StoredRequest } from "../../model/storedRequest.ts";
import { StoredValueInvalidError } from "../../model/storedValue.ts";
import type { Bytes32 } from "../../model/values.ts";
import { FUNDING_ORDER_COLUMNS, fundingOrderFromRow, type AppFundingOrder } from "../appFundingOrders.ts";
import type { Row, StoreContext } from "../engine.ts";
import { QUOTE_COLUMNS, quoteFromRow, type QuoteRow, type StoredQuote } from "../quotes.ts";
import { REQUEST_COLUMNS, requestFromRow } from "../requests.ts";

export type DepositOrder = { funding: AppFundingOrder } | { funding: null; quote: StoredQuote | null; request: StoredRequest | null };

/** One order of a batch read: decoded, or the stored value that did not decode (as `getDepositOrder` would have thrown it). */
export type DepositOrderRead = { order: DepositOrder } | { invalid: StoredValueInvalidError };

/** What `orderId` names. Throws StoredValueInvalidError when a part of it does not decode. */
export async function getDepositOrder(ctx: StoreContext, orderId: Bytes32): Promise<DepositOrder> {
  const read = (await getDepositOrders(ctx, [orderId])).get(orderId)!;
  if ("invalid" in read) throw read.invalid;
  return read.order;
}

/**
 * What each of `orderIds` names, in one statement: the indexer reads the orders of a whole range of
 * deposits at once. Each order is decoded on its own, so one that does not decode leaves the others'.
 */
export async function getDepositOrders({ db }: StoreContext, orderIds: readonly Bytes32[]): Promise<Map<Bytes32, DepositOrderRead>> {
  const { rows } = await db.query<{ order_id: Bytes32; funding: Row | null; quote: QuoteRow | null; request: Row | null }>(
    `SELECT o.order_id,
       (SELECT to_jsonb(f) FROM (SELECT ${FUNDING_ORDER_COLUMNS} FROM app_funding_orders WHERE order_id = o.order_id) f) AS funding,
       (SELECT to_jsonb(q) FROM (SELECT ${QUOTE_COLUMNS} FROM quotes WHERE order_id = o.order_id ORDER BY created_at DESC LIMIT 1) q) AS quote,
       (SELECT to_jsonb(r) FROM (SELECT ${REQUEST_COLUMNS} FROM requests
          WHERE order_id = o.order_id OR id = (SELECT request_id FROM quotes WHERE order_id = o.order_id ORDER BY created_at DESC LIMIT 1)
          ORDER BY (order_id = o.order_id) DESC LIMIT 1) r) AS request
     FROM (SELECT DISTINCT unnest($1::text[]) AS order_id) o`,
    [[...orderIds]],
  );
  const reads = new Map<Bytes32, DepositOrderRead>();
  for (const row of rows) {
    try {
      reads.set(row.order_id, { order: depositOrderFromRow(row) });
    } catch (error) {
      if (!(error instanceof StoredValueInvalidError)) throw error;
      reads.set(row.order_id, { invalid: error });
    }
  }
  return reads;
}

function depositOrderFromRow(row: { funding: Row | null; quote: QuoteRow | null; request: Row | null }): DepositOrder {
  if (row.funding) return { funding: fundingOrderFromRow(row.funding as Parameters<typeof fundingOrderFromRow>[0]) };
  const quote = row.quote ? quoteFromRow(row.quote) : null;
  return { funding: null, quote, request: quote && row.request ? requestFromRow(row.request) : null };
}

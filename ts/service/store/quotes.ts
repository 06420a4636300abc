import type { Order } from "../../core/orderJson.ts";
import { OrderData } from "../model/orderData.ts";
import { QuotedIntent } from "../model/quotedIntent.ts";
import { decodeStored, encodeStored } from "../model/storedValue.ts";
import { Type } from "typebox";
import { Bytes32 } from "../model/values.ts";
import { isoColumn, type StoreContext } from "./engine.ts";

/**
 * A quote row. The order is stored once, in `order_data` (next to `order_id`, its hash): `quote` is
 * stored without its `protocol.v2.orderData`, and read back with it.
 */
export type StoredQuote = {
  requestId: Bytes32;
  orderId: Bytes32;
  /**
   * The quote's order, typed: `protocol.v2.orderData` is its wire form (`orderToJson`). Decoded when
   * the row is read (a stored value that is not such an order is a StoredValueInvalidError).
   */
  orderData: Order;
  /** The quote as answered, `protocol.v2.orderData` included. */
  quote: unknown;
  /** What the quote commits Ferry to, decoded (a malformed stored intent is a StoredValueInvalidError). */
  intent: QuotedIntent;
  /** ISO 8601 UTC; the quote may not be deposited against after this. */
  expiresAt: string;
  apiKeyId: string | null;
  createdAt: string;
};

export type NewQuote = Omit<StoredQuote, "createdAt" | "expiresAt" | "apiKeyId"> & { expiresAt: Date; apiKeyId?: string | null };

export type QuoteRow = { request_id: string; order_id: string; order_data: unknown; quote: unknown; intent: unknown; expires_at: string; api_key_id: string | null; created_at: string };

const QuoteIds = Type.Object({ request_id: Bytes32, order_id: Bytes32 });

/** The order's JSON path inside a quote: stored in `order_data` only, put back on read. */
const ORDER_DATA_PATH = "'{protocol,v2,orderData}'";

/** The columns `quoteFromRow` decodes. */
export const QUOTE_COLUMNS =
  `request_id, order_id, order_data, jsonb_set(quote, ${ORDER_DATA_PATH}, order_data) AS quote, intent, ` +
  `${isoColumn("expires_at")}, api_key_id, ${isoColumn("created_at")}`;

/** Decodes one row (selected with QUOTE_COLUMNS). */
export const quoteFromRow = (r: QuoteRow): StoredQuote => {
  const ids = decodeStored(QuoteIds, r, "quotes", r.request_id);
  return {
    requestId: ids.request_id,
    orderId: ids.order_id,
    orderData: decodeStored(OrderData, r.order_data, "quotes.order_data", r.request_id),
    quote: r.quote,
    intent: decodeStored(QuotedIntent, r.intent, "quotes.intent", r.request_id),
    expiresAt: r.expires_at,
    apiKeyId: r.api_key_id,
    createdAt: r.created_at,
  };
};

/** One row's placeholders (8 parameters from `$${first + 1}`): the quote stored without its order (`#-`). */
const rowPlaceholders = (first: number) => {
  const p = (k: number) => `$${first + k}`;
  return `(${p(1)}, ${p(2)}, ${p(3)}::jsonb, ${p(4)}::jsonb #- ${ORDER_DATA_PATH}, ${p(5)}::jsonb, ${p(6)}::timestamptz, ${p(7)}, ${p(8)}::timestamptz)`;
};
const INSERT_QUOTES = "INSERT INTO quotes (request_id, order_id, order_data, quote, intent, expires_at, api_key_id, created_at) VALUES ";

/** One row's parameters, in rowPlaceholders' order. */
const rowValues = (quote: NewQuote, createdAt: string) => [
  quote.requestId,
  quote.orderId,
  JSON.stringify(encodeStored(OrderData, quote.orderData)),
  JSON.stringify(quote.quote),
  JSON.stringify(encodeStored(QuotedIntent, quote.intent)),
  quote.expiresAt.toISOString(),
  quote.apiKeyId ?? null,
  createdAt,
];

/**
 * Stores a quote. Returns the stored quote from what was given (only the database's own values are
 * read back): echoing the quote's JSON back out of the database would cost the quote route a second
 * JSON round trip per quote.
 */
export async function saveQuote({ db, now }: StoreContext, quote: NewQuote): Promise<StoredQuote> {
  const createdAt = now().toISOString();
  const { rows } = await db.query<{ expires_at: string; created_at: string }>(
    `${INSERT_QUOTES}${rowPlaceholders(0)} RETURNING ${isoColumn("expires_at")}, ${isoColumn("created_at")}`,
    rowValues(quote, createdAt),
  );
  return {
    requestId: quote.requestId,
    orderId: quote.orderId,
    orderData: quote.orderData,
    quote: quote.quote,
    intent: quote.intent,
    expiresAt: rows[0]!.expires_at,
    apiKeyId: quote.apiKeyId ?? null,
    createdAt: rows[0]!.created_at,
  };
}

/**
 * Stores several quotes in one statement (a multi-row INSERT: all of them or none), each row exactly
 * as `saveQuote` writes it. The quote route's group commit (../quote/quoteWriteBatch.ts): on PGlite a
 * statement of 10 rows costs about 2× less per quote than 10 statements.
 */
export async function saveQuotes({ db, now }: StoreContext, quotes: readonly NewQuote[]): Promise<void> {
  if (quotes.length === 0) return;
  const createdAt = now().toISOString();
  await db.query(`${INSERT_QUOTES}${quotes.map((_, i) => rowPlaceholders(i * 8)).join(", ")}`, quotes.flatMap((quote) => rowValues(quote, createdAt)));
}

export async function getQuote({ db }: StoreContext, requestId: Bytes32): Promise<StoredQuote | null> {
  const { rows } = await db.query<QuoteRow>(`SELECT ${QUOTE_COLUMNS} FROM quotes WHERE request_id = $1`, [requestId]);
  return rows.length === 0 ? null : quoteFromRow(rows[0]);
}

/** The indexer's lookup: a Depository deposit carries the orderId, not the requestId. */
export async function getQuoteByOrderId({ db }: StoreContext, orderId: Bytes32): Promise<StoredQuote | null> {
  const { rows } = await db.query<QuoteRow>(`SELECT ${QUOTE_COLUMNS} FROM quotes WHERE order_id = $1 ORDER BY created_at DESC LIMIT 1`, [orderId]);
  return rows.length === 0 ? null : quoteFromRow(rows[0]);
}

/** The stored orders (`order_data`, decoded) of several requestIds in one query, by requestId (ids without a quote are absent). */
export async function getOrderDataByRequestIds({ db }: StoreContext, requestIds: readonly string[]): Promise<Map<string, Order>> {
  if (requestIds.length === 0) return new Map();
  const { rows } = await db.query<{ request_id: string; order_data: unknown }>(
    "SELECT request_id, order_data FROM quotes WHERE request_id = ANY($1::text[])",
    [[...requestIds]],
  );
  return new Map(rows.map((r) => [r.request_id, decodeStored(OrderData, r.order_data, "quotes.order_data", r.request_id)]));
}

import { QuotedIntent } from "../model/quotedIntent.ts";
import { decodeStored, encodeStored } from "../model/storedValue.ts";
import { isoColumn, type StoreContext } from "./engine.ts";

export type StoredQuote = {
  requestId: string;
  orderId: string;
  orderData: unknown;
  quote: unknown;
  /** What the quote commits Ferry to, decoded (a malformed stored intent is a StoredValueInvalidError). */
  intent: QuotedIntent;
  /** ISO 8601 UTC; the quote may not be deposited against after this. */
  expiresAt: string;
  apiKeyId: string | null;
  createdAt: string;
};

export type NewQuote = Omit<StoredQuote, "createdAt" | "expiresAt" | "apiKeyId"> & { expiresAt: Date; apiKeyId?: string | null };

type QuoteRow = { request_id: string; order_id: string; order_data: unknown; quote: unknown; intent: unknown; expires_at: string; api_key_id: string | null; created_at: string };

const QUOTE_COLUMNS = `request_id, order_id, order_data, quote, intent, ${isoColumn("expires_at")}, api_key_id, ${isoColumn("created_at")}`;

const fromRow = (r: QuoteRow): StoredQuote => ({
  requestId: r.request_id,
  orderId: r.order_id,
  orderData: r.order_data,
  quote: r.quote,
  intent: decodeStored(QuotedIntent, r.intent, "quotes.intent", r.request_id),
  expiresAt: r.expires_at,
  apiKeyId: r.api_key_id,
  createdAt: r.created_at,
});

export async function saveQuote({ db, now }: StoreContext, quote: NewQuote): Promise<StoredQuote> {
  const { rows } = await db.query<QuoteRow>(
    `INSERT INTO quotes (request_id, order_id, order_data, quote, intent, expires_at, api_key_id, created_at)
     VALUES ($1, $2, $3::jsonb, $4::jsonb, $5::jsonb, $6::timestamptz, $7, $8::timestamptz) RETURNING ${QUOTE_COLUMNS}`,
    [
      quote.requestId,
      quote.orderId.toLowerCase(),
      JSON.stringify(quote.orderData),
      JSON.stringify(quote.quote),
      JSON.stringify(encodeStored(QuotedIntent, quote.intent)),
      quote.expiresAt.toISOString(),
      quote.apiKeyId ?? null,
      now().toISOString(),
    ],
  );
  return fromRow(rows[0]);
}

export async function getQuote({ db }: StoreContext, requestId: string): Promise<StoredQuote | null> {
  const { rows } = await db.query<QuoteRow>(`SELECT ${QUOTE_COLUMNS} FROM quotes WHERE request_id = $1`, [requestId]);
  return rows.length === 0 ? null : fromRow(rows[0]);
}

/** The indexer's lookup: a Depository deposit carries the orderId, not the requestId. */
export async function getQuoteByOrderId({ db }: StoreContext, orderId: string): Promise<StoredQuote | null> {
  const { rows } = await db.query<QuoteRow>(`SELECT ${QUOTE_COLUMNS} FROM quotes WHERE order_id = $1 ORDER BY created_at DESC LIMIT 1`, [
    orderId.toLowerCase(),
  ]);
  return rows.length === 0 ? null : fromRow(rows[0]);
}

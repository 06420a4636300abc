/**
 * The spec's Status and Request records, built from a stored request (../store/requests.ts).
 *
 * - `failReason`: `N/A` on non-failure statuses; on `failure` and `refund` the recorded reason, or
 *   `UNKNOWN` when none is recorded. Same rule in the status record and in the request record's `data`.
 * - `refundFailReason`: the recorded reason, else `N/A` in the status record; in the request record's
 *   `data` only when recorded (the spec's request-record enum has no `N/A`).
 * - `depositAddress` is always null: Ferry has no deposit addresses.
 * - A quoted requestId whose deposit is not indexed yet has no request row: its status record
 *   (`quoteStatusRecord`) is `waiting`, built from the quote's intent, with no hashes and
 *   `updatedAt` = the quote's time.
 */
import { Type, type Static } from "typebox";
import type { StoredQuote } from "../store/quotes.ts";
import type { StoredRequest } from "../store/requests.ts";

export const REQUEST_ID_PATTERN = "^0x[0-9a-fA-F]{64}$";
export const RequestId = Type.String({ pattern: REQUEST_ID_PATTERN, description: "requestId: 0x + 64 hex digits" });

/** Statuses as stored (the lifecycle's statuses; `fallback` is never stored). */
export const RequestStatusSchema = Type.Union(
  ["waiting", "depositing", "pending", "submitted", "success", "failure", "refund"].map((s) => Type.Literal(s)),
);

const JsonObject = Type.Object({}, { additionalProperties: true });

export const StatusRecord = Type.Object(
  {
    status: Type.String(),
    inTxHashes: Type.Array(Type.String()),
    txHashes: Type.Array(Type.String()),
    updatedAt: Type.Number({ description: "Unix milliseconds" }),
    originChainId: Type.Number(),
    destinationChainId: Type.Number(),
    details: Type.Union([JsonObject, Type.Null()]),
    failReason: Type.String(),
    refundFailReason: Type.String(),
    depositAddress: Type.Null({ description: "Ferry has no deposit addresses: always null" }),
  },
  { description: "Status record" },
);
export type StatusRecord = Static<typeof StatusRecord>;

export const RequestRecord = Type.Object(
  {
    id: Type.String(),
    status: Type.String(),
    user: Type.String(),
    recipient: Type.String(),
    depositAddress: Type.Null({ description: "Ferry has no deposit addresses: always null" }),
    data: JsonObject,
    orderData: Type.Optional(Type.Unknown({ description: "Only with includeOrderData=true, when the quote's order is stored" })),
    createdAt: Type.String({ description: "ISO 8601" }),
    updatedAt: Type.String({ description: "ISO 8601" }),
  },
  { description: "Request record" },
);
export type RequestRecord = Static<typeof RequestRecord>;

export function failReasonOf(request: StoredRequest): string {
  if (request.status === "failure" || request.status === "refund") return request.failReason ?? "UNKNOWN";
  return "N/A";
}

export function toStatusRecord(request: StoredRequest): StatusRecord {
  const details = request.data.details;
  return {
    status: request.status,
    inTxHashes: request.inTxHashes,
    txHashes: request.txHashes,
    updatedAt: Date.parse(request.updatedAt),
    originChainId: request.originChainId,
    destinationChainId: request.destinationChainId,
    details: details !== null && typeof details === "object" && !Array.isArray(details) ? (details as Record<string, unknown>) : null,
    failReason: failReasonOf(request),
    refundFailReason: request.refundFailReason ?? "N/A",
    depositAddress: null,
  };
}

export function toRequestRecord(request: StoredRequest, orderData?: unknown): RequestRecord {
  return {
    id: request.id,
    status: request.status,
    user: request.user,
    recipient: request.recipient,
    depositAddress: null,
    data: {
      ...request.data,
      failReason: failReasonOf(request),
      ...(request.refundFailReason !== null ? { refundFailReason: request.refundFailReason } : {}),
    },
    ...(orderData !== undefined ? { orderData } : {}),
    createdAt: request.createdAt,
    updatedAt: request.updatedAt,
  };
}

/** The status of a quote whose deposit is not indexed yet: `waiting`. */
export function quoteStatusRecord(quote: StoredQuote): StatusRecord {
  return {
    status: "waiting",
    inTxHashes: [],
    txHashes: [],
    updatedAt: Date.parse(quote.createdAt),
    originChainId: quote.intent.originChainId,
    destinationChainId: quote.intent.destinationChainId,
    details: null,
    failReason: "N/A",
    refundFailReason: "N/A",
    depositAddress: null,
  };
}

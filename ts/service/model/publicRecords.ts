/**
 * The spec's public records of a request — the Status record (GET /intents/status/v3, and the `data`
 * of every `request.status.updated` webhook and websocket message) and the Request record
 * (GET /requests/v2) — projected in this one place from a stored request, a stored quote or an outbox
 * row. Only public fields leave: the solver's state, the parking note and internal ids never do.
 *
 * - `failReason`: `N/A` on non-failure statuses; on `failure` and `refund` the recorded reason, or
 *   `UNKNOWN` when none is recorded. Same rule in the status record, the events and the request
 *   record's `data`.
 * - `refundFailReason`: the recorded reason, else `N/A` — in the status record, the events and the request
 *   record's `data` alike.
 * - The request record's `data` is served by ./servedRequestData.ts (`isNative` on every currency,
 *   `feesUsd` and the refund's `amountUsd` at the quote's price); its children (duplicate and
 *   mismatched deposits, its refund) by ./childRecords.ts, only when asked for.
 * - `status` is the public status (./publicStatus.ts): a `failure` whose refund is in progress shows
 *   the status before it (no failReason, no details) until it is refunded.
 * - `depositAddress`: null unless the quote was paid through a deposit address (its intent's
 *   `depositAddress`): then `{address, depositAddressType, depositor, depositTxHash}`, the last two
 *   null until the payment into the address is known (the request's `depositPayment`). Outbox events
 *   (webhooks, websocket) carry what the status facts held when they were written.
 * - A quoted requestId whose deposit is not indexed yet has no request row: its status record is
 *   `waiting`, built from the quote's intent, with no hashes and `updatedAt` = the quote's time.
 */
import { Type, type Static } from "typebox";
import { orderToJson, type Order } from "../../core/orderJson.ts";
import { publicStatus } from "./publicStatus.ts";
import type { QuotedIntent } from "./quotedIntent.ts";
import { ServedRequestData } from "./requestData.ts";
import { servedRequestData } from "./servedRequestData.ts";
import { ChildRecord } from "./childRecords.ts";
import { RequestStatus } from "./requestStatus.ts";
import { CallFrame, RevertDetails, type Details } from "./solverState.ts";
import type { StoredRequest } from "./storedRequest.ts";
import { BYTES32_PATTERN } from "./values.ts";

export const RequestId = Type.String({ pattern: BYTES32_PATTERN, description: "requestId: 0x + 64 hex digits" });

/** Statuses as stored and served (`fallback` is never stored). */
export const RequestStatusSchema = RequestStatus;

/**
 * A failure's details: what the check that failed found, or for a reverted fill the decoded revert
 * (flat `error`, `revertData`; `callIndex` and `revert` for a destination call's revert) and the
 * failing call's frames: `topLevel` always, `innermost` and `path` when the chain's node answered a
 * call trace (`debug_traceCall` / `debug_traceTransaction` with the callTracer).
 */
const StatusDetails = Type.Object(
  {
    topLevel: Type.Optional({ ...CallFrame, description: "A reverted fill: the fill call (from the call trace, or without one built from the call itself)" }),
    innermost: Type.Optional({ ...CallFrame, description: "A reverted fill: the deepest frame that failed (only with a call trace)" }),
    path: Type.Optional(Type.Array(CallFrame, { description: "A reverted fill: the failing frames from topLevel down to innermost (only with a call trace)" })),
    revert: Type.Optional({ ...RevertDetails, description: "A reverted fill: a destination call's own revert, else the innermost frame's revert, decoded" }),
  },
  { additionalProperties: true, description: "What the failure found; a reverted fill's decoded revert and failing frames" },
);

/** The spec's `depositAddress` object of the status and request records. */
export const DepositAddressRecord = Type.Object(
  {
    address: Type.String({ description: "The deposit address the payer sent a plain transfer to" }),
    depositAddressType: Type.Union([Type.Literal("strict"), Type.Literal("open")], { description: "strict: bound to one quote; open: reusable, one per user and route (each payment its own request)" }),
    depositor: Type.Union([Type.String(), Type.Null()], { description: "Who paid into the address; null until the payment is seen" }),
    depositTxHash: Type.Union([Type.String(), Type.Null()], { description: "The origin-chain transaction of that payment; null until seen" }),
  },
  { description: "The request's deposit address; null when the quote was paid by a Depository call" },
);
export type DepositAddressRecord = Static<typeof DepositAddressRecord>;
const DepositAddressField = Type.Union([DepositAddressRecord, Type.Null()]);

/** The record's `depositAddress` from the intent and, once seen, the payment into the address. */
export function depositAddressRecordOf(intent: Pick<QuotedIntent, "depositAddress"> | undefined, payment?: DepositPaymentFacts | null): DepositAddressRecord | null {
  if (!intent?.depositAddress) return null;
  return { address: intent.depositAddress.address, depositAddressType: intent.depositAddress.mode, depositor: payment?.depositor ?? null, depositTxHash: payment?.txHash ?? null };
}

/** The payment into a deposit address, as far as the records show it. */
export type DepositPaymentFacts = { depositor: string | null; txHash: string | null };

export const StatusRecord = Type.Object(
  {
    status: Type.String(),
    inTxHashes: Type.Array(Type.String()),
    txHashes: Type.Array(Type.String()),
    updatedAt: Type.Number({ description: "Unix milliseconds" }),
    originChainId: Type.Number(),
    destinationChainId: Type.Number(),
    details: Type.Union([StatusDetails, Type.Null()]),
    failReason: Type.String(),
    refundFailReason: Type.String(),
    depositAddress: DepositAddressField,
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
    depositAddress: DepositAddressField,
    data: ServedRequestData,
    childRequests: Type.Optional(
      Type.Array(ChildRecord, { description: "Only with includeChildRequests=true: the request's duplicate and mismatched deposits, then its refund" }),
    ),
    orderData: Type.Optional(Type.Unknown({ description: "Only with includeOrderData=true, when the quote's order is stored" })),
    referrer: Type.Optional(
      Type.Union([Type.String(), Type.Null()], {
        description: "Ferry: the quote's referrer; only with includeAuthenticatedData=true, on the requests of the caller's own API key",
      }),
    ),
    reclaimAt: Type.Optional(
      Type.Integer({
        description:
          "Ferry: a reclaimable quote's reclaim time (unix seconds). From then on the depositor alone may take back a reclaimable deposit the service has not released (repaid or refunded): Depository.reclaim, `ferry reclaim`",
      }),
    ),
    createdAt: Type.String({ description: "ISO 8601" }),
    updatedAt: Type.String({ description: "ISO 8601" }),
  },
  { description: "Request record" },
);
export type RequestRecord = Static<typeof RequestRecord>;

/** The failReason rule: `N/A` unless failed or refunded; then the recorded reason, or `UNKNOWN`. */
export function failReasonOf(status: RequestStatus, recorded: string | null): string {
  return status === "failure" || status === "refund" ? (recorded ?? "UNKNOWN") : "N/A";
}

/** The facts a status record is made of, whether they come from a request row or an outbox row. */
export type StatusFacts = {
  status: RequestStatus;
  inTxHashes: readonly string[];
  txHashes: readonly string[];
  /** Unix milliseconds. */
  updatedAt: number;
  originChainId: number;
  destinationChainId: number;
  details: Details | null;
  failReason: string | null;
  refundFailReason: string | null;
  /** Absent: null (a request paid by a Depository call, or an event from before deposit addresses). */
  depositAddress?: DepositAddressRecord | null;
};

export function statusRecordOf(facts: StatusFacts): StatusRecord {
  return {
    status: facts.status,
    inTxHashes: [...facts.inTxHashes],
    txHashes: [...facts.txHashes],
    updatedAt: facts.updatedAt,
    originChainId: facts.originChainId,
    destinationChainId: facts.destinationChainId,
    details: facts.details,
    failReason: failReasonOf(facts.status, facts.failReason),
    refundFailReason: facts.refundFailReason ?? "N/A",
    depositAddress: facts.depositAddress ?? null,
  };
}

/** The status facts of a stored request (what the outbox freezes at each change). */
export function statusFactsOf(request: StoredRequest): StatusFacts {
  const status = publicStatus(request);
  return {
    status,
    inTxHashes: request.inTxHashes,
    txHashes: request.txHashes,
    updatedAt: Date.parse(request.updatedAt),
    originChainId: request.originChainId,
    destinationChainId: request.destinationChainId,
    details: status === request.status ? request.details : null,
    failReason: request.failReason,
    refundFailReason: request.refundFailReason,
    depositAddress: depositAddressRecordOf(request.solver?.intent, request.solver?.depositPayment),
  };
}

export function toStatusRecord(request: StoredRequest): StatusRecord {
  return statusRecordOf(statusFactsOf(request));
}

/** What a request record adds to the stored request, each only when asked for. */
export type RequestRecordOptions = {
  /** The quote's order (includeOrderData), served in its wire form (`orderToJson`, as the quote carried it). */
  order?: Order;
  /** What the integrator gave at quote time (`referrer`): only for a caller whose API key made the request. */
  authenticated?: boolean;
  /** The request's child records (includeChildRequests). */
  children?: ChildRecord[];
};

/** The Request record. */
export function toRequestRecord(request: StoredRequest, options: RequestRecordOptions = {}): RequestRecord {
  const status = publicStatus(request);
  return {
    id: request.id,
    status,
    user: request.user,
    recipient: request.recipient,
    depositAddress: depositAddressRecordOf(request.solver?.intent, request.solver?.depositPayment),
    data: servedRequestData({ data: request.data, failReason: failReasonOf(status, request.failReason), refundFailReason: request.refundFailReason, intent: request.solver?.intent }),
    ...(options.children !== undefined && { childRequests: options.children }),
    ...(options.order !== undefined ? { orderData: orderToJson(options.order) } : {}),
    ...(options.authenticated ? { referrer: request.referrer } : {}),
    ...(request.solver?.intent.reclaimAt !== undefined && { reclaimAt: request.solver.intent.reclaimAt }),
    createdAt: request.createdAt,
    updatedAt: request.updatedAt,
  };
}

/**
 * The status of a quote whose deposit is not indexed yet: `waiting`. An open deposit address's quote is
 * a placeholder (each payment is re-quoted into its own request): once a payment supersedes it,
 * `details.supersededByRequestId` names that payment's request.
 */
export function quoteStatusRecord(quote: { intent: QuotedIntent; createdAt: string }, supersededByRequestId: string | null = null): StatusRecord {
  return statusRecordOf({
    status: "waiting",
    inTxHashes: [],
    txHashes: [],
    updatedAt: Date.parse(quote.createdAt),
    originChainId: quote.intent.originChainId,
    destinationChainId: quote.intent.destinationChainId,
    details: supersededByRequestId === null ? null : { supersededByRequestId },
    failReason: null,
    refundFailReason: null,
    depositAddress: depositAddressRecordOf(quote.intent),
  });
}

/**
 * The `request.status.updated` event (spec "Events"), built from one outbox row: the same `data` for
 * webhooks and the websocket. `data` is the status record as it was at the change (the outbox
 * payload is frozen in the transaction that made it) plus `requestId`, with the status record's rules:
 * `failReason` is `N/A` unless the status is failure/refund (then the recorded reason or `UNKNOWN`),
 * `refundFailReason` defaults to `N/A`, `depositAddress` is always null (Ferry has no deposit addresses).
 */
import type { StatusRecord } from "../http/requestRecord.ts";
import type { OutboxEvent, OutboxPayload } from "../store/outbox.ts";

export const STATUS_EVENT = "request.status.updated";

export type StatusEventData = StatusRecord & { requestId: string };

/** The webhook body (spec "Event: request.status.updated"); `timestamp` is the change's time (Unix ms). */
export type StatusEventBody = { event: typeof STATUS_EVENT; timestamp: number; data: StatusEventData };

export function statusEventData(payload: OutboxPayload): StatusEventData {
  const failed = payload.status === "failure" || payload.status === "refund";
  return {
    status: payload.status,
    inTxHashes: payload.inTxHashes,
    txHashes: payload.txHashes,
    updatedAt: payload.updatedAt,
    originChainId: payload.originChainId,
    destinationChainId: payload.destinationChainId,
    depositAddress: null,
    requestId: payload.requestId,
    details: payload.details ?? null,
    failReason: failed ? (payload.failReason ?? "UNKNOWN") : "N/A",
    refundFailReason: payload.refundFailReason ?? "N/A",
  };
}

/** The body of one event; the same bytes go out on every attempt of a delivery (only the signature headers change). */
export function statusEventBody(event: Pick<OutboxEvent, "payload">): StatusEventBody {
  return { event: STATUS_EVENT, timestamp: event.payload.updatedAt, data: statusEventData(event.payload) };
}

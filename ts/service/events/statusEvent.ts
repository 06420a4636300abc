/**
 * The `request.status.updated` event (spec "Events"), built from one outbox row: the same `data` for
 * webhooks and the websocket. `data` is the status record as it was at the change (the outbox
 * payload is frozen in the transaction that made it) plus `requestId`, projected by the same function
 * as the status route (../model/publicRecords.ts `statusRecordOf`), so the failReason rule and the
 * field set are the same on every channel.
 */
import { statusRecordOf, type StatusRecord } from "../model/publicRecords.ts";
import type { OutboxEvent, OutboxPayload } from "../store/outbox.ts";

export const STATUS_EVENT = "request.status.updated";

export type StatusEventData = StatusRecord & { requestId: string };

/** The webhook body (spec "Event: request.status.updated"); `timestamp` is the change's time (Unix ms). */
export type StatusEventBody = { event: typeof STATUS_EVENT; timestamp: number; data: StatusEventData };

export function statusEventData(payload: OutboxPayload): StatusEventData {
  return { ...statusRecordOf({ ...payload, details: payload.details ?? null }), requestId: payload.requestId };
}

/** The body of one event; the same bytes go out on every attempt of a delivery (only the signature headers change). */
export function statusEventBody(event: Pick<OutboxEvent, "payload">): StatusEventBody {
  return { event: STATUS_EVENT, timestamp: event.payload.updatedAt, data: statusEventData(event.payload) };
}

import { Type, type Static } from "typebox";
import { statusFactsOf } from "../model/publicRecords.ts";
import { RequestStatus } from "../model/requestStatus.ts";
import { Details } from "../model/solverState.ts";
import type { StoredRequest } from "../model/storedRequest.ts";
import { decodeStored } from "../model/storedValue.ts";
import { Bytes32, Nullable } from "../model/values.ts";
import { isoColumn, type Queryable, type Row, type StoreContext } from "./engine.ts";


/** What a webhook / websocket `request.status.updated` is built from: the status facts frozen at the change. */
export const OutboxPayload = Type.Object({
  requestId: Type.String(),
  status: RequestStatus,
  previousStatus: Nullable(RequestStatus),
  inTxHashes: Type.Array(Type.String()),
  txHashes: Type.Array(Type.String()),
  originChainId: Type.Integer(),
  destinationChainId: Type.Integer(),
  failReason: Nullable(Type.String()),
  refundFailReason: Nullable(Type.String()),
  /** The request's `details` at the time of the change (absent in events written before it was recorded). */
  details: Type.Optional(Nullable(Details)),
  /** Unix milliseconds, as the status record's updatedAt. */
  updatedAt: Type.Number(),
});
export type OutboxPayload = Static<typeof OutboxPayload>;

export type OutboxEvent = {
  id: number;
  requestId: Bytes32;
  status: RequestStatus;
  payload: OutboxPayload;
  createdAt: string;
  deliveredAt: string | null;
};

/**
 * Only ever called inside the transaction that changes the request's public status. The payload holds
 * the status facts as the public records project them (`statusFactsOf`, ../model/publicRecords.ts): the
 * public status, and no details while a refund is in progress.
 */
export async function insertOutboxEvent(tx: Queryable, request: StoredRequest, previousStatus: RequestStatus | null, at: string): Promise<void> {
  const facts = statusFactsOf(request);
  const payload: OutboxPayload = { requestId: request.id, previousStatus, ...facts, inTxHashes: [...facts.inTxHashes], txHashes: [...facts.txHashes] };
  const status = facts.status;
  await tx.query(
    "INSERT INTO request_events (request_id, status, payload, created_at) VALUES ($1, $2, $3::jsonb, $4::timestamptz)",
    [request.id, status, JSON.stringify(payload), at],
  );
}

const EVENT_COLUMNS = `id, request_id, status, payload, ${isoColumn("created_at")}, ${isoColumn("delivered_at")}`;

const EventRow = Type.Object({
  id: Type.Integer(),
  request_id: Bytes32,
  status: RequestStatus,
  payload: OutboxPayload,
  created_at: Type.String(),
  delivered_at: Nullable(Type.String()),
});

/** Decodes one `request_events` row (selected with EVENT_COLUMNS). */
export function outboxEventFromRow(row: Row): OutboxEvent {
  const r = decodeStored(EventRow, { ...row, id: Number(row.id) }, "request_events", String(row.id));
  return { id: r.id, requestId: r.request_id, status: r.status, payload: r.payload, createdAt: r.created_at, deliveredAt: r.delivered_at };
}

const fromRow = outboxEventFromRow;

/** Undelivered events, oldest first. */
export async function pendingOutboxEvents({ db }: StoreContext, limit = 100): Promise<OutboxEvent[]> {
  const { rows } = await db.query(
    `SELECT ${EVENT_COLUMNS} FROM request_events WHERE delivered_at IS NULL ORDER BY id LIMIT $1`,
    [limit],
  );
  return rows.map(fromRow);
}

/** Every event of one request, oldest first. */
export async function requestEvents({ db }: StoreContext, requestId: string): Promise<OutboxEvent[]> {
  const { rows } = await db.query(`SELECT ${EVENT_COLUMNS} FROM request_events WHERE request_id = $1 ORDER BY id`, [requestId]);
  return rows.map(fromRow);
}

export async function markOutboxDelivered({ db, now }: StoreContext, id: number): Promise<void> {
  await db.query("UPDATE request_events SET delivered_at = $2::timestamptz WHERE id = $1 AND delivered_at IS NULL", [id, now().toISOString()]);
}

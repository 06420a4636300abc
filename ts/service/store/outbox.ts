import type { RequestStatus } from "../lifecycle/transitions.ts";
import { isoColumn, type Queryable, type StoreContext } from "./engine.ts";
import type { StoredRequest } from "./requests.ts";

/** What a webhook / websocket `request.status.updated` is built from. */
export type OutboxPayload = {
  requestId: string;
  status: RequestStatus;
  previousStatus: RequestStatus | null;
  inTxHashes: string[];
  txHashes: string[];
  originChainId: number;
  destinationChainId: number;
  failReason: string | null;
  refundFailReason: string | null;
  /** The request's `data.details` at the time of the change (absent in events written before it was recorded). */
  details?: Record<string, unknown> | null;
  /** Unix milliseconds, as the status record's updatedAt. */
  updatedAt: number;
};

export type OutboxEvent = {
  id: number;
  requestId: string;
  status: RequestStatus;
  payload: OutboxPayload;
  createdAt: string;
  deliveredAt: string | null;
};

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  value !== null && typeof value === "object" && !Array.isArray(value);

/** Only ever called inside the transaction that changes the request's status. */
export async function insertOutboxEvent(tx: Queryable, request: StoredRequest, previousStatus: RequestStatus | null, at: string): Promise<void> {
  const payload: OutboxPayload = {
    requestId: request.id,
    status: request.status,
    previousStatus,
    inTxHashes: request.inTxHashes,
    txHashes: request.txHashes,
    originChainId: request.originChainId,
    destinationChainId: request.destinationChainId,
    failReason: request.failReason,
    refundFailReason: request.refundFailReason,
    details: isPlainObject(request.data.details) ? request.data.details : null,
    updatedAt: Date.parse(request.updatedAt),
  };
  await tx.query(
    "INSERT INTO request_events (request_id, status, payload, created_at) VALUES ($1, $2, $3::jsonb, $4::timestamptz)",
    [request.id, request.status, JSON.stringify(payload), at],
  );
}

const EVENT_COLUMNS = `id, request_id, status, payload, ${isoColumn("created_at")}, ${isoColumn("delivered_at")}`;

type EventRow = { id: number; request_id: string; status: RequestStatus; payload: OutboxPayload; created_at: string; delivered_at: string | null };

const fromRow = (r: EventRow): OutboxEvent => ({
  id: r.id,
  requestId: r.request_id,
  status: r.status,
  payload: r.payload,
  createdAt: r.created_at,
  deliveredAt: r.delivered_at,
});

/** Undelivered events, oldest first. */
export async function pendingOutboxEvents({ db }: StoreContext, limit = 100): Promise<OutboxEvent[]> {
  const { rows } = await db.query<EventRow>(
    `SELECT ${EVENT_COLUMNS} FROM request_events WHERE delivered_at IS NULL ORDER BY id LIMIT $1`,
    [limit],
  );
  return rows.map(fromRow);
}

/** Every event of one request, oldest first. */
export async function requestEvents({ db }: StoreContext, requestId: string): Promise<OutboxEvent[]> {
  const { rows } = await db.query<EventRow>(`SELECT ${EVENT_COLUMNS} FROM request_events WHERE request_id = $1 ORDER BY id`, [requestId]);
  return rows.map(fromRow);
}

export async function markOutboxDelivered({ db, now }: StoreContext, id: number): Promise<void> {
  await db.query("UPDATE request_events SET delivered_at = $2::timestamptz WHERE id = $1 AND delivered_at IS NULL", [id, now().toISOString()]);
}

import { Type, type Static } from "typebox";
import { RequestStatus } from "../model/requestStatus.ts";
import { Details } from "../model/solverState.ts";
import { decodeStored } from "../model/storedValue.ts";
import { Bytes32, Nullable } from "../model/values.ts";
import { publicStatusSql } from "./publicStatusSql.ts";
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
 * What a request's outbox event freezes, in SQL over its `requests` row (`row`: "r." for a row named r):
 * the status facts as the public records project them (`statusFactsOf`, ../model/publicRecords.ts —
 * the public status, no details while a refund is in progress, the deposit address's record) with
 * `previousStatus` (an SQL expression). Built where the row is written, so that a write and its event
 * are one statement (./requests.ts); test/service/store/outboxPayloadSql.test.ts holds it to
 * `statusFactsOf` on every kind of request.
 */
export function eventPayloadSql(row: string, previousStatus: string): string {
  const status = publicStatusSql(row);
  const depositAddress = `${row}solver_state->'intent'->'depositAddress'`;
  const payment = `${row}solver_state->'depositPayment'`;
  return `jsonb_build_object(
    'requestId', ${row}id, 'previousStatus', ${previousStatus}, 'status', ${status},
    'inTxHashes', to_jsonb(${row}in_tx_hashes), 'txHashes', to_jsonb(${row}tx_hashes),
    'updatedAt', (extract(epoch FROM date_trunc('milliseconds', ${row}updated_at)) * 1000)::bigint,
    'originChainId', ${row}origin_chain_id, 'destinationChainId', ${row}destination_chain_id,
    'details', CASE WHEN ${status} = ${row}status THEN ${row}details END,
    'failReason', ${row}fail_reason, 'refundFailReason', ${row}refund_fail_reason,
    'depositAddress', CASE WHEN jsonb_typeof(${depositAddress}) = 'object' THEN jsonb_build_object(
      'address', ${depositAddress}->'address', 'depositAddressType', ${depositAddress}->'mode',
      'depositor', ${payment}->'depositor', 'depositTxHash', ${payment}->'txHash') END)`;
}

/**
 * The statement part that writes the outbox event of the rows `source` names (a table or a CTE with
 * `requests` columns, aliased `r`) at `at` (an SQL expression). Only ever part of the statement, or
 * the transaction, that changes the request's public status.
 */
export function insertEventsSql(source: string, previousStatus: string, at: string): string {
  return `INSERT INTO request_events (request_id, status, payload, created_at)
    SELECT r.id, ${publicStatusSql("r.")}, ${eventPayloadSql("r.", previousStatus)}, ${at}::timestamptz FROM ${source}`;
}

/** Writes the outbox event of the request as it is now (inside the transaction that changed its public status). */
export async function insertOutboxEventOf(tx: Queryable, id: Bytes32, previousStatus: RequestStatus | null, at: string): Promise<void> {
  await tx.query(`${insertEventsSql("requests r", "$2::text", "$3")} WHERE r.id = $1`, [id, previousStatus, at]);
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

import { InvalidInputError } from "../../core/errors.ts";
import { INITIAL_STATUSES, assertTransition, type RequestStatus } from "../lifecycle/transitions.ts";
import { isoColumn, type Db, type StoreContext } from "./engine.ts";
import { RequestNotFoundError } from "./errors.ts";
import { insertOutboxEvent } from "./outbox.ts";

/** A request as stored. Addresses and hashes are lowercase; timestamps ISO 8601 UTC with ms. */
export type StoredRequest = {
  id: string;
  orderId: string;
  status: RequestStatus;
  user: string;
  recipient: string;
  originChainId: number;
  destinationChainId: number;
  inTxHashes: string[];
  txHashes: string[];
  failReason: string | null;
  refundFailReason: string | null;
  data: Record<string, unknown>;
  referrer: string | null;
  apiKeyId: string | null;
  originBlock: number | null;
  createdAt: string;
  updatedAt: string;
};

export type NewRequest = {
  id: string;
  orderId: string;
  /** `waiting` (default) or `depositing` (gasless). */
  status?: RequestStatus;
  user: string;
  recipient: string;
  originChainId: number;
  destinationChainId: number;
  inTxHashes?: string[];
  data?: Record<string, unknown>;
  referrer?: string | null;
  apiKeyId?: string | null;
  originBlock?: number | null;
};

/** What a status change may also record. Hashes are appended (deduplicated); `data` is merged key by key. */
export type TransitionPatch = {
  inTxHashes?: string[];
  txHashes?: string[];
  failReason?: string;
  refundFailReason?: string;
  originBlock?: number;
  data?: Record<string, unknown>;
};

export const REQUEST_COLUMNS = [
  "id",
  "order_id",
  "status",
  '"user"',
  "recipient",
  "origin_chain_id",
  "destination_chain_id",
  "in_tx_hashes",
  "tx_hashes",
  "fail_reason",
  "refund_fail_reason",
  "data",
  "referrer",
  "api_key_id",
  "origin_block",
  isoColumn("created_at"),
  isoColumn("updated_at"),
].join(", ");

type RequestRow = {
  id: string;
  order_id: string;
  status: RequestStatus;
  user: string;
  recipient: string;
  origin_chain_id: number;
  destination_chain_id: number;
  in_tx_hashes: string[];
  tx_hashes: string[];
  fail_reason: string | null;
  refund_fail_reason: string | null;
  data: Record<string, unknown>;
  referrer: string | null;
  api_key_id: string | null;
  origin_block: number | null;
  created_at: string;
  updated_at: string;
};

export function requestFromRow(row: RequestRow): StoredRequest {
  return {
    id: row.id,
    orderId: row.order_id,
    status: row.status,
    user: row.user,
    recipient: row.recipient,
    originChainId: row.origin_chain_id,
    destinationChainId: row.destination_chain_id,
    inTxHashes: row.in_tx_hashes,
    txHashes: row.tx_hashes,
    failReason: row.fail_reason,
    refundFailReason: row.refund_fail_reason,
    data: row.data,
    referrer: row.referrer,
    apiKeyId: row.api_key_id,
    originBlock: row.origin_block,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

const lower = (values: string[] = []) => values.map((v) => v.toLowerCase());

/** Creates a request in an initial status and writes its first outbox event, in one transaction. */
export async function createRequest({ db, now }: StoreContext, request: NewRequest): Promise<StoredRequest> {
  const status = request.status ?? "waiting";
  if (!INITIAL_STATUSES.includes(status)) {
    throw new InvalidInputError(`a request starts in ${INITIAL_STATUSES.join(" or ")}, not ${status}`, { path: "status" });
  }
  const at = now().toISOString();
  return db.transaction(async (tx) => {
    const { rows } = await tx.query<RequestRow>(
      `INSERT INTO requests (id, order_id, status, "user", recipient, origin_chain_id, destination_chain_id,
         in_tx_hashes, data, referrer, api_key_id, origin_block, created_at, updated_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9::jsonb, $10, $11, $12, $13::timestamptz, $13::timestamptz)
       RETURNING ${REQUEST_COLUMNS}`,
      [
        request.id,
        request.orderId.toLowerCase(),
        status,
        request.user.toLowerCase(),
        request.recipient.toLowerCase(),
        request.originChainId,
        request.destinationChainId,
        [...new Set(lower(request.inTxHashes))],
        JSON.stringify(request.data ?? {}),
        request.referrer ?? null,
        request.apiKeyId ?? null,
        request.originBlock ?? null,
        at,
      ],
    );
    const created = requestFromRow(rows[0]);
    await insertOutboxEvent(tx, created, null, at);
    return created;
  });
}

export async function getRequest({ db }: StoreContext, id: string): Promise<StoredRequest | null> {
  const { rows } = await db.query<RequestRow>(`SELECT ${REQUEST_COLUMNS} FROM requests WHERE id = $1`, [id]);
  return rows.length === 0 ? null : requestFromRow(rows[0]);
}

export async function getRequestByOrderId({ db }: StoreContext, orderId: string): Promise<StoredRequest | null> {
  const { rows } = await db.query<RequestRow>(`SELECT ${REQUEST_COLUMNS} FROM requests WHERE order_id = $1`, [orderId.toLowerCase()]);
  return rows.length === 0 ? null : requestFromRow(rows[0]);
}

/**
 * Moves a request to `to`: locks the row, checks the transition table, updates the row and writes the
 * outbox event, all in one transaction, so a status change and its event exist together or not at all.
 * Throws RequestNotFoundError or InvalidTransitionError (and then writes nothing).
 */
export async function transitionRequest(
  { db, now }: StoreContext,
  id: string,
  to: RequestStatus,
  patch: TransitionPatch = {},
): Promise<StoredRequest> {
  return db.transaction(async (tx: Db) => {
    const { rows } = await tx.query<RequestRow>(`SELECT ${REQUEST_COLUMNS} FROM requests WHERE id = $1 FOR UPDATE`, [id]);
    if (rows.length === 0) throw new RequestNotFoundError(id);
    const current = requestFromRow(rows[0]);
    assertTransition(current.status, to);
    const at = now().toISOString();
    const updated = await tx.query<RequestRow>(
      `UPDATE requests SET status = $2, in_tx_hashes = $3, tx_hashes = $4, fail_reason = $5, refund_fail_reason = $6,
         origin_block = $7, data = data || $8::jsonb, updated_at = $9::timestamptz
       WHERE id = $1 RETURNING ${REQUEST_COLUMNS}`,
      [
        id,
        to,
        [...new Set([...current.inTxHashes, ...lower(patch.inTxHashes)])],
        [...new Set([...current.txHashes, ...lower(patch.txHashes)])],
        patch.failReason ?? current.failReason,
        patch.refundFailReason ?? current.refundFailReason,
        patch.originBlock ?? current.originBlock,
        JSON.stringify(patch.data ?? {}),
        at,
      ],
    );
    const next = requestFromRow(updated.rows[0]);
    await insertOutboxEvent(tx, next, current.status, at);
    return next;
  });
}

/**
 * The requests repository. Every row is decoded once, here, into the model's `StoredRequest`
 * (../model/storedRequest.ts): a row that does not match its schema is a StoredValueInvalidError
 * naming the column and field. Writes encode the model back (amounts as decimal strings, addresses
 * lowercase). A status change and its outbox event are one statement. Events follow the *public*
 * status (../model/publicStatus.ts): a write writes one exactly when the status a poller sees changes
 * (a stored `failure` whose refund is in progress shows the status before it and writes none; the
 * refund, or a refund that turns out impossible, does).
 */
import { HALTED_CHAINS_SQL } from "./solver/checkpoints.ts";
import { Type } from "typebox";
import { INITIAL_STATUSES, assertTransition, statusesBefore } from "../lifecycle/transitions.ts";
import { RequestData } from "../model/requestData.ts";
import { RequestStatus } from "../model/requestStatus.ts";
import { publicStatus } from "../model/publicStatus.ts";
import { Details, Parked, SolverState, SolverStatePatch } from "../model/solverState.ts";
import type { NewRequest, RequestPatch, StoredRequest } from "../model/storedRequest.ts";
import { decodeStored, encodeStored } from "../model/storedValue.ts";
import { Address, BlockNumber, Bytes32, ChainId, Nullable } from "../model/values.ts";
import { InvalidInputError } from "../../core/errors.ts";
import { isoColumn, type Db, type Row, type StoreContext } from "./engine.ts";
import { RequestNotFoundError } from "./errors.ts";
import { eventPayloadSql, insertEventsSql, insertOutboxEventOf } from "./outbox.ts";
import { publicStatusSql } from "./publicStatusSql.ts";

/** The columns every read of a request selects, in the form `requestFromRow` decodes; `row` qualifies them ("r." for a row named r). */
export function requestColumns(row = ""): string {
  const plain = ["id", "order_id", "status", '"user"', "recipient", "origin_chain_id", "destination_chain_id", "in_tx_hashes", "tx_hashes", "fail_reason", "refund_fail_reason", "data", "details", "solver_state", "parked", "referrer", "api_key_id", "origin_block"];
  return [...plain.map((c) => `${row}${c}`), isoColumn(`${row}created_at`, "created_at"), isoColumn(`${row}updated_at`, "updated_at")].join(", ");
}

export const REQUEST_COLUMNS = requestColumns();


/** A `requests` row as both engines return it (jsonb parsed, int8 as number). */
const RequestRow = Type.Object({
  id: Bytes32,
  order_id: Bytes32,
  status: RequestStatus,
  user: Address,
  recipient: Address,
  origin_chain_id: ChainId,
  destination_chain_id: ChainId,
  in_tx_hashes: Type.Array(Bytes32),
  tx_hashes: Type.Array(Bytes32),
  fail_reason: Nullable(Type.String()),
  refund_fail_reason: Nullable(Type.String()),
  data: RequestData,
  details: Nullable(Details),
  solver_state: Nullable(SolverState),
  parked: Nullable(Parked),
  referrer: Nullable(Type.String()),
  api_key_id: Nullable(Type.String()),
  origin_block: Nullable(BlockNumber),
  created_at: Type.String(),
  updated_at: Type.String(),
});

/** Decodes one row (selected with REQUEST_COLUMNS). */
export function requestFromRow(row: Row): StoredRequest {
  const r = decodeStored(RequestRow, row, "requests", String(row.id));
  return {
    id: r.id,
    orderId: r.order_id,
    status: r.status,
    user: r.user,
    recipient: r.recipient,
    originChainId: r.origin_chain_id,
    destinationChainId: r.destination_chain_id,
    inTxHashes: r.in_tx_hashes,
    txHashes: r.tx_hashes,
    failReason: r.fail_reason,
    refundFailReason: r.refund_fail_reason,
    data: r.data,
    details: r.details,
    solver: r.solver_state,
    parked: r.parked,
    referrer: r.referrer,
    apiKeyId: r.api_key_id,
    originBlock: r.origin_block,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
  };
}

/** Creates a request in an initial status with its first outbox event: one statement. */
export async function createRequest({ db, now }: StoreContext, request: NewRequest): Promise<StoredRequest> {
  const status = request.status ?? "waiting";
  if (!INITIAL_STATUSES.includes(status)) {
    throw new InvalidInputError(`a request starts in ${INITIAL_STATUSES.join(" or ")}, not ${status}`, { path: "status" });
  }
  const { rows } = await db.query(
    `WITH r AS (
       INSERT INTO requests (id, order_id, status, "user", recipient, origin_chain_id, destination_chain_id,
         in_tx_hashes, data, solver_state, referrer, api_key_id, origin_block, created_at, updated_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9::jsonb, $10::jsonb, $11, $12, $13, $14::timestamptz, $14::timestamptz)
       RETURNING *),
     e AS (${insertEventsSql("r", "NULL::text", "$14")})
     SELECT ${REQUEST_COLUMNS} FROM r`,
    newRequestParams(request, status, now().toISOString()),
  );
  return requestFromRow(rows[0]!);
}

/** What crediting a deposit writes into its request (../solver/indexer/depositRequest.ts `depositPatch`). */
export type CreditPatch = Pick<RequestPatch, "inTxHashes" | "originBlock" | "data" | "solver">;

/**
 * Creates a request whose deposit is already credited: what `createRequest(request)` (in `waiting` or
 * `depositing`) followed by `transitionRequest(id, "pending", patch)` write — the row as the
 * transition leaves it, and both outbox events in that order (the initial status's, then `pending`'s,
 * each with its own payload) — in one statement. The indexer's write for a deposit it credits before
 * anything else saw its order.
 */
export async function createCreditedRequest({ db, now }: StoreContext, request: NewRequest, patch: CreditPatch): Promise<StoredRequest> {
  const initial = request.status ?? "waiting";
  if (!INITIAL_STATUSES.includes(initial) || !statusesBefore("pending").includes(initial)) {
    throw new InvalidInputError(`a credited request starts in waiting or depositing, not ${initial}`, { path: "status" });
  }
  // w: the row `createRequest` would insert (never written); r: that row as the transition's UPDATE
  // (updateRequest) would leave it, inserted. The events are one INSERT, ordered, so their ids are too.
  const { rows } = await db.query(
    `WITH w AS (
       SELECT $1::text AS id, $2::text AS order_id, $3::text AS status, $4::text AS "user", $5::text AS recipient,
         $6::bigint AS origin_chain_id, $7::bigint AS destination_chain_id, $8::text[] AS in_tx_hashes, '{}'::text[] AS tx_hashes,
         NULL::text AS fail_reason, NULL::text AS refund_fail_reason, $9::jsonb AS data, $10::jsonb AS solver_state,
         NULL::jsonb AS details, NULL::jsonb AS parked, $11::text AS referrer, $12::text AS api_key_id, $13::bigint AS origin_block,
         $14::timestamptz(3) AS created_at, $14::timestamptz(3) AS updated_at),
     r AS (
       INSERT INTO requests (id, order_id, status, "user", recipient, origin_chain_id, destination_chain_id,
         in_tx_hashes, data, solver_state, referrer, api_key_id, origin_block, created_at, updated_at)
       SELECT id, order_id, 'pending', "user", recipient, origin_chain_id, destination_chain_id,
         ARRAY(SELECT h FROM unnest(w.in_tx_hashes || $15::text[]) WITH ORDINALITY AS t(h, i) GROUP BY h ORDER BY min(i)),
         data || $16::jsonb,
         CASE WHEN $17::jsonb = '{}'::jsonb THEN solver_state ELSE coalesce(solver_state, '{}'::jsonb) || $17::jsonb END,
         referrer, api_key_id, coalesce($18, origin_block), created_at, updated_at
       FROM w RETURNING *),
     e AS (
       INSERT INTO request_events (request_id, status, payload, created_at)
       SELECT request_id, status, payload, $14::timestamptz FROM (
         SELECT 1 AS n, w.id AS request_id, ${publicStatusSql("w.")} AS status, ${eventPayloadSql("w.", "NULL::text")} AS payload FROM w
         UNION ALL
         SELECT 2, r.id, ${publicStatusSql("r.")}, ${eventPayloadSql("r.", publicStatusSql("w."))} FROM r, w WHERE ${publicStatusSql("r.")} <> ${publicStatusSql("w.")}
       ) events ORDER BY n)
     SELECT ${REQUEST_COLUMNS} FROM r`,
    [
      ...newRequestParams(request, initial, now().toISOString()),
      patch.inTxHashes ?? [],
      JSON.stringify(patch.data ?? {}),
      JSON.stringify(patch.solver ? encodeStored(SolverStatePatch, patch.solver) : {}),
      patch.originBlock ?? null,
    ],
  );
  return requestFromRow(rows[0]!);
}

/** $1–$14 of a request's INSERT: its fields in column order, then the time it is written. */
function newRequestParams(request: NewRequest, status: RequestStatus, at: string): unknown[] {
  return [
    request.id,
    request.orderId,
    status,
    request.user,
    request.recipient,
    request.originChainId,
    request.destinationChainId,
    [...new Set(request.inTxHashes ?? [])],
    JSON.stringify(request.data ?? {}),
    request.solver === null ? null : JSON.stringify(encodeStored(SolverState, request.solver)),
    request.referrer ?? null,
    request.apiKeyId ?? null,
    request.originBlock ?? null,
    at,
  ];
}

export async function getRequest({ db }: StoreContext, id: Bytes32): Promise<StoredRequest | null> {
  const { rows } = await db.query(`SELECT ${REQUEST_COLUMNS} FROM requests WHERE id = $1`, [id]);
  return rows.length === 0 ? null : requestFromRow(rows[0]!);
}

/**
 * What a solver step reads first, in one statement: the request and the chains whose indexing is halted
 * after a deep reorg (./solver/checkpoints.ts `listHaltedChains`, the same rows). Null when there is no
 * such request.
 */
export async function getStepRequest({ db }: StoreContext, id: Bytes32): Promise<{ request: StoredRequest; halted: number[] } | null> {
  const { rows } = await db.query<Record<string, unknown> & { halted_chains: (number | string)[] | null }>(
    `SELECT ${REQUEST_COLUMNS},
       ARRAY(${HALTED_CHAINS_SQL}) AS halted_chains
     FROM requests WHERE id = $1`,
    [id],
  );
  if (rows.length === 0) return null;
  const { halted_chains, ...row } = rows[0]!;
  return { request: requestFromRow(row), halted: (halted_chains ?? []).map(Number) };
}

/** The request, its row locked until the surrounding transaction ends (a compare-and-set of the solver's writes). */
export async function lockRequest({ db }: StoreContext, id: Bytes32): Promise<StoredRequest | null> {
  const { rows } = await db.query(`SELECT ${REQUEST_COLUMNS} FROM requests WHERE id = $1 FOR UPDATE`, [id]);
  return rows.length === 0 ? null : requestFromRow(rows[0]!);
}

export async function getRequestByOrderId({ db }: StoreContext, orderId: Bytes32): Promise<StoredRequest | null> {
  const { rows } = await db.query(`SELECT ${REQUEST_COLUMNS} FROM requests WHERE order_id = $1`, [orderId]);
  return rows.length === 0 ? null : requestFromRow(rows[0]!);
}

/**
 * The one UPDATE every write of a request runs: hashes appended (deduplicated, in order), `data` and
 * `solver_state` merged field by field (a null one stays null unless the patch writes some), the rest
 * replaced when given. `status` null keeps the status.
 *
 * `lock`: the same statement first locks the row and reads its public status as it was (BEFORE), and
 * writes the outbox event when the public status changed (./outbox.ts `insertEventsSql`); with `from`
 * it writes only a row in one of those statuses (null otherwise) — a status change's lock, check, write
 * and event in one round trip, and so without a transaction of its own. Under READ COMMITTED the
 * locking subquery waits for a writer in flight and then reads the row it committed.
 */
async function updateRequest(db: Db, id: Bytes32, at: string, status: string | null, patch: RequestPatch, lock?: { from?: readonly RequestStatus[] }): Promise<StoredRequest | null> {
  const update = `UPDATE requests SET
       status = coalesce($2, status),
       in_tx_hashes = ARRAY(SELECT h FROM unnest(in_tx_hashes || $3::text[]) WITH ORDINALITY AS t(h, i) GROUP BY h ORDER BY min(i)),
       tx_hashes = ARRAY(SELECT h FROM unnest(array_remove(tx_hashes, $13::text) || $4::text[]) WITH ORDINALITY AS t(h, i) GROUP BY h ORDER BY min(i)),
       fail_reason = coalesce($5, fail_reason),
       refund_fail_reason = coalesce($6, refund_fail_reason),
       origin_block = coalesce($7, origin_block),
       data = data || $8::jsonb,
       solver_state = CASE WHEN $9::jsonb = '{}'::jsonb THEN solver_state ELSE coalesce(solver_state, '{}'::jsonb) || $9::jsonb END,
       details = CASE WHEN $10::boolean THEN $11::jsonb ELSE details END,
       updated_at = $12::timestamptz`;
  const { rows } = await db.query(
    lock
      ? `WITH r AS (${update} FROM (${BEFORE}) b
           WHERE id = $1 ${lock.from ? "AND b.before_status = ANY($14::text[])" : ""} RETURNING requests.*, b.before_public_status),
         e AS (${insertEventsSql("r", "r.before_public_status", "$12")} WHERE ${publicStatusSql("r.")} <> r.before_public_status)
         SELECT ${REQUEST_COLUMNS} FROM r`
      : `${update} WHERE id = $1 RETURNING ${REQUEST_COLUMNS}`,
    [
      id,
      status,
      patch.inTxHashes ?? [],
      patch.txHashes ?? [],
      patch.failReason ?? null,
      patch.refundFailReason ?? null,
      patch.originBlock ?? null,
      JSON.stringify(patch.data ?? {}),
      JSON.stringify(patch.solver ? encodeStored(SolverStatePatch, patch.solver) : {}),
      patch.details !== undefined,
      patch.details === undefined || patch.details === null ? null : JSON.stringify(patch.details),
      at,
      patch.dropTxHash ?? null,
      ...(lock?.from ? [[...lock.from]] : []),
    ],
  );
  return rows.length === 0 ? null : requestFromRow(rows[0]!);
}

/** The row locked, with its status and its public status as they were: the subquery of a write that may change the public status. */
const BEFORE = `SELECT status AS before_status, ${publicStatusSql()} AS before_public_status FROM requests WHERE id = $1 FOR UPDATE`;

/**
 * Moves a request to `to`, with its outbox event when the public status changes: the lock, the check
 * against the transition table (`from`: the statuses it lets move to `to`), the update and the event
 * are one statement, so a status change and its event exist together or not at all. Only when it wrote
 * nothing is the row read, under its lock, to say why — or, when its status changed in between to one
 * that may move to `to`, to write it then. Throws RequestNotFoundError or InvalidTransitionError (and
 * then writes nothing).
 */
export async function transitionRequest(
  { db, now }: StoreContext,
  id: Bytes32,
  to: RequestStatus,
  patch: RequestPatch = {},
): Promise<StoredRequest> {
  const at = now().toISOString();
  const written = await updateRequest(db, id, at, to, patch, { from: statusesBefore(to) });
  if (written) return written;
  return db.transaction(async (tx: Db) => {
    const { rows } = await tx.query<{ status: RequestStatus }>("SELECT status FROM requests WHERE id = $1 FOR UPDATE", [id]);
    if (rows.length === 0) throw new RequestNotFoundError(id);
    assertTransition(rows[0]!.status, to);
    return (await updateRequest(tx, id, at, to, patch, {}))!;
  });
}

/**
 * Whether `patchRequest(patch)` may write an outbox event: a patch may end a refund in progress (a
 * refund that cannot be made, a reverted refund payout), and the public status then turns `failure`,
 * with its event in the same statement.
 */
export function patchMayWriteEvent(patch: RequestPatch): boolean {
  return patch.refundFailReason !== undefined || patch.solver?.refund !== undefined;
}

/**
 * Records `patch` without changing the status (so no outbox event: webhooks report status changes).
 * Used for the solver's bookkeeping: payouts being prepared and sent, a resent fill, a refund that
 * cannot be made.
 */
export async function patchRequest({ db, now }: StoreContext, id: Bytes32, patch: RequestPatch): Promise<StoredRequest> {
  const updated = await updateRequest(db, id, now().toISOString(), null, patch, patchMayWriteEvent(patch) ? {} : undefined);
  if (!updated) throw new RequestNotFoundError(id);
  return updated;
}

/**
 * Requests written since `since` (their `updated_at`, stamped by the writer's clock: every write of a
 * request's public fields sets it), with that time in unix ms — how a process learns of writes made by
 * other processes (replicas, the `ferry` CLI) without an outbox event of its own: the status cache's
 * refresh (../http/statusRecordCache.ts). At most `limit` rows, newest first; `truncated` when more exist.
 */
export async function listRequestsUpdatedSince(
  { db }: StoreContext,
  since: Date,
  limit = 10_000,
): Promise<{ changes: Array<{ id: string; updatedAt: number }>; truncated: boolean }> {
  const { rows } = await db.query<{ id: string; updated_ms: number }>(
    `SELECT id, (extract(epoch FROM updated_at) * 1000)::float8 AS updated_ms FROM requests
     WHERE updated_at >= $1::timestamptz ORDER BY updated_at DESC LIMIT $2`,
    [since.toISOString(), limit + 1],
  );
  return { changes: rows.slice(0, limit).map((r) => ({ id: r.id, updatedAt: Math.round(Number(r.updated_ms)) })), truncated: rows.length > limit };
}

/**
 * Parks a request: the solver leaves it alone until an operator clears `parked` (a non-retryable
 * error). A parked `failure` shows as `failure` (no refund is coming without an operator): its event
 * is written with it.
 */
export async function parkRequest({ db, now }: StoreContext, id: Bytes32, reason: { code: string; message: string }): Promise<void> {
  const at = now().toISOString();
  const parked = { code: reason.code.slice(0, 64), message: reason.message.slice(0, 1000), at };
  await db.transaction(async (tx: Db) => {
    const { rows } = await tx.query(`UPDATE requests SET parked = $2::jsonb FROM (${BEFORE}) b WHERE id = $1 RETURNING ${REQUEST_COLUMNS}, b.before_public_status`, [id, JSON.stringify(parked)]);
    if (rows.length === 0) return;
    // A row that does not decode (often why it is parked: STORED_VALUE_INVALID) is parked without an
    // event: its public status cannot be read either.
    const { before_public_status: before, ...row } = rows[0]!;
    let after: StoredRequest;
    try {
      after = requestFromRow(row);
    } catch {
      return;
    }
    if (publicStatus(after) !== before) await insertOutboxEventOf(tx, id, before as RequestStatus, at);
  });
}

/** How many requests are parked (a gauge in /metrics). */
export async function countParkedRequests({ db }: StoreContext): Promise<number> {
  const { rows } = await db.query("SELECT count(*)::int AS n FROM requests WHERE parked IS NOT NULL");
  return Number(rows[0]!.n);
}

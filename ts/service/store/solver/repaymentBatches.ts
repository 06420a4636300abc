/**
 * Repayment batches (migration 0023; ../../solver/payout/repaymentBatch.ts): one allocator-signed
 * request paying the repayments of several requests on one Depository. The batch's struct is stored here
 * once, before it is signed, with every member's copy (`requests.solver_state.repayment` naming the
 * batch's nonce and the member's call indexes) written in the same transaction. Forming is serialised
 * per Depository by a transaction-scoped advisory lock (`lockRepaymentBatchForming`), and each member's
 * row is locked and re-checked before it joins: a request is in at most one open batch across replicas.
 * The batch is signed, sent and followed under its own lease (claim columns). Every call joins the
 * caller's transaction.
 */
import { Type } from "typebox";
import { Payout } from "../../model/payout.ts";
import { decodeStored, encodeStored } from "../../model/storedValue.ts";
import { Address, Bytes32, ChainId } from "../../model/values.ts";
import { isoColumn, type Row, type StoreContext } from "../engine.ts";

export type RepaymentBatchState = "open" | "done" | "dissolved";

/** A member of a batch: its request, and its calls and credits in the batch's struct (indexes). */
export type RepaymentBatchMember = { requestId: Bytes32; calls: number[]; credits: number[] };

export type RepaymentBatch = {
  nonce: bigint;
  chainId: number;
  depository: Address;
  payout: Payout;
  members: RepaymentBatchMember[];
  state: RepaymentBatchState;
  createdAt: string;
};

const Member = Type.Object(
  { requestId: Bytes32, calls: Type.Array(Type.Integer({ minimum: 0 })), credits: Type.Array(Type.Integer({ minimum: 0 })) },
  { additionalProperties: false },
);

const BatchRow = Type.Object({
  nonce: Type.String(),
  chain_id: ChainId,
  depository: Address,
  payout: Payout,
  members: Type.Array(Member),
  state: Type.Union([Type.Literal("open"), Type.Literal("done"), Type.Literal("dissolved")]),
  created_at: Type.String(),
});

const COLUMNS = `nonce, chain_id, depository, payout, members, state, ${isoColumn("created_at")}`;

function fromRow(row: Row): RepaymentBatch {
  const r = decodeStored(BatchRow, { ...row, chain_id: Number(row.chain_id) }, "repayment_batches", String(row.nonce));
  return { nonce: BigInt(r.nonce), chainId: r.chain_id, depository: r.depository, payout: r.payout, members: r.members, state: r.state, createdAt: r.created_at };
}

/** Serialises batch forming on one Depository until the surrounding transaction ends (use inside `transaction`). */
export async function lockRepaymentBatchForming({ db }: StoreContext, chainId: number, depository: Address): Promise<void> {
  await db.query("SELECT pg_advisory_xact_lock(hashtext($1)::bigint)", [`ferry.repayment-batch:${chainId}:${depository.toLowerCase()}`]);
}

/**
 * Requests whose repayment waits for a batch on this Depository: `success`, not parked, the fill
 * verified (`repaymentQueuedAt`), no repayment planned, a plain (not reclaimable) deposit — oldest
 * queued first. The caller locks each row and re-checks it (../../solver/payout/repaymentBatch.ts).
 */
export async function listQueuedRepayments({ db }: StoreContext, chainId: number, depository: Address, limit: number): Promise<Array<{ id: Bytes32; queuedAt: number }>> {
  const { rows } = await db.query<{ id: string; queued_at: string }>(
    `SELECT id, solver_state->>'repaymentQueuedAt' AS queued_at FROM requests
     WHERE status = 'success' AND parked IS NULL AND origin_chain_id = $1
       AND solver_state->'repaymentQueuedAt' IS NOT NULL AND solver_state->'repayment' IS NULL
       AND solver_state->'deposit'->'reclaimAt' IS NULL
       AND lower(solver_state->'deposit'->>'depository') = $2
     ORDER BY (solver_state->>'repaymentQueuedAt')::bigint, id LIMIT $3`,
    [chainId, depository.toLowerCase(), limit],
  );
  return rows.map((row) => ({ id: decodeStored(Bytes32, row.id, "requests.id", String(row.id)), queuedAt: Number(row.queued_at) }));
}

/** Stores a new batch (state `open`). */
export async function insertRepaymentBatch(
  { db, now }: StoreContext,
  batch: { chainId: number; depository: Address; payout: Payout; members: readonly RepaymentBatchMember[] },
): Promise<void> {
  const at = now().toISOString();
  await db.query(
    `INSERT INTO repayment_batches (nonce, chain_id, depository, payout, members, state, created_at, updated_at)
     VALUES ($1, $2, $3, $4::jsonb, $5::jsonb, 'open', $6::timestamptz, $6::timestamptz)`,
    [batch.payout.nonce.toString(), batch.chainId, batch.depository, JSON.stringify(encodeStored(Payout, batch.payout)), JSON.stringify(batch.members), at],
  );
}

export async function getRepaymentBatch({ db }: StoreContext, nonce: bigint): Promise<RepaymentBatch | null> {
  const { rows } = await db.query(`SELECT ${COLUMNS} FROM repayment_batches WHERE nonce = $1`, [nonce.toString()]);
  return rows.length === 0 ? null : fromRow(rows[0]!);
}

/** The batch with its row locked until the surrounding transaction ends (use inside `transaction`). */
export async function lockRepaymentBatch({ db }: StoreContext, nonce: bigint): Promise<RepaymentBatch | null> {
  const { rows } = await db.query(`SELECT ${COLUMNS} FROM repayment_batches WHERE nonce = $1 FOR UPDATE`, [nonce.toString()]);
  return rows.length === 0 ? null : fromRow(rows[0]!);
}

/** Stores the batch's payout as it advanced (and its state). */
export async function updateRepaymentBatch({ db, now }: StoreContext, nonce: bigint, payout: Payout, state: RepaymentBatchState): Promise<void> {
  await db.query(`UPDATE repayment_batches SET payout = $2::jsonb, state = $3, updated_at = $4::timestamptz WHERE nonce = $1`, [
    nonce.toString(),
    JSON.stringify(encodeStored(Payout, payout)),
    state,
    now().toISOString(),
  ]);
}

/**
 * Takes (or renews) the lease on a batch for `owner` until `now + ttlMs`; false while another owner's
 * lease runs. Atomic on both engines: the UPDATE's WHERE is re-checked on the locked row.
 */
export async function claimRepaymentBatch({ db, now }: StoreContext, nonce: bigint, owner: string, ttlMs: number): Promise<boolean> {
  const at = now();
  const { rows } = await db.query(
    `UPDATE repayment_batches SET claim_owner = $2, claim_expires_at = $3::timestamptz
     WHERE nonce = $1 AND (claim_owner IS NULL OR claim_owner = $2 OR claim_expires_at < $4::timestamptz)
     RETURNING nonce`,
    [nonce.toString(), owner, new Date(at.getTime() + ttlMs).toISOString(), at.toISOString()],
  );
  return rows.length === 1;
}

/** Gives the lease back (only `owner`'s own). */
export async function releaseRepaymentBatch({ db }: StoreContext, nonce: bigint, owner: string): Promise<void> {
  await db.query("UPDATE repayment_batches SET claim_owner = NULL, claim_expires_at = NULL WHERE nonce = $1 AND claim_owner = $2", [nonce.toString(), owner]);
}

/**
 * A dissolved batch's member: its repayment (the batch's copy, only while it still names `nonce`) is
 * removed, so the request is queued again for a new batch. Returns whether it was.
 */
export async function dropBatchedRepayment({ db, now }: StoreContext, requestId: Bytes32, nonce: bigint): Promise<boolean> {
  const { rowCount } = await db.query(
    `UPDATE requests SET solver_state = solver_state - 'repayment', updated_at = $3::timestamptz
     WHERE id = $1 AND solver_state->'repayment'->>'nonce' = $2 AND solver_state->'repayment'->'batch' IS NOT NULL`,
    [requestId, nonce.toString(), now().toISOString()],
  );
  return rowCount === 1;
}

/**
 * The solver's repository: its work list and the per-request lease that keeps concurrent solver loops
 * apart. Writes to a request go through ./requests.ts (`transitionRequest` for status changes with
 * their outbox event, `patchRequest` for bookkeeping).
 */
import type { Hex } from "viem";
import type { RequestStatus } from "../model/requestStatus.ts";
import { canonicalHex } from "../model/values.ts";
import { type StoreContext } from "./engine.ts";

/** A work-list entry: which request, in which status. The step re-reads (and decodes) the request under its lease. */
export type SolverWorkItem = { id: Hex; status: RequestStatus };

/**
 * Requests the solver still has to act on, least recently updated first: `pending` (fill),
 * `submitted` (confirm), `failure` without a recorded refund failure (refund) and `success` whose
 * repayment is not yet confirmed (`solver_state.repayment.status` ≠ `confirmed`). `waiting`/`depositing`
 * are the indexer's, `refund` is terminal. Failures whose refund reverted (`solver_state.refund.status`
 * = `reverted`) need an operator and are left out, as are parked requests. Only ids and statuses are
 * read: one corrupted row parks that request when its step decodes it, and never blocks the list.
 */
export async function listSolverWork({ db }: StoreContext, limit = 50): Promise<SolverWorkItem[]> {
  const { rows } = await db.query<{ id: string; status: RequestStatus }>(
    `SELECT id, status FROM requests
     WHERE parked IS NULL AND (status IN ('pending', 'submitted')
        OR (status = 'failure' AND refund_fail_reason IS NULL AND coalesce(solver_state->'refund'->>'status', '') <> 'reverted')
        OR (status = 'success' AND coalesce(solver_state->'repayment'->>'status', '') NOT IN ('confirmed', 'reverted')))
     ORDER BY updated_at, id LIMIT $1`,
    [limit],
  );
  return rows.map((row) => ({ id: canonicalHex(row.id), status: row.status }));
}

/**
 * Takes (or renews) the lease on `requestId` for `owner` until `now + ttlMs`. Returns false while
 * another owner's lease is still running. Atomic on both engines: the upsert's WHERE is re-checked on
 * the locked conflicting row.
 */
export async function claimRequest({ db, now }: StoreContext, requestId: string, owner: string, ttlMs: number): Promise<boolean> {
  const at = now();
  const { rows } = await db.query(
    `INSERT INTO solver_claims (request_id, owner, expires_at) VALUES ($1, $2, $3::timestamptz)
     ON CONFLICT (request_id) DO UPDATE SET owner = EXCLUDED.owner, expires_at = EXCLUDED.expires_at
       WHERE solver_claims.owner = EXCLUDED.owner OR solver_claims.expires_at < $4::timestamptz
     RETURNING request_id`,
    [requestId, owner, new Date(at.getTime() + ttlMs).toISOString(), at.toISOString()],
  );
  return rows.length === 1;
}

/** Gives the lease back (only `owner`'s own). */
export async function releaseRequest({ db }: StoreContext, requestId: string, owner: string): Promise<void> {
  await db.query("DELETE FROM solver_claims WHERE request_id = $1 AND owner = $2", [requestId, owner]);
}


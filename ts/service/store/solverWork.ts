/**
 * The solver's repository: its work list, the per-request lease that keeps concurrent solver loops
 * apart, and the `data` writes that are not status changes (repayment and refund bookkeeping).
 * Status changes never happen here: they go through `transitionRequest` (one transaction with their
 * outbox event).
 */
import { type StoreContext } from "./engine.ts";
import { REQUEST_COLUMNS, requestFromRow, type StoredRequest } from "./requests.ts";
import { RequestNotFoundError } from "./errors.ts";

/**
 * Requests the solver still has to act on, least recently updated first: `pending` (fill),
 * `submitted` (confirm), `failure` without a recorded refund failure (refund) and `success` whose
 * repayment is not yet confirmed (`data.repayment.status` ≠ `confirmed`). `waiting`/`depositing` are
 * the indexer's, `refund` is terminal. Failures whose refund reverted (`data.refund.status` =
 * `reverted`) need an operator and are left out.
 */
export async function listSolverWork({ db }: StoreContext, limit = 50): Promise<StoredRequest[]> {
  const { rows } = await db.query(
    `SELECT ${REQUEST_COLUMNS} FROM requests
     WHERE status IN ('pending', 'submitted')
        OR (status = 'failure' AND refund_fail_reason IS NULL AND coalesce(data->'refund'->>'status', '') <> 'reverted')
        OR (status = 'success' AND coalesce(data->'repayment'->>'status', '') NOT IN ('confirmed', 'reverted'))
     ORDER BY updated_at, id LIMIT $1`,
    [limit],
  );
  return rows.map((row) => requestFromRow(row as Parameters<typeof requestFromRow>[0]));
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

/** What a solver write that is not a status change may record: `data` merged key by key, a refund failure. */
export type SolverDataPatch = { data?: Record<string, unknown>; refundFailReason?: string; txHashes?: string[] };

/**
 * Merges `patch` into a request without changing its status (so no outbox event: webhooks report
 * status changes). Used for the repayment record, the fill/refund payout being prepared, and a
 * refund that cannot be made.
 */
export async function patchRequest({ db, now }: StoreContext, id: string, patch: SolverDataPatch): Promise<StoredRequest> {
  const { rows } = await db.query(
    `UPDATE requests SET data = data || $2::jsonb, refund_fail_reason = coalesce($3, refund_fail_reason),
       tx_hashes = ARRAY(SELECT h FROM unnest(tx_hashes || $4::text[]) WITH ORDINALITY AS t(h, i) GROUP BY h ORDER BY min(i)),
       updated_at = $5::timestamptz
     WHERE id = $1 RETURNING ${REQUEST_COLUMNS}`,
    [id, JSON.stringify(patch.data ?? {}), patch.refundFailReason ?? null, (patch.txHashes ?? []).map((h) => h.toLowerCase()), now().toISOString()],
  );
  if (rows.length === 0) throw new RequestNotFoundError(id);
  return requestFromRow(rows[0] as Parameters<typeof requestFromRow>[0]);
}

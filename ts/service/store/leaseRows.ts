/**
 * A lease held as a row `(key, owner, expires_at)`, written once for the tables that hold leases so
 * (`solver_claims` keyed by request_id, `worker_leases` keyed by name). Renewing is claiming again.
 */
import type { StoreContext } from "./engine.ts";

/** Which table and which key column. */
export type LeaseTable = { table: "solver_claims" | "worker_leases"; key: "request_id" | "name" };

/**
 * Takes (or renews) the lease on `key` for `owner` until `now + ttlMs`. Returns false while another
 * owner's lease is still running. Atomic on both engines: the upsert's WHERE is re-checked on the
 * locked conflicting row.
 */
export async function claimLeaseRow({ db, now }: StoreContext, { table, key: column }: LeaseTable, key: string, owner: string, ttlMs: number): Promise<boolean> {
  const at = now();
  const { rows } = await db.query(
    `INSERT INTO ${table} (${column}, owner, expires_at) VALUES ($1, $2, $3::timestamptz) ${takeOver({ table, key: column }, "$4")} RETURNING ${column}`,
    [key, owner, new Date(at.getTime() + ttlMs).toISOString(), at.toISOString()],
  );
  return rows.length === 1;
}

/** Gives the lease back (only `owner`'s own). */
export async function releaseLeaseRow({ db }: StoreContext, { table, key: column }: LeaseTable, key: string, owner: string): Promise<void> {
  await db.query(`DELETE FROM ${table} WHERE ${column} = $1 AND owner = $2`, [key, owner]);
}

/**
 * The upsert's conflict clause of a lease claim: the row is taken over only by its owner (a renewal) or
 * once its lease has run out at `at` (an SQL parameter). Re-checked on the committed row, so of claims
 * at once one wins.
 */
export function takeOver({ table, key: column }: LeaseTable, at: string): string {
  return `ON CONFLICT (${column}) DO UPDATE SET owner = EXCLUDED.owner, expires_at = EXCLUDED.expires_at
       WHERE ${table}.owner = EXCLUDED.owner OR ${table}.expires_at < ${at}::timestamptz`;
}

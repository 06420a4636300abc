/**
 * Leases on work one replica does for all (migration 0024): each chain's deposit indexing, the solver's
 * background passes. `name` says which work; `owner` is the loop (a replica's solver). Renewing is
 * claiming again; a lease not renewed lapses at its expiry.
 */
import type { StoreContext } from "./engine.ts";

/**
 * Takes (or renews) the lease `name` for `owner` until `now + ttlMs`; false while another owner's lease
 * runs. Atomic on both engines: the upsert's WHERE is re-checked on the locked conflicting row.
 */
export async function claimWorkerLease({ db, now }: StoreContext, name: string, owner: string, ttlMs: number): Promise<boolean> {
  const at = now();
  const { rows } = await db.query(
    `INSERT INTO worker_leases (name, owner, expires_at) VALUES ($1, $2, $3::timestamptz)
     ON CONFLICT (name) DO UPDATE SET owner = EXCLUDED.owner, expires_at = EXCLUDED.expires_at
       WHERE worker_leases.owner = EXCLUDED.owner OR worker_leases.expires_at < $4::timestamptz
     RETURNING name`,
    [name, owner, new Date(at.getTime() + ttlMs).toISOString(), at.toISOString()],
  );
  return rows.length === 1;
}

/** Gives the lease back (only `owner`'s own): another replica may take it at once. */
export async function releaseWorkerLease({ db }: StoreContext, name: string, owner: string): Promise<void> {
  await db.query("DELETE FROM worker_leases WHERE name = $1 AND owner = $2", [name, owner]);
}

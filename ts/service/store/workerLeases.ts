/**
 * Leases on work one replica does for all (migration 0024): each chain's deposit indexing, the solver's
 * background passes. `name` says which work; `owner` is the loop (a replica's solver). Renewing is
 * claiming again; a lease not renewed lapses at its expiry.
 */
import type { StoreContext } from "./engine.ts";
import { claimLeaseRow, releaseLeaseRow } from "./leaseRows.ts";

/**
 * Takes (or renews) the lease `name` for `owner` until `now + ttlMs`; false while another owner's lease
 * runs (./leaseRows.ts).
 */
export function claimWorkerLease(ctx: StoreContext, name: string, owner: string, ttlMs: number): Promise<boolean> {
  return claimLeaseRow(ctx, WORKER_LEASES, name, owner, ttlMs);
}

/** Gives the lease back (only `owner`'s own): another replica may take it at once. */
export function releaseWorkerLease(ctx: StoreContext, name: string, owner: string): Promise<void> {
  return releaseLeaseRow(ctx, WORKER_LEASES, name, owner);
}

const WORKER_LEASES = { table: "worker_leases", key: "name" } as const;

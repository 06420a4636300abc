/**
 * `createHeldLease({lease, ttlMs})`: a lease a loop keeps across its passes, for work one replica does
 * for all (each chain's indexing, the background passes). `hold()` before each pass says whether this
 * loop may do it. The store is asked (a claim, which renews a lease held) at most once per third of
 * `ttlMs`; in between, the last answer stands — a pass every 100 ms costs a store write every
 * `ttlMs / 3`, not one per pass, on the replica that holds the lease and on those that do not. A claim
 * that fails (another replica holds it, or the store is away) is "not held" until it is asked again, so
 * a replica that died leaves its work to another within `ttlMs` and a third. `release()`
 * gives it back (a stopping replica's work goes to another at once, not after `ttlMs`).
 * Two holders at once (a pass that outlived the lease) only duplicate work: what must happen once is a
 * compare-and-set in the store.
 */
import type { Lease } from "./leasedRun.ts";

export type HeldLease = {
  /** True when this loop holds the lease now (claimed or renewed if a third of it is gone). */
  hold(): Promise<boolean>;
  release(): Promise<void>;
};

export function createHeldLease(options: { lease: Lease; ttlMs: number; clock?: () => number }): HeldLease {
  const clock = options.clock ?? Date.now;
  let askedAt: number | undefined;
  let held = false;
  return {
    async hold() {
      const now = clock();
      if (askedAt !== undefined && now - askedAt < options.ttlMs / 3) return held;
      askedAt = now;
      held = await options.lease.claim(options.ttlMs).catch(() => false);
      return held;
    },
    async release() {
      askedAt = undefined;
      if (!held) return;
      held = false;
      await options.lease.release().catch(() => {});
    },
  };
}

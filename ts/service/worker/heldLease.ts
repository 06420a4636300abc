/**
 * `createHeldLease({lease, ttlMs})`: a lease a loop keeps across its passes, for work one replica does
 * for all (each chain's indexing, the background passes). `hold()` before each pass says whether this
 * loop may do it. The store is asked (a claim, which renews a lease held) at most once per third of
 * `ttlMs`; in between, the last answer stands — a pass every 100 ms costs a store write every
 * `ttlMs / 3`, not one per pass, on the replica that holds the lease and on those that do not. A claim
 * that fails (another replica holds it, or the store is away) is "not held" until it is asked again, so
 * a replica that died leaves its work to another within `ttlMs` and a third. `run(pass)` renews it
 * while a pass runs, so a pass longer than the lease keeps it. `release()` gives it back (a stopping
 * replica's work goes to another at once, not after `ttlMs`). Two holders at once (a renewal the store
 * refused or could not answer) only duplicate work: what must happen once is a compare-and-set in the
 * store.
 */
import type { Lease } from "./leasedRun.ts";

export type HeldLease = {
  /** True when this loop holds the lease now (claimed or renewed if a third of it is gone). */
  hold(): Promise<boolean>;
  /**
   * Runs `pass` when this loop holds the lease (false when it does not), renewing it while the pass runs:
   * a pass longer than the lease (a slow RPC) keeps it, so no other replica starts the same work meanwhile.
   */
  run(pass: () => Promise<void>): Promise<boolean>;
  release(): Promise<void>;
};

export function createHeldLease(options: { lease: Lease; ttlMs: number; clock?: () => number }): HeldLease {
  const clock = options.clock ?? Date.now;
  let askedAt: number | undefined;
  let held = false;
  const hold = async () => {
    const now = clock();
    if (askedAt !== undefined && now - askedAt < options.ttlMs / 3) return held;
    askedAt = now;
    held = await options.lease.claim(options.ttlMs).catch(() => false);
    return held;
  };
  return {
    hold,
    async run(pass) {
      if (!(await hold())) return false;
      // Asked again every quarter of the lease: at least every other tick finds a third of it gone.
      const renewing = setInterval(() => void hold(), Math.max(1, Math.floor(options.ttlMs / 4)));
      renewing.unref();
      try {
        await pass();
      } finally {
        clearInterval(renewing);
      }
      return true;
    },
    async release() {
      // Given back whenever the store was asked: a claim that threw may still have committed (a
      // statement timeout), and the release deletes only this owner's row.
      const asked = askedAt !== undefined;
      askedAt = undefined;
      held = false;
      if (asked) await options.lease.release().catch(() => {});
    },
  };
}

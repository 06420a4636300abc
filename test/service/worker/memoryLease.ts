import type { Lease } from "../../../ts/service/worker/leasedRun.ts";

/** A lease in memory with the store's semantics: one holder until it expires; `claim` renews the holder's. */
export function memoryLease(clock: () => number = Date.now) {
  const state = { holder: null as string | null, until: 0, claims: 0, releases: 0 };
  const leaseFor = (owner: string, behaviour: { failClaimAfter?: number } = {}): Lease => ({
    async claim(leaseMs) {
      state.claims += 1;
      if (behaviour.failClaimAfter !== undefined && state.claims > behaviour.failClaimAfter) throw new Error("database away");
      if (state.holder !== null && state.holder !== owner && state.until > clock()) return false;
      state.holder = owner;
      state.until = clock() + leaseMs;
      return true;
    },
    async release() {
      state.releases += 1;
      if (state.holder === owner) state.holder = null;
    },
  });
  return { state, leaseFor };
}

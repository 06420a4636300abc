/**
 * `runUnderLease({lease, leaseMs, timeoutMs, run})`: one piece of work under a lease in the store, so
 * that two loops (two replicas) do not do it at the same time.
 * 1. `lease.claim()` takes (or renews) the lease for `leaseMs`; not held, or the claim failed: `run` is
 *    not called and the result is `{ran: false}`.
 * 2. While `run` runs, the lease is renewed every third of `leaseMs` (at least every 100 ms). The abort
 *    signal given to `run` fires when the lease is in doubt — a renewal said it is held by someone else,
 *    or no renewal has worked for longer than the lease can still last — or when `run` has taken
 *    `timeoutMs`. `run` must start nothing new once it fired (the signal is for that); `onAbort` is
 *    told once, with the time taken.
 * 3. Whatever `run` did, the lease is released (a failed release is ignored: the lease lapses) and
 *    `run`'s error, if any, is thrown on — unless `keep(value)` says this holder does the same work
 *    again soon: then the lease is left to lapse at its expiry (no write), and this holder's next claim
 *    renews it (a lease in doubt is released all the same).
 * The lease only keeps loops from doing the same work twice; what must happen at most once is still a
 * compare-and-set in the store.
 */

export type Lease = {
  /** Takes or renews the lease for `leaseMs`; true when this holder has it. */
  claim(leaseMs: number): Promise<boolean>;
  release(): Promise<void>;
};

export type LeasedRunOptions<T> = {
  lease: Lease;
  leaseMs: number;
  /** How long `run` may take before the signal fires; keep it below `leaseMs`. */
  timeoutMs: number;
  run: (signal: AbortSignal) => Promise<T>;
  /** The signal fired (lease in doubt or out of time), after `elapsedMs`. */
  onAbort?: (elapsedMs: number) => void;
  /** True: `run`'s holder will do this work again itself — the lease is kept (left to lapse), not released. */
  keep?: (value: T) => boolean;
};

export type LeasedRunResult<T> = { ran: false } | { ran: true; value: T };

/** The shortest renewal period (a very short lease in tests would otherwise renew in a busy loop). */
export const MIN_RENEW_EVERY_MS = 100;

export async function runUnderLease<T>(options: LeasedRunOptions<T>): Promise<LeasedRunResult<T>> {
  const { lease, leaseMs, timeoutMs } = options;
  if (!(await lease.claim(leaseMs).catch(() => false))) return { ran: false };
  const started = Date.now();
  const abort = new AbortController();
  const fire = () => {
    if (abort.signal.aborted) return;
    options.onAbort?.(Date.now() - started);
    abort.abort();
  };
  let renewedAt = started;
  const renewEvery = Math.max(MIN_RENEW_EVERY_MS, Math.floor(leaseMs / 3));
  const renewal = setInterval(() => {
    if (Date.now() - started >= timeoutMs || Date.now() - renewedAt > leaseMs - renewEvery) {
      fire();
      return;
    }
    lease.claim(leaseMs).then(
      (held) => {
        if (held) renewedAt = Date.now();
        else fire();
      },
      () => {},
    );
  }, renewEvery);
  let value: T;
  try {
    value = await options.run(abort.signal);
  } catch (error) {
    clearInterval(renewal);
    await lease.release().catch(() => {});
    throw error;
  }
  clearInterval(renewal);
  if (abort.signal.aborted || !options.keep?.(value)) await lease.release().catch(() => {});
  return { ran: true, value };
}

/**
 * The retry schedule (pure). Retry n (n = 1 … maxRetries, i.e. attempt n + 1) waits
 *
 *   step(n)  = min(maxDelayMs, baseDelayMs · 2^(n−1))
 *   delay(n) = step(n) · (½ + ½ · random)          — "equal jitter": within [step/2, step]
 *
 * Half of each step is guaranteed, so a receiver that is down gets real exponential spacing; the other
 * half is random, so events that failed together (a receiver outage) do not come back in lockstep.
 * With the defaults (10 s base, 1 h cap, 10 retries) the steps are 10 s, 20 s, 40 s, … 2560 s, 3600 s:
 * the last attempt comes between ~1.2 h and ~2.4 h after the first.
 */
import { ServiceError } from "../errors/serviceError.ts";

export type BackoffSettings = { baseDelayMs: number; maxDelayMs: number };

/** The un-jittered step before retry `retry` (1-based; anything else is INVALID_INPUT). */
export function backoffStepMs(retry: number, settings: BackoffSettings): number {
  if (!Number.isSafeInteger(retry) || retry < 1) throw new ServiceError("INVALID_INPUT", "retry must be a positive integer");
  // 2^(retry−1) overflows nothing for retry ≤ 1024; beyond the cap it no longer matters.
  const exponent = Math.min(retry - 1, 52);
  return Math.min(settings.maxDelayMs, settings.baseDelayMs * 2 ** exponent);
}

/** The jittered delay before retry `retry`: in [step/2, step]. `random` in [0, 1). */
export function backoffDelayMs(retry: number, settings: BackoffSettings, random: () => number = Math.random): number {
  const step = backoffStepMs(retry, settings);
  const r = Math.min(Math.max(random(), 0), 1);
  return Math.round(step / 2 + (step / 2) * r);
}

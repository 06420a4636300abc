/**
 * The pause of a polling loop after `failures` consecutive failed passes (pure): the poll interval when
 * the last pass worked, then the interval doubling per failure up to `maxMs` — so an outage (the database
 * down) costs a log line every couple of seconds, not one per poll, and recovery is noticed quickly.
 *
 *   pause(0) = intervalMs        pause(n ≥ 1) = min(maxMs, intervalMs · 2^(n−1))
 *
 * Not the webhook retry schedule (../webhooks/backoff.ts), which spaces one event's attempts, with jitter.
 */

export type FailureBackoff = { intervalMs: number; maxMs: number };

/** The longest pause between passes while they keep failing, unless a loop says otherwise. */
export const FAILURE_BACKOFF_MAX_MS = 2000;

export function failureBackoffMs(failures: number, { intervalMs, maxMs }: FailureBackoff): number {
  if (failures <= 0) return intervalMs;
  // 2^(failures−1) stays finite for any count a process can reach; past the cap it no longer matters.
  return Math.min(maxMs, intervalMs * 2 ** Math.min(failures - 1, 52));
}

/**
 * `startWorkerLoop({pass, intervalMs, …})`: the loop every background worker of the service runs (the
 * solver's work list and indexers, the webhook delivery). It runs `pass()`, then sleeps `intervalMs` —
 * unless the pass asks to run again at once (`true`: more work is waiting) — and repeats until `stop()`.
 * - **Wake-ups** (./wakeableSleep.ts): `wake()`, and every signal `wakeOn` subscribes it to (a status
 *   change committed, a step or an attempt settled), ends the sleep; one arriving while the pass runs is
 *   kept, so the next sleep ends at once (no lost wake-up).
 * - **Failures**: a pass that throws is reported to `onFailure` with the count of consecutive failures,
 *   and the pause backs off (./failureBackoff.ts) up to `maxBackoffMs`; the first pass that works again
 *   is reported to `onRecovered`. The loop never ends on a failure.
 * - **Stop**: `stop()` unsubscribes, ends the sleep, and resolves once the pass in flight has returned.
 */
import { FAILURE_BACKOFF_MAX_MS, failureBackoffMs } from "./failureBackoff.ts";
import { createWakeableSleep, type WakeableSleep } from "./wakeableSleep.ts";

export type WorkerLoopOptions = {
  /** One round of work; resolves `true` to run again without sleeping. */
  pass: () => Promise<boolean | void>;
  /** The pause between passes. */
  intervalMs: number;
  /** The longest pause while passes keep failing. Default FAILURE_BACKOFF_MAX_MS (2 s). */
  maxBackoffMs?: number;
  /** Subscribes `wake` to the signals that should end a sleep; returns the unsubscribe. */
  wakeOn?: (wake: () => void) => (() => void) | void;
  /** A pass threw; `failures` counts the consecutive ones, this one included. */
  onFailure: (error: unknown, failures: number) => void;
  /** A pass worked after `failures` failed ones. */
  onRecovered?: (failures: number) => void;
  /** The sleep the loop waits in (tests observe it). Default: a new one. */
  sleeper?: WakeableSleep;
};

export type WorkerLoop = {
  /** Ends the sleep now, or the next one at once if a pass is running. */
  wake(): void;
  /** Ends the loop; resolves after the pass in flight. */
  stop(): Promise<void>;
};

export function startWorkerLoop(options: WorkerLoopOptions): WorkerLoop {
  const sleeper = options.sleeper ?? createWakeableSleep();
  const backoff = { intervalMs: options.intervalMs, maxMs: options.maxBackoffMs ?? FAILURE_BACKOFF_MAX_MS };
  const unsubscribe = options.wakeOn?.(() => sleeper.wake());
  let stopped = false;
  const loop = (async () => {
    let failures = 0;
    while (!stopped) {
      let again = false;
      try {
        again = (await options.pass()) === true;
        if (failures > 0) options.onRecovered?.(failures);
        failures = 0;
      } catch (error) {
        failures += 1;
        options.onFailure(error, failures);
      }
      if (stopped) break;
      if (failures > 0 || !again) await sleeper.sleep(failureBackoffMs(failures, backoff));
    }
  })();
  return {
    wake: () => sleeper.wake(),
    async stop() {
      stopped = true;
      unsubscribe?.();
      sleeper.close();
      await loop;
    },
  };
}

/**
 * `createWakeableSleep()`: a sleep that other code can end early. `wake()` ends the sleep in progress;
 * when none is in progress (the loop is busy), it is kept — one at most — and the next `sleep` returns at
 * once. Without that pending wake a change that lands while the loop is working (a status committed, a
 * step or an attempt settled after the loop read the database) would wait a whole interval: the lost
 * wake-up. `close()` ends the sleep in progress and makes every later one return at once (stopping).
 */

export type WakeableSleep = {
  /** Resolves after `ms`, or at once on a wake (pending or arriving) or once closed. */
  sleep(ms: number): Promise<void>;
  /** Ends the sleep in progress, else makes the next `sleep` return at once. */
  wake(): void;
  /** Ends the sleep in progress; every later `sleep` returns at once. */
  close(): void;
};

export function createWakeableSleep(): WakeableSleep {
  let pending = false;
  let closed = false;
  let end: (() => void) | null = null;
  return {
    sleep(ms) {
      return new Promise<void>((resolve) => {
        if (pending || closed) {
          pending = false;
          resolve();
          return;
        }
        const timer = setTimeout(done, ms);
        function done() {
          clearTimeout(timer);
          end = null;
          resolve();
        }
        end = done;
      });
    },
    wake() {
      if (end) end();
      else pending = true;
    },
    close() {
      closed = true;
      end?.();
    },
  };
}

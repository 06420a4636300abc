import { expect } from "chai";
import { createWakeableSleep, type WakeableSleep } from "../../../ts/service/worker/wakeableSleep.ts";
import { startWorkerLoop, type WorkerLoop } from "../../../ts/service/worker/workerLoop.ts";

const LONG = 60_000;

/** A real wakeable sleep that records every pause asked of it. */
function recordingSleep(): WakeableSleep & { pauses: number[] } {
  const inner = createWakeableSleep();
  const pauses: number[] = [];
  return { pauses, sleep: (ms) => (pauses.push(ms), inner.sleep(ms)), wake: inner.wake, close: inner.close };
}

/** Resolves when `condition()` holds; fails the test after `withinMs`. */
async function until(condition: () => boolean, withinMs: number, what: string): Promise<void> {
  const deadline = Date.now() + withinMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`not within ${withinMs} ms: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 2));
  }
}

/** A gate a pass can wait at until the test opens it. */
function gate(): { wait: Promise<void>; open: () => void } {
  let open!: () => void;
  const wait = new Promise<void>((resolve) => (open = resolve));
  return { wait, open };
}

describe("startWorkerLoop", () => {
  let loop: WorkerLoop | undefined;
  afterEach(async () => {
    await loop?.stop();
    loop = undefined;
  });

  it("startWorkerLoop_sleepsTheIntervalBetweenPasses", async () => {
    const sleeper = recordingSleep();
    let passes = 0;
    loop = startWorkerLoop({ pass: async () => void (passes += 1), intervalMs: 10, onFailure: () => {}, sleeper });
    await until(() => passes >= 3, 5000, "three passes");
    expect(sleeper.pauses.slice(0, 2)).to.deep.equal([10, 10]);
  });

  it("startWorkerLoop_runsAgainWithoutSleeping_whenThePassSaysMoreIsWaiting", async () => {
    const sleeper = recordingSleep();
    let passes = 0;
    loop = startWorkerLoop({ pass: async () => (passes += 1) < 4, intervalMs: LONG, onFailure: () => {}, sleeper });
    await until(() => passes >= 4, 5000, "four passes back to back");
    expect(sleeper.pauses).to.deep.equal([LONG]);
  });

  it("wake_duringAPass_runsTheNextPassAtOnce_notAfterTheInterval", async () => {
    // The lost wake-up at the loop's level: a status change (or a settled step) arrives while the pass
    // is still running — after it read the database. The loop must go round again at once; with a
    // 60 s interval a dropped wake-up fails this by timing out.
    const held = gate();
    let passes = 0;
    loop = startWorkerLoop({
      pass: async () => {
        passes += 1;
        if (passes === 1) await held.wait;
      },
      intervalMs: LONG,
      onFailure: () => {},
    });
    await until(() => passes === 1, 5000, "the first pass started");
    loop.wake();
    held.open();
    await until(() => passes === 2, 2000, "a second pass right after the wake-up");
  });

  it("wakeOn_subscribesTheWakeUp_andStopUnsubscribes", async () => {
    const listeners = new Set<() => void>();
    let passes = 0;
    loop = startWorkerLoop({
      pass: async () => void (passes += 1),
      intervalMs: LONG,
      onFailure: () => {},
      wakeOn: (wake) => {
        listeners.add(wake);
        return () => listeners.delete(wake);
      },
    });
    await until(() => passes === 1, 5000, "the first pass");
    for (const listener of listeners) listener();
    await until(() => passes === 2, 2000, "a pass after the signal");
    await loop.stop();
    expect(listeners.size).to.equal(0);
  });

  it("startWorkerLoop_backsOffWhilePassesFail_reportsEachAndTheRecovery", async () => {
    const sleeper = recordingSleep();
    const failures: number[] = [];
    const recovered: number[] = [];
    let passes = 0;
    loop = startWorkerLoop({
      pass: async () => {
        passes += 1;
        if (passes <= 3) throw new Error("database away");
      },
      intervalMs: 5,
      maxBackoffMs: 12,
      onFailure: (error, count) => {
        expect((error as Error).message).to.equal("database away");
        failures.push(count);
      },
      onRecovered: (count) => recovered.push(count),
      sleeper,
    });
    await until(() => passes >= 5, 5000, "five passes");
    expect(failures).to.deep.equal([1, 2, 3]);
    expect(recovered).to.deep.equal([3]);
    expect(sleeper.pauses.slice(0, 4)).to.deep.equal([5, 10, 12, 5]);
  });

  it("stop_endsTheSleepAtOnce_andRunsNoFurtherPass", async () => {
    let passes = 0;
    loop = startWorkerLoop({ pass: async () => void (passes += 1), intervalMs: LONG, onFailure: () => {} });
    await until(() => passes === 1, 5000, "the first pass");
    const started = Date.now();
    await loop.stop();
    expect(Date.now() - started).to.be.below(1000);
    expect(passes).to.equal(1);
  });

  it("stop_duringAPass_resolvesAfterIt_andRunsNoFurtherPass", async () => {
    const held = gate();
    let passes = 0;
    let finished = false;
    loop = startWorkerLoop({
      pass: async () => {
        passes += 1;
        await held.wait;
        finished = true;
        return true;
      },
      intervalMs: LONG,
      onFailure: () => {},
    });
    await until(() => passes === 1, 5000, "the first pass started");
    const stopping = loop.stop();
    setTimeout(held.open, 20);
    await stopping;
    expect(finished).to.equal(true);
    expect(passes).to.equal(1);
  });
});

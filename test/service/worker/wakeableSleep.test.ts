import { expect } from "chai";
import { createWakeableSleep } from "../../../ts/service/worker/wakeableSleep.ts";

/** Milliseconds `promise` took to settle. */
async function timed(promise: Promise<unknown>): Promise<number> {
  const started = performance.now();
  await promise;
  return performance.now() - started;
}

const LONG = 60_000;

describe("createWakeableSleep", () => {
  it("sleep_lastsItsTime_whenNothingWakesIt", async () => {
    const sleeper = createWakeableSleep();
    expect(await timed(sleeper.sleep(30))).to.be.at.least(25);
  });

  it("wake_endsTheSleepInProgress", async () => {
    const sleeper = createWakeableSleep();
    const sleeping = sleeper.sleep(LONG);
    setTimeout(() => sleeper.wake(), 5);
    expect(await timed(sleeping)).to.be.below(1000);
  });

  it("wake_whileNoSleepIsInProgress_endsTheNextSleepAtOnce", async () => {
    // The lost wake-up: the loop is busy (no sleep in progress) when the signal comes. Dropping it —
    // what the webhook worker did with a settled attempt until 9ff786c — makes the loop sleep its whole
    // interval although work is waiting.
    const sleeper = createWakeableSleep();
    sleeper.wake();
    expect(await timed(sleeper.sleep(LONG))).to.be.below(1000);
  });

  it("wake_isKeptOnce_soTwoWakesEndOneSleepOnly", async () => {
    const sleeper = createWakeableSleep();
    sleeper.wake();
    sleeper.wake();
    expect(await timed(sleeper.sleep(LONG))).to.be.below(1000);
    expect(await timed(sleeper.sleep(40))).to.be.at.least(35);
  });

  it("wake_thatEndedASleep_isNotKeptForTheNext", async () => {
    const sleeper = createWakeableSleep();
    const sleeping = sleeper.sleep(LONG);
    sleeper.wake();
    await sleeping;
    expect(await timed(sleeper.sleep(40))).to.be.at.least(35);
  });

  it("close_endsTheSleepInProgressAndEveryLaterOne", async () => {
    const sleeper = createWakeableSleep();
    const sleeping = sleeper.sleep(LONG);
    sleeper.close();
    expect(await timed(sleeping)).to.be.below(1000);
    expect(await timed(sleeper.sleep(LONG))).to.be.below(1000);
    expect(await timed(sleeper.sleep(LONG))).to.be.below(1000);
  });
});

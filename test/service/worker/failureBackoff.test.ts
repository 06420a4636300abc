import { expect } from "chai";
import { FAILURE_BACKOFF_MAX_MS, failureBackoffMs } from "../../../ts/service/worker/failureBackoff.ts";

describe("failureBackoffMs", () => {
  const backoff = { intervalMs: 100, maxMs: FAILURE_BACKOFF_MAX_MS };

  it("failureBackoffMs_isTheInterval_whenThePassWorked", () => {
    expect(failureBackoffMs(0, backoff)).to.equal(100);
  });

  it("failureBackoffMs_doublesPerFailureFromTheInterval_upToTheCap", () => {
    expect(Array.from({ length: 8 }, (_, i) => failureBackoffMs(i + 1, backoff))).to.deep.equal([100, 200, 400, 800, 1600, 2000, 2000, 2000]);
  });

  it("failureBackoffMs_staysAtTheCap_forAnyNumberOfFailures", () => {
    expect(failureBackoffMs(10_000, backoff)).to.equal(2000);
    expect(failureBackoffMs(Number.MAX_SAFE_INTEGER, backoff)).to.equal(2000);
  });

  it("failureBackoffMs_isTheInterval_whenTheIntervalIsAboveTheCap", () => {
    // A slow poll is not made faster by the cap: the first retry waits the interval, then the cap.
    expect(failureBackoffMs(0, { intervalMs: 5000, maxMs: 2000 })).to.equal(5000);
    expect(failureBackoffMs(1, { intervalMs: 5000, maxMs: 2000 })).to.equal(2000);
  });
});

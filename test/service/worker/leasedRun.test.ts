import { expect } from "chai";
import { runUnderLease, type Lease } from "../../../ts/service/worker/leasedRun.ts";
import { memoryLease } from "./memoryLease.ts";

const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe("runUnderLease", () => {
  it("runUnderLease_runsAndReleases_whenTheLeaseIsFree", async () => {
    const { state, leaseFor } = memoryLease();
    const result = await runUnderLease({ lease: leaseFor("a"), leaseMs: 1000, timeoutMs: 900, run: async () => 42 });
    expect(result).to.deep.equal({ ran: true, value: 42 });
    expect(state.holder).to.equal(null);
    expect(state.releases).to.equal(1);
  });

  it("runUnderLease_keepsTheLease_whenKeepSaysSo_butReleasesItWhenTheRunThrowsOrTheLeaseIsInDoubt", async () => {
    const { state, leaseFor } = memoryLease();
    const kept = await runUnderLease({ lease: leaseFor("a"), leaseMs: 1000, timeoutMs: 900, run: async () => "wait", keep: (v) => v === "wait" });
    expect(kept).to.deep.equal({ ran: true, value: "wait" });
    expect(state.releases, "kept: no release").to.equal(0);
    expect(state.holder).to.equal("a");
    expect(await leaseFor("b").claim(1000), "another holder meanwhile").to.equal(false);
    const again = await runUnderLease({ lease: leaseFor("a"), leaseMs: 1000, timeoutMs: 900, run: async () => "done", keep: (v) => v === "wait" });
    expect(again.ran, "the same holder renews it").to.equal(true);
    expect(state.releases).to.equal(1);
    let threw = false;
    await runUnderLease({ lease: leaseFor("a"), leaseMs: 1000, timeoutMs: 900, keep: () => true, run: async () => { throw new Error("step failed"); } }).catch(() => (threw = true));
    expect(threw).to.equal(true);
    expect(state.releases, "a run that threw gives it back").to.equal(2);
    await runUnderLease({ lease: leaseFor("a"), leaseMs: 300, timeoutMs: 50, keep: () => true, run: () => wait(250) });
    expect(state.releases, "a run past its time gives it back").to.equal(3);
  });

  it("runUnderLease_doesNotRun_whenAnotherHolderHasTheLease", async () => {
    const { state, leaseFor } = memoryLease();
    expect(await leaseFor("b").claim(10_000)).to.equal(true);
    let ran = false;
    const result = await runUnderLease({ lease: leaseFor("a"), leaseMs: 1000, timeoutMs: 900, run: async () => void (ran = true) });
    expect(result).to.deep.equal({ ran: false });
    expect(ran).to.equal(false);
    expect(state.holder).to.equal("b");
    expect(state.releases).to.equal(0);
  });

  it("runUnderLease_doesNotRun_whenTheClaimFails", async () => {
    const { leaseFor } = memoryLease();
    let ran = false;
    const result = await runUnderLease({ lease: leaseFor("a", { failClaimAfter: 0 }), leaseMs: 1000, timeoutMs: 900, run: async () => void (ran = true) });
    expect(result).to.deep.equal({ ran: false });
    expect(ran).to.equal(false);
  });

  it("runUnderLease_renewsTheLease_soAnotherHolderCannotTakeItDuringALongRun", async () => {
    const { state, leaseFor } = memoryLease();
    let otherGotIt = false;
    let aborted = false;
    await runUnderLease({
      lease: leaseFor("a"),
      leaseMs: 300,
      timeoutMs: 5000,
      run: async (signal) => {
        for (let i = 0; i < 10; i++) {
          await wait(60);
          if (await leaseFor("b").claim(300)) otherGotIt = true;
        }
        aborted = signal.aborted;
      },
    });
    expect(otherGotIt, "the lease lapsed mid-run").to.equal(false);
    expect(aborted).to.equal(false);
    expect(state.claims).to.be.greaterThan(13); // 1 + the renewals + the other holder's 10 tries
  });

  it("runUnderLease_abortsTheRun_whenItHasTakenItsTime", async () => {
    const { leaseFor } = memoryLease();
    const aborts: number[] = [];
    const result = await runUnderLease({
      lease: leaseFor("a"),
      leaseMs: 3000,
      timeoutMs: 150,
      onAbort: (elapsed) => aborts.push(elapsed),
      run: (signal) => new Promise<string>((resolve) => signal.addEventListener("abort", () => resolve("stopped"))),
    });
    expect(result).to.deep.equal({ ran: true, value: "stopped" });
    expect(aborts).to.have.length(1);
    expect(aborts[0]).to.be.at.least(150);
  });

  it("runUnderLease_abortsTheRun_whenARenewalFindsTheLeaseTaken", async () => {
    const { state, leaseFor } = memoryLease();
    const aborts: number[] = [];
    const result = await runUnderLease({
      lease: leaseFor("a"),
      leaseMs: 300,
      timeoutMs: 5000,
      onAbort: (elapsed) => aborts.push(elapsed),
      run: (signal) => {
        // An operator (or a clock jump) hands the lease to another holder while this one runs.
        state.holder = "b";
        state.until = Date.now() + 60_000;
        return new Promise<string>((resolve) => signal.addEventListener("abort", () => resolve("stopped")));
      },
    });
    expect(result).to.deep.equal({ ran: true, value: "stopped" });
    expect(aborts).to.have.length(1);
    expect(state.holder).to.equal("b");
  });

  it("runUnderLease_abortsTheRun_whenRenewalsKeepFailingUntilTheLeaseCouldHaveLapsed", async () => {
    const { leaseFor } = memoryLease();
    let abortedAfter = -1;
    const started = Date.now();
    await runUnderLease({
      lease: leaseFor("a", { failClaimAfter: 1 }),
      leaseMs: 300,
      timeoutMs: 5000,
      run: (signal) => new Promise<void>((resolve) => signal.addEventListener("abort", () => ((abortedAfter = Date.now() - started), resolve()))),
    });
    // Renewals every 100 ms all fail; the run is stopped before the 300 ms lease can have run out.
    expect(abortedAfter).to.be.within(150, 1500);
  });

  it("runUnderLease_releasesAndThrowsOn_whenTheRunFails", async () => {
    const { state, leaseFor } = memoryLease();
    const failure = new Error("step failed");
    let thrown: unknown;
    await runUnderLease({ lease: leaseFor("a"), leaseMs: 1000, timeoutMs: 900, run: async () => Promise.reject(failure) }).catch((error: unknown) => (thrown = error));
    expect(thrown).to.equal(failure);
    expect(state.holder).to.equal(null);
    expect(state.releases).to.equal(1);
  });

  it("runUnderLease_ignoresAFailedRelease_theLeaseLapses", async () => {
    const lease: Lease = { claim: async () => true, release: async () => Promise.reject(new Error("database away")) };
    expect(await runUnderLease({ lease, leaseMs: 1000, timeoutMs: 900, run: async () => "done" })).to.deep.equal({ ran: true, value: "done" });
  });
});

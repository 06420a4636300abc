// A lease a loop keeps across its passes (ts/service/worker/heldLease.ts): one replica does the work for
// all, and asking the store costs one claim per third of the lease — on the holder and on the others.
import { expect } from "chai";
import { createHeldLease } from "../../../ts/service/worker/heldLease.ts";
import { memoryLease } from "./memoryLease.ts";

describe("heldLease", () => {
  it("hold_asksTheStoreOncePerThirdOfTheLease_andOnlyOneOfTwoLoopsHoldsIt", async () => {
    let now = 0;
    const clock = () => now;
    const { state, leaseFor } = memoryLease(clock);
    const a = createHeldLease({ lease: leaseFor("a"), ttlMs: 3000, clock });
    const b = createHeldLease({ lease: leaseFor("b"), ttlMs: 3000, clock });
    const passes = async () => {
      const held = { a: 0, b: 0 };
      for (let i = 0; i < 30; i++, now += 100) {
        if (await a.hold()) held.a += 1;
        if (await b.hold()) held.b += 1;
      }
      return held;
    };
    expect(await passes(), "3 s of passes every 100 ms").to.deep.equal({ a: 30, b: 0 });
    expect(state.claims, "a and b each asked every second").to.equal(6);
  });

  it("aHolderThatStopsAsking_losesItAfterTheLease_andAnotherLoopTakesItWithinAThirdMore", async () => {
    let now = 0;
    const clock = () => now;
    const { state, leaseFor } = memoryLease(clock);
    const a = createHeldLease({ lease: leaseFor("a"), ttlMs: 3000, clock });
    const b = createHeldLease({ lease: leaseFor("b"), ttlMs: 3000, clock });
    expect(await a.hold()).to.equal(true);
    expect(await b.hold()).to.equal(false);
    // a dies (asks no more); b asks at each pass.
    let takenAt = -1;
    for (; now <= 6000; now += 100) {
      if (await b.hold()) {
        takenAt = now;
        break;
      }
    }
    expect(takenAt, "not before a's lease ran out").to.be.at.least(3000);
    expect(takenAt).to.be.at.most(4000);
    expect(state.holder).to.equal("b");
  });

  it("release_givesItBackAtOnce_onlyWhenTheStoreWasAsked", async () => {
    const { state, leaseFor } = memoryLease();
    const a = createHeldLease({ lease: leaseFor("a"), ttlMs: 3000 });
    const b = createHeldLease({ lease: leaseFor("b"), ttlMs: 3000 });
    await b.release();
    expect(state.releases, "never asked: nothing to give back").to.equal(0);
    expect(await a.hold()).to.equal(true);
    await a.release();
    expect(state.releases).to.equal(1);
    expect(state.holder).to.equal(null);
    expect(await b.hold()).to.equal(true);
  });

  it("aClaimThatThrows_isNotHeld_andIsAskedAgainAfterAThird", async () => {
    let now = 0;
    let calls = 0;
    const lease = createHeldLease({
      lease: {
        claim: async () => {
          calls += 1;
          if (calls === 1) throw new Error("database away");
          return true;
        },
        release: async () => {},
      },
      ttlMs: 3000,
      clock: () => now,
    });
    expect(await lease.hold()).to.equal(false);
    now += 500;
    expect(await lease.hold()).to.equal(false);
    now += 500;
    expect(await lease.hold()).to.equal(true);
    expect(calls).to.equal(2);
  });

  // A pass longer than the lease (an index pass on a slow RPC: up to the step timeout, twice the lease
  // by default) kept it only until it lapsed; another replica then started the same work mid-pass.
  it("run_aPassLongerThanTheLease_keepsIt_noOtherLoopGetsItUntilThePassEnds", async () => {
    const { state, leaseFor } = memoryLease();
    const a = createHeldLease({ lease: leaseFor("a"), ttlMs: 150 });
    const b = createHeldLease({ lease: leaseFor("b"), ttlMs: 150 });
    let bHeldDuringThePass = 0;
    const ran = await a.run(async () => {
      for (let i = 0; i < 30; i++) {
        await new Promise((resolve) => setTimeout(resolve, 20));
        if (await b.hold()) bHeldDuringThePass += 1;
      }
    });
    expect(ran).to.equal(true);
    expect(bHeldDuringThePass, "b held a's lease during a's 600 ms pass").to.equal(0);
    expect(state.holder).to.equal("a");
    expect(await b.run(async () => {})).to.equal(false);
  });

  it("release_givesTheLeaseBack_evenWhenTheLastClaimThrew_afterItMayHaveCommitted", async () => {
    let releases = 0;
    const lease = createHeldLease({
      lease: {
        claim: async () => {
          throw new Error("statement timeout (the claim may have committed)");
        },
        release: async () => void (releases += 1),
      },
      ttlMs: 3000,
    });
    expect(await lease.hold()).to.equal(false);
    await lease.release();
    expect(releases, "the row, if the claim wrote it, is deleted").to.equal(1);
  });
});

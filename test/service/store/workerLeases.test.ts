// The leases on work one replica does for all (ts/service/store/workerLeases.ts), on both engines.
import { expect } from "chai";
import { describeEachEngine } from "./engines.ts";

describeEachEngine("store workerLeases", (engine) => {
  it("claimWorkerLease_isExclusiveUntilReleasedOrLapsed_perName", async () => {
    const { store, clock } = engine;
    expect(await store.claimWorkerLease("solver:index:1", "a", 5000)).to.equal(true);
    expect(await store.claimWorkerLease("solver:index:1", "b", 5000)).to.equal(false);
    expect(await store.claimWorkerLease("solver:index:2", "b", 5000), "another name").to.equal(true);
    expect(await store.claimWorkerLease("solver:index:1", "a", 5000), "renewed by its owner").to.equal(true);
    await store.releaseWorkerLease("solver:index:1", "b"); // not b's: no effect
    expect(await store.claimWorkerLease("solver:index:1", "b", 5000)).to.equal(false);
    clock.ms += 5001;
    expect(await store.claimWorkerLease("solver:index:1", "b", 5000), "a's lapsed").to.equal(true);
    await store.releaseWorkerLease("solver:index:1", "b");
    expect(await store.claimWorkerLease("solver:index:1", "c", 5000), "released").to.equal(true);
  });

  it("claimWorkerLease_concurrentClaims_haveOneWinner", async () => {
    const results = await Promise.all(["a", "b", "c", "d"].map((owner) => engine.store.claimWorkerLease("solver:background", owner, 5000)));
    expect(results.filter(Boolean)).to.have.length(1);
  });
});

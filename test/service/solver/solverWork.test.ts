// The solver's store repository on both engines: the work list and the per-request lease that keeps
// concurrent solver loops (and replicas on one PostgreSQL) apart.
import { expect } from "chai";
import { describeEachEngine } from "../store/engines.ts";

const hex = (n: number, bytes = 32) => `0x${n.toString(16).padStart(bytes * 2, "0")}`;
const newRequest = (n: number) => ({
  id: hex(n),
  orderId: hex(1000 + n),
  user: `0x${"aa".repeat(20)}`,
  recipient: `0x${"bb".repeat(20)}`,
  originChainId: 31337,
  destinationChainId: 31338,
});

describeEachEngine("store solverWork", (engine) => {
  it("claimRequest_isExclusiveUntilReleasedOrLapsed", async () => {
    const { store, clock } = engine;
    await store.createRequest(newRequest(1));
    expect(await store.claimRequest(hex(1), "a", 1000)).to.equal(true);
    expect(await store.claimRequest(hex(1), "b", 1000)).to.equal(false);
    expect(await store.claimRequest(hex(1), "a", 1000)).to.equal(true); // renewal by its owner
    await store.releaseRequest(hex(1), "b"); // not b's: no effect
    expect(await store.claimRequest(hex(1), "b", 1000)).to.equal(false);
    await store.releaseRequest(hex(1), "a");
    expect(await store.claimRequest(hex(1), "b", 1000)).to.equal(true);
    clock.ms += 1001;
    expect(await store.claimRequest(hex(1), "c", 1000)).to.equal(true); // b's lease lapsed
  });

  it("claimRequest_concurrentClaims_haveOneWinner", async () => {
    const { store } = engine;
    await store.createRequest(newRequest(2));
    const results = await Promise.all(["a", "b", "c", "d", "e"].map((owner) => store.claimRequest(hex(2), owner, 10_000)));
    expect(results.filter(Boolean)).to.have.length(1);
  });

  it("listSolverWork_holdsWhatTheSolverStillHasToDo", async () => {
    const { store } = engine;
    for (let n = 10; n < 17; n++) await store.createRequest(newRequest(n));
    await store.transitionRequest(hex(11), "pending");
    await store.transitionRequest(hex(12), "pending");
    await store.transitionRequest(hex(12), "submitted");
    for (const n of [13, 14]) {
      await store.transitionRequest(hex(n), "pending");
      await store.transitionRequest(hex(n), "submitted");
      await store.transitionRequest(hex(n), "success");
    }
    await store.patchRequest(hex(14), { data: { repayment: { status: "confirmed" } } });
    for (const n of [15, 16]) {
      await store.transitionRequest(hex(n), "pending");
      await store.transitionRequest(hex(n), "failure", { failReason: "ORDER_EXPIRED" });
    }
    await store.patchRequest(hex(16), { refundFailReason: "AMOUNT_TOO_LOW_TO_REFUND" });
    const ids = (await store.listSolverWork()).map((r) => r.id).sort();
    expect(ids).to.deep.equal([hex(11), hex(12), hex(13), hex(15)]);
  });

  it("patchRequest_mergesDataWithoutAStatusChangeOrAnEvent", async () => {
    const { store } = engine;
    await store.createRequest({ ...newRequest(20), data: { a: 1 } });
    const patched = await store.patchRequest(hex(20), { data: { b: 2 }, txHashes: [hex(7).toUpperCase().replace("0X", "0x"), hex(8)] });
    expect(patched.status).to.equal("waiting");
    expect(patched.data).to.deep.equal({ a: 1, b: 2 });
    expect(patched.txHashes).to.deep.equal([hex(7), hex(8)]);
    expect((await store.patchRequest(hex(20), { txHashes: [hex(7), hex(9)] })).txHashes).to.deep.equal([hex(7), hex(8), hex(9)]);
    expect(await store.requestEvents(hex(20))).to.have.length(1);
  });
});

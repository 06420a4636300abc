// The solver's store repository on both engines: the work list and the per-request lease that keeps
// concurrent solver loops (and replicas on one PostgreSQL) apart.
import { expect } from "chai";
import { describeEachEngine } from "../store/engines.ts";
import type { Payout } from "../../../ts/service/model/payout.ts";
import { testNewRequest } from "../fixtures/testRequest.ts";
import { canonicalAddress, canonicalHex } from "../../../ts/service/model/values.ts";
import { isSolverWork } from "../../../ts/service/store/solver/solverWork.ts";

const hex = (n: number, bytes = 32) => canonicalHex(`0x${n.toString(16).padStart(bytes * 2, "0")}`);
const newRequest = (n: number) => testNewRequest(n);
const PAYOUT: Payout = {
  chainId: 31337,
  depository: canonicalAddress(`0x${"dd".repeat(20)}`),
  nonce: 1n,
  expiration: 100,
  calls: [],
  requestHash: hex(0x99),
  status: "prepared",
};

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

  it("claimSolverWork_takesTheLeasesItLists_twoOwnersAtOnceGetDifferentRequests_allOfThem", async () => {
    const { store, clock } = engine;
    const ids: string[] = [];
    for (let n = 30; n < 40; n++) {
      await store.createRequest(newRequest(n));
      await store.transitionRequest(hex(n), "pending");
      ids.push(hex(n));
    }
    // At once: on PostgreSQL, two of the pool's connections.
    const [a, firstB] = await Promise.all([store.claimSolverWork(6, [], "a", 10_000), store.claimSolverWork(6, [], "b", 10_000)]);
    // A listing that began before the other committed may spend its slots on requests the other took
    // (they are not returned to it): what it missed comes with its next listing, as the loop's next wake.
    const b = [...firstB, ...(await store.claimSolverWork(6, [], "b", 10_000)).filter((w) => !firstB.some((f) => f.id === w.id))];
    const got = [...a, ...b].map((w) => w.id);
    expect(new Set(got).size, "no request given to both").to.equal(got.length);
    expect(got.length, "ten requests, twelve asked for").to.equal(10);
    // Each listed request comes with its step's first read, as the listing read it.
    expect(a[0]!.read().request.id).to.equal(a[0]!.id);
    expect(a[0]!.read().request.status).to.equal("pending");
    // Theirs now: another owner is given none, each owner's listing renews its own.
    expect(await store.claimSolverWork(10, [], "c", 10_000)).to.deep.equal([]);
    expect(await store.claimRequest(a[0]!.id, "c", 10_000)).to.equal(false);
    expect((await store.claimSolverWork(10, [], "a", 10_000)).map((w) => w.id).sort()).to.deep.equal(a.map((w) => w.id).sort());
    // Lapsed: anyone's again.
    clock.ms += 10_001;
    expect((await store.claimSolverWork(10, [ids[0]!], "c", 10_000)).map((w) => w.id).sort()).to.deep.equal(ids.slice(1).sort());
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
    await store.patchRequest(hex(14), { solver: { repayment: { ...PAYOUT, status: "confirmed" } } });
    for (const n of [15, 16]) {
      await store.transitionRequest(hex(n), "pending");
      await store.transitionRequest(hex(n), "failure", { failReason: "ORDER_EXPIRED" });
    }
    await store.patchRequest(hex(16), { refundFailReason: "AMOUNT_TOO_LOW_TO_REFUND" });
    const ids = (await store.listSolverWork()).map((r) => r.id).sort();
    expect(ids).to.deep.equal([hex(11), hex(12), hex(13), hex(15)]);
    // A parked request leaves the work list until an operator clears the column.
    await store.parkRequest(hex(12), { code: "FILLED_REQUEST_NOT_REFUNDABLE", message: "filled onchain" });
    expect((await store.listSolverWork()).map((r) => r.id).sort()).to.deep.equal([hex(11), hex(13), hex(15)]);
    expect(await store.countParkedRequests()).to.equal(1);
    expect((await store.getRequest(hex(12)))!.parked).to.include({ code: "FILLED_REQUEST_NOT_REFUNDABLE", message: "filled onchain" });
    await store.engine.query("UPDATE requests SET parked = NULL WHERE id = $1", [hex(12)]);
    expect((await store.listSolverWork()).map((r) => r.id).sort()).to.deep.equal([hex(11), hex(12), hex(13), hex(15)]);
  });

  it("isSolverWork_saysInTypeScriptWhatTheWorkListSaysInSql_onEveryKindOfRequest", async () => {
    const { store } = engine;
    const fastFill = (hold: "held" | "settled") => ({
      apiKeyId: "k",
      holdId: "h",
      amountUsd: 1n,
      seen: { txHash: hex(0xf5), chainId: 31337, token: canonicalAddress(`0x${"00".repeat(20)}`), amount: 1n, blockTimestamp: 1 },
      hold,
    });
    const to = async (n: number, ...statuses: Parameters<typeof store.transitionRequest>[1][]) => {
      for (const status of statuses) await store.transitionRequest(hex(n), status);
    };
    for (let n = 50; n < 64; n++) await store.createRequest(newRequest(n));
    await store.createRequest({ ...newRequest(64), solver: null, status: "depositing" });
    await store.createRequest({ ...newRequest(65), status: "depositing" });
    await to(51, "pending");
    await to(52, "pending", "submitted");
    await to(53, "pending", "submitted", "success");
    await to(54, "pending", "submitted", "success");
    await store.patchRequest(hex(54), { solver: { repayment: { ...PAYOUT, status: "confirmed" } } });
    await to(55, "pending", "submitted", "success");
    await store.patchRequest(hex(55), { solver: { repayment: { ...PAYOUT, status: "reverted" } } });
    await to(56, "pending", "submitted", "success");
    await store.patchRequest(hex(56), { solver: { repayment: { ...PAYOUT, status: "sent", hash: hex(0x56) } } });
    await to(57, "pending", "failure");
    await to(58, "pending", "failure");
    await store.patchRequest(hex(58), { refundFailReason: "AMOUNT_TOO_LOW_TO_REFUND" });
    await to(59, "pending", "failure");
    await store.patchRequest(hex(59), { solver: { refund: { ...PAYOUT, status: "reverted" } } });
    await to(60, "pending", "failure", "refund");
    await to(61, "pending", "submitted", "success");
    await store.patchRequest(hex(61), { solver: { fastFill: fastFill("settled") } });
    await to(62, "pending", "submitted", "success");
    await store.patchRequest(hex(62), { solver: { fastFill: fastFill("held") } });
    await to(63, "pending");
    await store.parkRequest(hex(63), { code: "X", message: "parked" });
    await to(64, "success");
    const listed = new Set<string>((await store.listSolverWork(100)).map((w) => w.id));
    const said: Record<string, boolean> = {};
    for (let n = 50; n <= 65; n++) said[hex(n)] = isSolverWork((await store.getRequest(hex(n)))!);
    expect(said).to.deep.equal(Object.fromEntries(Object.keys(said).map((id) => [id, listed.has(id)])));
    // Both ways round: some are work, some are not.
    expect(Object.values(said).filter(Boolean).length).to.equal(6);
    // The work-by-status gauge counts the same requests.
    const byStatus = { pending: 0, submitted: 0, failure: 0, success: 0 };
    for (let n = 50; n <= 65; n++) {
      const request = (await store.getRequest(hex(n)))!;
      if (said[hex(n)]) byStatus[request.status as keyof typeof byStatus] += 1;
    }
    expect(await store.countSolverWork()).to.deep.equal(byStatus);
  });

  it("claimSolverWork_deletesLapsedLeases_andTakesOverALapsedOneItLists", async () => {
    const { store, clock } = engine;
    for (const n of [70, 71]) {
      await store.createRequest(newRequest(n));
      await store.transitionRequest(hex(n), "pending");
      expect(await store.claimRequest(hex(n), "gone", 1000)).to.equal(true);
    }
    // 71 is done: nothing lists it again, and its lease is left to lapse.
    await store.transitionRequest(hex(71), "failure");
    await store.patchRequest(hex(71), { refundFailReason: "AMOUNT_TOO_LOW_TO_REFUND" });
    const leases = async () => (await store.engine.query<{ request_id: string; owner: string }>("SELECT request_id, owner FROM solver_claims WHERE request_id = ANY($1::text[]) ORDER BY request_id", [[hex(70), hex(71)]])).rows;
    expect(await store.claimSolverWork(10, [], "a", 10_000)).to.deep.equal([]);
    expect(await leases()).to.have.length(2);
    clock.ms += 1001;
    const taken = await store.claimSolverWork(10, [], "a", 10_000);
    expect(taken.map((w) => w.id)).to.deep.equal([hex(70)]);
    expect(await leases()).to.deep.equal([{ request_id: hex(70), owner: "a" }]);
  });

  it("patchRequest_mergesDataWithoutAStatusChangeOrAnEvent", async () => {
    const { store } = engine;
    await store.createRequest({ ...newRequest(20), data: { slippageTolerance: "1" } });
    const patched = await store.patchRequest(hex(20), { data: { subsidizedRequest: false }, txHashes: [canonicalAddress(`0x${hex(7).slice(2).toUpperCase()}`), hex(8)] });
    expect(patched.status).to.equal("waiting");
    expect(patched.data).to.deep.equal({ slippageTolerance: "1", subsidizedRequest: false });
    expect(patched.txHashes).to.deep.equal([hex(7), hex(8)]);
    expect((await store.patchRequest(hex(20), { txHashes: [hex(7), hex(9)] })).txHashes).to.deep.equal([hex(7), hex(8), hex(9)]);
    // A resent fill replaces the hash the chain never saw.
    expect((await store.patchRequest(hex(20), { txHashes: [hex(10)], dropTxHash: hex(9) })).txHashes).to.deep.equal([hex(7), hex(8), hex(10)]);
    expect(await store.requestEvents(hex(20))).to.have.length(1);
  });
});

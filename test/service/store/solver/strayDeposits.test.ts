// The stray-deposit repository on both engines: recorded once per log (re-reads, replicas, the index
// route), exact uint256 amounts, the solver's pending list, patches, and the per-stray lease.
import { expect } from "chai";
import type { NewStrayDeposit } from "../../../../ts/service/store/solver/strayDeposits.ts";
import type { Payout } from "../../../../ts/service/model/payout.ts";
import { canonicalAddress, canonicalHex } from "../../../../ts/service/model/values.ts";
import { describeEachEngine } from "../engines.ts";

const hex = (n: number, bytes = 32) => canonicalHex(`0x${n.toString(16).padStart(bytes * 2, "0")}`);
const PAYOUT: Payout = { chainId: 31337, depository: canonicalAddress(`0x${"dd".repeat(20)}`), nonce: 1n, expiration: 100, calls: [], requestHash: hex(0x99), status: "prepared" };
const stray = (n: number, overrides: Partial<NewStrayDeposit> = {}): NewStrayDeposit => ({
  chainId: 31337,
  txHash: hex(n),
  logIndex: 0,
  depository: canonicalAddress(`0x${"Dd".repeat(20)}`),
  block: 10 + n,
  orderId: hex(5000 + n),
  depositor: canonicalAddress(`0x${"Aa".repeat(20)}`),
  token: "0x0000000000000000000000000000000000000000",
  amount: 1000n,
  reason: "UNKNOWN_ORDER",
  ...overrides,
});
const keyOf = (s: NewStrayDeposit) => ({ chainId: s.chainId, txHash: s.txHash, logIndex: s.logIndex });

describeEachEngine("store strayDeposits", (engine) => {
  it("recordStrayDeposit_recordsOncePerLog_andKeepsTheFirstRecord", async () => {
    const { store } = engine;
    const first = stray(1, { reason: "DOUBLE_SPEND", requestId: hex(77) });
    expect(await store.recordStrayDeposit(first)).to.equal(true);
    expect(await store.recordStrayDeposit({ ...first, txHash: canonicalHex(`0x${first.txHash.slice(2).toUpperCase()}`), amount: 5n })).to.equal(false);
    // Another log of the same transaction, and the same transaction hash on another chain, are other deposits.
    expect(await store.recordStrayDeposit({ ...first, logIndex: 1 })).to.equal(true);
    expect(await store.recordStrayDeposit({ ...first, chainId: 31338 })).to.equal(true);
    const stored = await store.getStrayDeposit(keyOf(first));
    expect(stored).to.include({ amount: 1000n, reason: "DOUBLE_SPEND", requestId: hex(77), state: "pending", ignoredReason: null, refund: null });
    expect(stored!.depositor).to.equal(`0x${"aa".repeat(20)}`);
    expect(stored!.depository).to.equal(`0x${"dd".repeat(20)}`);
    const { rows } = await store.engine.query<{ n: number }>("SELECT count(*)::int AS n FROM stray_deposits");
    expect(rows[0].n).to.equal(3);
  });

  it("recordStrayDeposit_concurrentRecords_haveOneWinner", async () => {
    const { store } = engine;
    const results = await Promise.all([1, 2, 3, 4].map(() => store.recordStrayDeposit(stray(2))));
    expect(results.filter(Boolean)).to.have.length(1);
  });

  it("recordStrayDeposit_keepsAUint256AmountExactly", async () => {
    const max = 2n ** 256n - 1n;
    await engine.store.recordStrayDeposit(stray(3, { amount: max }));
    expect((await engine.store.getStrayDeposit(keyOf(stray(3))))!.amount).to.equal(max);
  });

  it("recordStrayDeposit_joinsTheCallersTransaction", async () => {
    const { store } = engine;
    await store
      .transaction(async (tx) => {
        await tx.recordStrayDeposit(stray(4));
        throw new Error("rolled back");
      })
      .catch(() => {});
    expect(await store.getStrayDeposit(keyOf(stray(4)))).to.equal(null);
  });

  it("listPendingStrayDeposits_leavesOutRefundedIgnoredAndRevertedRefunds", async () => {
    const { store, clock } = engine;
    for (let n = 10; n < 15; n++) {
      await store.recordStrayDeposit(stray(n));
      clock.ms += 1000;
    }
    await store.patchStrayDeposit(keyOf(stray(11)), { state: "refunded", refund: { ...PAYOUT, status: "confirmed" } });
    await store.patchStrayDeposit(keyOf(stray(12)), { state: "ignored", ignoredReason: "UNSUPPORTED_CURRENCY" });
    await store.patchStrayDeposit(keyOf(stray(13)), { refund: { ...PAYOUT, status: "reverted", failReason: "TRANSACTION_REVERTED" } });
    await store.patchStrayDeposit(keyOf(stray(14)), { refund: { ...PAYOUT, status: "sent", hash: hex(99) } });
    const pending = await store.listPendingStrayDeposits();
    // Least recently touched first: 10 was never patched.
    expect(pending.map((s) => s.txHash)).to.deep.equal([hex(10), hex(14)]);
    expect(pending[1]!.refund).to.deep.equal({ ...PAYOUT, status: "sent", hash: hex(99) });
    expect(await store.listPendingStrayDeposits(1)).to.have.length(1);
  });

  it("patchStrayDeposit_ofAnUnknownStray_throwsStrayDepositNotFound", async () => {
    const error = await engine.store.patchStrayDeposit(keyOf(stray(20)), { state: "refunded" }).catch((e: unknown) => e);
    expect(error).to.have.property("code", "STRAY_DEPOSIT_NOT_FOUND");
  });

  it("patchStrayDeposit_ignoredWithoutAReason_isRejectedByTheSchema", async () => {
    await engine.store.recordStrayDeposit(stray(21));
    const error = await engine.store.patchStrayDeposit(keyOf(stray(21)), { state: "ignored" }).catch((e: unknown) => e);
    expect(error).to.be.instanceOf(Error);
    expect((await engine.store.getStrayDeposit(keyOf(stray(21))))!.state).to.equal("pending");
  });

  it("claimStrayDeposit_isExclusiveUntilReleasedOrLapsed", async () => {
    const { store, clock } = engine;
    const key = keyOf(stray(30));
    await store.recordStrayDeposit(stray(30));
    expect(await store.claimStrayDeposit(key, "a", 1000)).to.equal(true);
    expect(await store.claimStrayDeposit(key, "b", 1000)).to.equal(false);
    expect(await store.claimStrayDeposit(key, "a", 1000)).to.equal(true);
    await store.releaseStrayDeposit(key, "b");
    expect(await store.claimStrayDeposit(key, "b", 1000)).to.equal(false);
    await store.releaseStrayDeposit(key, "a");
    expect(await store.claimStrayDeposit(key, "b", 1000)).to.equal(true);
    clock.ms += 1001;
    expect(await store.claimStrayDeposit(key, "c", 1000)).to.equal(true);
    expect(await store.claimStrayDeposit(keyOf(stray(31)), "a", 1000)).to.equal(false); // not recorded
  });

  it("claimStrayDeposit_concurrentClaims_haveOneWinner", async () => {
    const { store } = engine;
    await store.recordStrayDeposit(stray(32));
    const results = await Promise.all(["a", "b", "c", "d", "e"].map((owner) => store.claimStrayDeposit(keyOf(stray(32)), owner, 10_000)));
    expect(results.filter(Boolean)).to.have.length(1);
  });

  it("startStrayTracking_setsTheStartOnce_perChainAndContract", async () => {
    const { store } = engine;
    const contract = canonicalAddress(`0x${"Dd".repeat(20)}`);
    expect(await store.getStrayTrackingStart(31337, contract)).to.equal(null);
    expect(await store.startStrayTracking(31337, contract, 100)).to.equal(100);
    expect(await store.startStrayTracking(31337, canonicalAddress(`0x${"DD".repeat(20)}`), 500)).to.equal(100);
    expect(await store.getStrayTrackingStart(31337, contract)).to.equal(100);
    expect(await store.getStrayTrackingStart(31338, contract)).to.equal(null);
  });
});

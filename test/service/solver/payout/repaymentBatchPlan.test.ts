// The batched repayment's plan (ts/service/solver/payout/repaymentBatchPlan.ts): each member's calls and
// credits exactly its own repayment's, indexed; one struct, its own nonce domain; when a batch is due.
import { expect } from "chai";
import { zeroAddress } from "viem";
import { payoutRequestHash } from "../../../../ts/core/payoutRequest.ts";
import { settlementRequestHash } from "../../../../ts/core/settlementRequest.ts";
import { payoutNonce, planPayout, settlementRequestOf } from "../../../../ts/service/solver/payout/payoutPlan.ts";
import { batchDue, memberRepayment, planRepaymentBatch, RepaymentBatchPlanError, repaymentBatchNonce } from "../../../../ts/service/solver/payout/repaymentBatchPlan.ts";
import { canonicalAddress, canonicalHex } from "../../../../ts/service/model/values.ts";

const id = (n: number) => canonicalHex(`0x${n.toString(16).padStart(2, "0").repeat(32)}`);
const SOLVER = canonicalAddress(`0x${"22".repeat(20)}`);
const REFUND_TO = canonicalAddress(`0x${"33".repeat(20)}`);
const APP = canonicalAddress(`0x${"aa".repeat(20)}`);
const DEPOSITORY = canonicalAddress(`0x${"44".repeat(20)}`);
const TOKEN = canonicalAddress(`0x${"55".repeat(20)}`);
const deposit = (amount: bigint, token = zeroAddress as `0x${string}`) => ({ chainId: 1, depository: DEPOSITORY, txHash: id(9), logIndex: 0, block: 5, blockTimestamp: 100, depositor: REFUND_TO, token: canonicalAddress(token), amount });
const member = (n: number, amount: bigint, more: object = {}) => ({ requestId: id(n), deposit: deposit(amount), originAmount: 1_000n, refundTo: REFUND_TO, ...more });

describe("repayment batch plan", () => {
  it("gives each member exactly its own repayment's calls and credits, by index, in one struct", () => {
    const members = [member(1, 1_000n), member(2, 1_050n, { appFees: [{ recipient: APP, amount: 10n }] }), member(3, 1_000n, { deposit: deposit(1_000n, TOKEN) })];
    const { payout, members: plan } = planRepaymentBatch({ chainId: 1, depository: DEPOSITORY, solver: SOLVER, members, nowSeconds: 1000 });
    expect(plan.map((m) => m.requestId)).to.deep.equal([id(1), id(2), id(3)]);
    for (const [i, m] of members.entries()) {
      const alone = planPayout({ ...m, kind: "repayment", orderId: m.requestId, solver: SOLVER, nowSeconds: 1000 });
      expect(plan[i]!.calls.map((c) => payout.calls[c]), `member ${i} calls`).to.deep.equal(alone.calls);
      expect(plan[i]!.credits.map((c) => payout.credits![c]), `member ${i} credits`).to.deep.equal(alone.credits ?? []);
    }
    // Every call and credit belongs to exactly one member.
    expect(plan.flatMap((m) => m.calls).sort()).to.deep.equal(payout.calls.map((_, i) => i));
    expect(plan.flatMap((m) => m.credits)).to.deep.equal([0]);
    // With a credit it is a settlement; its hash is the struct's.
    expect(payout.requestHash).to.equal(settlementRequestHash(settlementRequestOf(payout)!));
    expect(payout.status).to.equal("prepared");
    expect(payout.release).to.equal(undefined);
  });

  it("is a CallRequest without credits, and its nonce never a single repayment's", () => {
    const members = [member(1, 1_000n), member(2, 1_000n)];
    const { payout } = planRepaymentBatch({ chainId: 1, depository: DEPOSITORY, solver: SOLVER, members, nowSeconds: 1000 });
    expect(payout.credits).to.equal(undefined);
    expect(payout.requestHash).to.equal(payoutRequestHash({ calls: payout.calls, nonce: payout.nonce, expiration: BigInt(payout.expiration) }));
    expect(payout.nonce).to.equal(repaymentBatchNonce(1, DEPOSITORY, [id(1), id(2)], 1000));
    expect([payoutNonce("repayment", id(1)), payoutNonce("repayment", id(2))]).to.not.include(payout.nonce);
    // Planned at another time: another nonce (a dissolved batch's members never reuse its struct).
    expect(planRepaymentBatch({ chainId: 1, depository: DEPOSITORY, solver: SOLVER, members, nowSeconds: 1001 }).payout.nonce).to.not.equal(payout.nonce);
  });

  it("refuses members that may not share a batch", () => {
    const plan = (members: ReturnType<typeof member>[]) => () => planRepaymentBatch({ chainId: 1, depository: DEPOSITORY, solver: SOLVER, members, nowSeconds: 1000 });
    expect(plan([member(1, 1_000n)])).to.throw(RepaymentBatchPlanError, "at least two");
    expect(plan([member(1, 1_000n), member(1, 1_000n)])).to.throw(RepaymentBatchPlanError, "twice");
    expect(plan([member(1, 1_000n), member(2, 1_000n, { deposit: { ...deposit(1_000n), reclaimAt: 5_000n } })])).to.throw(RepaymentBatchPlanError, "reclaimable");
    expect(plan([member(1, 1_000n), member(2, 1_000n, { deposit: { ...deposit(1_000n), depository: REFUND_TO } })])).to.throw(RepaymentBatchPlanError, "another Depository");
    expect(plan([member(1, 1_000n), member(2, 1_000n, { deposit: { ...deposit(1_000n), chainId: 2 } })])).to.throw(RepaymentBatchPlanError, "another Depository");
  });

  it("a member's copy names the batch and keeps only its own claimable calls", () => {
    const { payout, members } = planRepaymentBatch({ chainId: 1, depository: DEPOSITORY, solver: SOLVER, members: [member(1, 1_100n), member(2, 1_200n)], nowSeconds: 1000 });
    const landed = { ...payout, status: "confirmed" as const, claimable: [{ index: 1, to: REFUND_TO, token: zeroAddress, amount: 100n }, { index: 3, to: REFUND_TO, token: zeroAddress, amount: 200n }] };
    const first = memberRepayment(landed, members[0]!);
    expect(first).to.include({ nonce: payout.nonce, requestHash: payout.requestHash, status: "confirmed" });
    expect(first.batch).to.deep.equal({ calls: [0, 1], credits: [] });
    expect(first.claimable).to.deep.equal([landed.claimable[0]]);
    expect(memberRepayment(landed, members[1]!).claimable).to.deep.equal([landed.claimable[1]]);
    expect(memberRepayment(payout, members[0]!).claimable).to.equal(undefined);
  });

  it("is due at maxSize, or once the oldest waited maxWaitMs", () => {
    const settings = { maxSize: 3, maxWaitMs: 2000 };
    expect(batchDue([], settings, 10_000)).to.equal(false);
    expect(batchDue([{ queuedAt: 9_000 }], settings, 10_000)).to.equal(false);
    expect(batchDue([{ queuedAt: 8_000 }], settings, 10_000)).to.equal(true);
    expect(batchDue([{ queuedAt: 9_900 }, { queuedAt: 9_950 }, { queuedAt: 9_990 }], settings, 10_000)).to.equal(true);
  });
});

// The repayment's split (ts/service/solver/payout/payoutPlan.ts): the solver is repaid originAmount minus the
// app fees, each app fee is a credit of the same signed settlement, excess goes back to refundTo, and a
// refund never credits anything.
import { expect } from "chai";
import { zeroAddress } from "viem";
import { payoutRequestHash } from "../../../../ts/core/payoutRequest.ts";
import { settlementRequestHash } from "../../../../ts/core/settlementRequest.ts";
import { planPayout, settlementRequestOf } from "../../../../ts/service/solver/payout/payoutPlan.ts";
import { canonicalAddress, canonicalHex } from "../../../../ts/service/model/values.ts";

const ID = canonicalHex(`0x${"11".repeat(32)}`);
const SOLVER = canonicalAddress(`0x${"22".repeat(20)}`);
const REFUND_TO = canonicalAddress(`0x${"33".repeat(20)}`);
const APP_A = canonicalAddress(`0x${"aa".repeat(20)}`);
const APP_B = canonicalAddress(`0x${"bb".repeat(20)}`);
const DEPOSIT = { chainId: 1, depository: canonicalAddress(`0x${"44".repeat(20)}`), txHash: ID, logIndex: 0, block: 5, blockTimestamp: 100, depositor: REFUND_TO, token: zeroAddress, amount: 1_050n };
const base = { requestId: ID, orderId: ID, deposit: DEPOSIT, originAmount: 1_000n, solver: SOLVER, refundTo: REFUND_TO, nowSeconds: 1000 };

describe("payout plan: app fees", () => {
  it("planPayout_repayment_creditsEachAppFeeAndRepaysTheSolverTheRest", () => {
    const payout = planPayout({ ...base, kind: "repayment", appFees: [{ recipient: APP_A, amount: 10n }, { recipient: APP_B, amount: 25n }] });
    expect(payout.calls).to.deep.equal([
      { to: SOLVER, token: zeroAddress, amount: 965n },
      { to: REFUND_TO, token: zeroAddress, amount: 50n },
    ]);
    expect(payout.credits).to.deep.equal([
      { to: APP_A, token: zeroAddress, amount: 10n },
      { to: APP_B, token: zeroAddress, amount: 25n },
    ]);
    // Nothing lost, nothing paid twice: payouts + credits = the deposit.
    const total = [...payout.calls, ...payout.credits!].reduce((sum, c) => sum + c.amount, 0n);
    expect(total).to.equal(DEPOSIT.amount);
    expect(payout.requestHash).to.equal(settlementRequestHash(settlementRequestOf(payout)!));
  });

  it("planPayout_repayment_withoutAppFees_staysACallRequest", () => {
    const payout = planPayout({ ...base, kind: "repayment", appFees: [{ recipient: APP_A, amount: 0n }] });
    expect(payout.credits).to.equal(undefined);
    expect(settlementRequestOf(payout)).to.equal(undefined);
    expect(payout.calls[0]).to.deep.equal({ to: SOLVER, token: zeroAddress, amount: 1_000n });
    expect(payout.requestHash).to.equal(payoutRequestHash({ calls: payout.calls, nonce: payout.nonce, expiration: BigInt(payout.expiration) }));
  });

  it("planPayout_refund_returnsEverythingAndCreditsNoAppFee", () => {
    const payout = planPayout({ ...base, kind: "refund", appFees: [{ recipient: APP_A, amount: 10n }] });
    expect(payout.calls).to.deep.equal([{ to: REFUND_TO, token: zeroAddress, amount: 1_050n }]);
    expect(payout.credits).to.equal(undefined);
  });

  it("planPayout_repayment_depositBelowTheAppFees_creditsNothing", () => {
    const payout = planPayout({ ...base, deposit: { ...DEPOSIT, amount: 5n }, kind: "repayment", appFees: [{ recipient: APP_A, amount: 10n }] });
    expect(payout.credits).to.equal(undefined);
    expect(payout.calls).to.deep.equal([{ to: SOLVER, token: zeroAddress, amount: 5n }]);
  });
});

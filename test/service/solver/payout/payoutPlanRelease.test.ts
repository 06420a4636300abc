// A reclaimable deposit's payouts (ts/service/solver/payout/payoutPlan.ts): every repayment and refund paid
// from it is a `release` of its orderId — the same calls and credits, hashed as a ReleaseRequest — so that
// paying it ends the depositor's right to reclaim it; a plain deposit's payouts never are.
import { expect } from "chai";
import { zeroAddress } from "viem";
import { releaseRequestHash } from "../../../../ts/core/releaseRequest.ts";
import { planPayout, releaseRequestOf, settlementRequestOf } from "../../../../ts/service/solver/payout/payoutPlan.ts";
import { canonicalAddress, canonicalHex } from "../../../../ts/service/model/values.ts";

const ID = canonicalHex(`0x${"11".repeat(32)}`);
const ORDER = canonicalHex(`0x${"12".repeat(32)}`);
const SOLVER = canonicalAddress(`0x${"22".repeat(20)}`);
const REFUND_TO = canonicalAddress(`0x${"33".repeat(20)}`);
const APP = canonicalAddress(`0x${"aa".repeat(20)}`);
const PLAIN = { chainId: 1, depository: canonicalAddress(`0x${"44".repeat(20)}`), txHash: ID, logIndex: 0, block: 5, blockTimestamp: 100, depositor: REFUND_TO, token: zeroAddress, amount: 1_050n };
const RECLAIMABLE = { ...PLAIN, reclaimAt: 5_000n };
const base = { requestId: ID, orderId: ORDER, originAmount: 1_000n, solver: SOLVER, refundTo: REFUND_TO, nowSeconds: 1000 };

describe("payout plan: reclaimable deposits", () => {
  for (const kind of ["repayment", "refund"] as const) {
    it(`planPayout_${kind}_ofAReclaimableDeposit_isAReleaseOfItsOrder`, () => {
      const payout = planPayout({ ...base, kind, deposit: RECLAIMABLE, appFees: [{ recipient: APP, amount: 10n }] });
      expect(payout.release).to.equal(ORDER);
      const release = releaseRequestOf(payout)!;
      expect(release.id).to.equal(ORDER);
      expect(settlementRequestOf(payout)).to.equal(undefined);
      expect(payout.requestHash).to.equal(releaseRequestHash(release));
      // The calls and credits are those of the plain deposit's payout: only the entry point differs.
      const plain = planPayout({ ...base, kind, deposit: PLAIN, appFees: [{ recipient: APP, amount: 10n }] });
      expect(payout.calls).to.deep.equal(plain.calls);
      expect(release.credits).to.deep.equal(plain.credits ?? []);
      expect(plain.release).to.equal(undefined);
      expect(releaseRequestOf(plain)).to.equal(undefined);
    });
  }
});

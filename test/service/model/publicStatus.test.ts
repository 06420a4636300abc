/** ts/service/model/publicStatus.ts: a refund in progress is never shown as failure. */
import { expect } from "chai";
import { publicStatusOf, refundInProgress, type PublicStatusFacts } from "../../../ts/service/model/publicStatus.ts";

const failure: PublicStatusFacts = { status: "failure", refundFailReason: null, parked: false, refundReverted: false, fillSent: false, noQuote: false };

describe("publicStatus", () => {
  it("aFailureWhoseRefundIsComing_showsTheStatusBeforeIt", () => {
    expect(refundInProgress(failure)).to.equal(true);
    expect(publicStatusOf(failure)).to.equal("pending");
    expect(publicStatusOf({ ...failure, fillSent: true })).to.equal("submitted");
  });

  it("aFailureWithoutARefundComing_showsFailure", () => {
    for (const facts of [{ ...failure, refundFailReason: "AMOUNT_TOO_LOW_TO_REFUND" }, { ...failure, parked: true }, { ...failure, refundReverted: true }, { ...failure, noQuote: true }]) {
      expect(refundInProgress(facts)).to.equal(false);
      expect(publicStatusOf(facts)).to.equal("failure");
    }
  });

  it("everyOtherStatus_isShownAsStored", () => {
    for (const status of ["waiting", "depositing", "pending", "submitted", "success", "refund"] as const) {
      expect(publicStatusOf({ ...failure, status })).to.equal(status);
    }
  });
});

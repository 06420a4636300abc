// The dust threshold of stray refunds per currency (pure): configured, else $N at the configured price, else none.
import { expect } from "chai";
import { strayRefundMinimum } from "../../../ts/service/config/strayRefundMinimum.ts";

describe("strayRefundMinimum", () => {
  it("strayRefundMinimum_theCurrencysOwnValue_winsOverTheUsdDefault", () => {
    expect(strayRefundMinimum({ decimals: 18, usdPrice: "3000", strayRefundMinimum: "7" }, "1")).to.equal(7n);
    expect(strayRefundMinimum({ decimals: 18, strayRefundMinimum: "0" }, "1")).to.equal(0n);
  });

  it("strayRefundMinimum_withAUsdPrice_isTheUsdDefaultWorth_roundedUp", () => {
    expect(strayRefundMinimum({ decimals: 18, usdPrice: "3000" }, "1")).to.equal(333_333_333_333_334n);
    expect(strayRefundMinimum({ decimals: 6, usdPrice: "1" }, "1")).to.equal(1_000_000n);
    expect(strayRefundMinimum({ decimals: 6, usdPrice: "0.9998" }, "0.5")).to.equal(500_101n);
    expect(strayRefundMinimum({ decimals: 8, usdPrice: "60000.12345678" }, "0.00000001")).to.equal(1n);
  });

  it("strayRefundMinimum_withoutAPriceOrAValue_isZero", () => {
    expect(strayRefundMinimum({ decimals: 18 }, "1")).to.equal(0n);
    expect(strayRefundMinimum({ decimals: 18, usdPrice: "0" }, "1")).to.equal(0n);
  });
});

/** ts/service/prices/usdPrice.ts: USD parsing, rescaling and conversions rounded in the service's favour. */
import { expect } from "chai";
import { isFerryError } from "../../../ts/core/errors.ts";
import { convertCeil, formatUsd, parseUsd, rescale, usdToUnitsCeil, usdValueE8 } from "../../../ts/service/prices/usdPrice.ts";

const ETH = { symbol: "ETH", decimals: 18, usdPrice: "3000" };
const USDC = { symbol: "USDC", decimals: 6, usdPrice: "1" };

describe("usdPrice", function () {
  it("parseUsd_readsUpTo8Decimals_andRejectsAnythingElse", function () {
    expect(parseUsd("3000")).to.equal(300_000_000_000n);
    expect(parseUsd("0.99985")).to.equal(99_985_000n);
    expect(parseUsd("0")).to.equal(0n);
    for (const bad of ["", "1e3", "-1", "1.123456789", "01", "1.", " 1"]) {
      expect(() => parseUsd(bad), bad).to.throw().that.satisfies((e: unknown) => isFerryError(e, "PRICE_UNAVAILABLE"));
    }
  });

  it("rescale_isExactUp_roundsDownByDefault_andUpWhenAsked", function () {
    expect(rescale(1_234_567n, 6, 18)).to.equal(1_234_567n * 10n ** 12n);
    expect(rescale(1_999_999_999_999n, 18, 6)).to.equal(1n);
    expect(rescale(1_000_000_000_001n, 18, 6, true)).to.equal(2n);
    expect(rescale(1_000_000_000_000n, 18, 6, true)).to.equal(1n);
    expect(rescale(5n, 6, 6, true)).to.equal(5n);
  });

  it("convertCeil_goesThroughUsd_roundingUp", function () {
    // 0.0001 ETH = 0.3 USD = 300000 units of a 6-decimal stablecoin.
    expect(convertCeil(10n ** 14n, ETH, USDC)).to.equal(300_000n);
    // 1 wei of ETH is worth far less than a stablecoin unit: still 1 (up).
    expect(convertCeil(1n, ETH, USDC)).to.equal(1n);
    expect(convertCeil(0n, ETH, USDC)).to.equal(0n);
    // 1 USDC unit → ETH wei: 1e-6 / 3000 ETH = 333333333.33 wei → 333333334.
    expect(convertCeil(1n, USDC, ETH)).to.equal(333_333_334n);
  });

  it("convertCeil_sameSymbol_isOneToOneWithoutPrices", function () {
    expect(convertCeil(10n ** 12n + 1n, { symbol: "ETH", decimals: 18 }, { symbol: "ETH", decimals: 6 })).to.equal(2n);
    expect(convertCeil(7n, { symbol: "ETH", decimals: 18 }, { symbol: "ETH", decimals: 18 })).to.equal(7n);
  });

  it("convertCeil_withoutAPrice_isPriceUnavailable", function () {
    const error = (() => {
      try {
        convertCeil(1n, { symbol: "ETH", decimals: 18 }, USDC);
      } catch (e) {
        return e;
      }
    })();
    expect(isFerryError(error, "PRICE_UNAVAILABLE")).to.equal(true);
  });

  it("usdToUnitsCeil_andUsdValue", function () {
    expect(usdToUnitsCeil("0.5", USDC)).to.equal(500_000n);
    expect(usdToUnitsCeil("1", ETH)).to.equal(333_333_333_333_334n);
    expect(usdToUnitsCeil("0", { symbol: "X", decimals: 6 })).to.equal(0n);
    expect(() => usdToUnitsCeil("1", { symbol: "X", decimals: 6 })).to.throw().that.satisfies((e: unknown) => isFerryError(e, "PRICE_UNAVAILABLE"));
    expect(formatUsd(usdValueE8(10n ** 18n, ETH))).to.equal("3000");
    expect(formatUsd(usdValueE8(1_500_000n, USDC))).to.equal("1.5");
    expect(formatUsd(usdValueE8(1n, { symbol: "X", decimals: 0 }))).to.equal("0");
  });
});

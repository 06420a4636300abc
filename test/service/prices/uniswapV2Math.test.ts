/** ts/service/prices/uniswapV2Math.ts: the pair's formulas, rounding, and liquidity limits. */
import { expect } from "chai";
import { isFerryError } from "../../../ts/core/errors.ts";
import { v2AmountIn, v2AmountOut, v2AmountOutAtSpot } from "../../../ts/service/prices/uniswapV2Math.ts";

const reserves = { reserveIn: 100n * 10n ** 18n, reserveOut: 300_000n * 10n ** 6n };

describe("uniswapV2Math", () => {
  it("amountOut_isTheConstantProductWithTheFee", () => {
    const amountIn = 10n ** 18n;
    const withFee = amountIn * 9_970n;
    expect(v2AmountOut(amountIn, reserves, 30n)).to.equal((withFee * reserves.reserveOut) / (reserves.reserveIn * 10_000n + withFee));
    // 1 ETH of 100 at 3000: 2,961.47 fUSD (0.3% fee, ~1% impact), below the 3000 at spot.
    expect(v2AmountOut(amountIn, reserves, 30n)).to.equal(2_961_474_103n);
    expect(v2AmountOutAtSpot(amountIn, reserves)).to.equal(3_000n * 10n ** 6n);
  });

  it("amountIn_isTheLeastInputThatBuysTheOutput", () => {
    for (const out of [1n, 1_000_000n, 2_961_474_103n, 150_000n * 10n ** 6n]) {
      const amountIn = v2AmountIn(out, reserves, 30n);
      expect(v2AmountOut(amountIn, reserves, 30n) >= out, `in(${out}) buys it`).to.equal(true);
      expect(v2AmountOut(amountIn - 2n, reserves, 30n) < out, `in(${out}) − 2 does not`).to.equal(true);
    }
  });

  it("refusesWhatThePoolCannotGive", () => {
    const code = (fn: () => unknown) => {
      try {
        fn();
      } catch (error) {
        return isFerryError(error) ? error.code : String(error);
      }
      return undefined;
    };
    expect(code(() => v2AmountIn(reserves.reserveOut, reserves, 30n))).to.equal("INSUFFICIENT_LIQUIDITY");
    expect(code(() => v2AmountOut(1n, { reserveIn: 0n, reserveOut: 1n }, 30n))).to.equal("INSUFFICIENT_LIQUIDITY");
  });
});

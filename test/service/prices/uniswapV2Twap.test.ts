/** ts/service/prices/uniswapV2Twap.ts: the pair's cumulative prices, counterfactual accumulation, averages. */
import { expect } from "chai";
import { averagePrices, observationAt, Q112, referenceReserveOut, type PairState } from "../../../ts/service/prices/uniswapV2Twap.ts";

const state = (over: Partial<PairState> = {}): PairState => ({
  reserve0: 100n * 10n ** 18n,
  reserve1: 300_000n * 10n ** 6n,
  blockTimestampLast: 1_000,
  price0CumulativeLast: 0n,
  price1CumulativeLast: 0n,
  ...over,
});

describe("uniswapV2Twap", () => {
  it("observationAt_accruesTheCurrentReservesPrice_sinceTheLastUpdate", () => {
    const s = state({ price0CumulativeLast: 5n, price1CumulativeLast: 7n });
    const price0 = (s.reserve1 * Q112) / s.reserve0;
    const price1 = (s.reserve0 * Q112) / s.reserve1;
    expect(observationAt(s, 1_010n)).to.deep.equal({ timestamp: 1_010n, cumulative0: 5n + price0 * 10n, cumulative1: 7n + price1 * 10n });
    // In the block that updated the pair nothing accrues yet: a push in this block weighs 0 seconds.
    expect(observationAt(s, 1_000n)).to.deep.equal({ timestamp: 1_000n, cumulative0: 5n, cumulative1: 7n });
  });

  it("observationAt_handlesTheUint32TimestampWrap_andTheUint256Overflow", () => {
    const wrapped = state({ blockTimestampLast: 2 ** 32 - 5, price0CumulativeLast: 2n ** 256n - 1n });
    const t = 2n ** 32n + 5n; // 10 s after the last update, across the uint32 wrap
    const price0 = (wrapped.reserve1 * Q112) / wrapped.reserve0;
    expect(observationAt(wrapped, t).cumulative0).to.equal((2n ** 256n - 1n + price0 * 10n) % 2n ** 256n);
  });

  it("averagePrices_isTheMeanOverTheInterval_acrossAnOverflow", () => {
    const older = { timestamp: 100n, cumulative0: 2n ** 256n - 10n * Q112, cumulative1: 0n };
    const newer = { timestamp: 110n, cumulative0: 20n * Q112, cumulative1: 50n * Q112 };
    expect(averagePrices(older, newer)).to.deep.equal({ price0: 3n * Q112, price1: 5n * Q112, seconds: 10n });
    expect(() => averagePrices(newer, newer)).to.throw(RangeError);
  });

  it("aPushHeldForPartOfTheWindow_movesTheAverageByThatShare", () => {
    // 50 s at 3,000 then a 2× push held 10 s: the 60 s average is 3,500.
    const fair = state();
    const pushed = state({ reserve0: 50n * 10n ** 18n, reserve1: 300_000n * 10n ** 6n, blockTimestampLast: 1_050 });
    const start = observationAt(fair, 1_000n);
    const atPush = observationAt(fair, 1_050n);
    const end = observationAt({ ...pushed, price0CumulativeLast: atPush.cumulative0, price1CumulativeLast: atPush.cumulative1 }, 1_060n);
    const { price0 } = averagePrices(start, end);
    // token1 (6 decimals) per token0 (18 decimals): 3,500 fUSD per ETH = 3.5e-9 raw.
    expect(Number(referenceReserveOut(10n ** 18n, price0))).to.be.closeTo(3_500e6, 2);
  });
});

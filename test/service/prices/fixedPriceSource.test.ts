/** ts/service/prices/fixedPriceSource.ts: a configured price, both orientations, both sides, decimals. */
import { expect } from "chai";
import { zeroAddress } from "viem";
import { createFixedPriceSource, parsePrice } from "../../../ts/service/prices/fixedPriceSource.ts";

const eth = { symbol: "ETH", decimals: 18, address: zeroAddress, isNative: true };
const usd = { symbol: "fUSD", decimals: 6, address: "0x4444444444444444444444444444444444444444" as const, isNative: false };

describe("fixedPriceSource", () => {
  const source = createFixedPriceSource({ chainId: 31337, base: "ETH", quote: "fUSD", price: "3000.5" });

  it("pricesThePairInBothOrientations_only", () => {
    expect(source.prices(eth, usd)).to.equal(true);
    expect(source.prices(usd, eth)).to.equal(true);
    expect(source.prices(eth, { ...usd, symbol: "DAI" })).to.equal(false);
    expect(source).to.include({ isFixed: true, router: "fixed", id: "fixed:31337:ETH/fUSD" });
  });

  it("convertsAtThePriceAcrossDecimals_roundingInTheServicesFavour", async () => {
    const ethToUsd = (await source.read(eth, usd)).spot;
    expect(ethToUsd.price("EXACT_INPUT", 10n ** 18n)).to.deep.equal({ amountIn: 10n ** 18n, amountOut: 3_000_500_000n, amountOutAtSpot: 3_000_500_000n });
    // 1 wei buys 0.0000000000030005 fUSD: 0 units, rounded down.
    expect(ethToUsd.price("EXACT_INPUT", 1n).amountOut).to.equal(0n);
    // EXACT_OUTPUT rounds the input up: 1 unit of fUSD costs ceil(1e12 / 3000.5) = ceil(333,277,787.04) wei.
    expect(ethToUsd.price("EXACT_OUTPUT", 1n).amountIn).to.equal(333_277_788n);
    const usdToEth = (await source.read(usd, eth)).spot;
    expect(usdToEth.price("EXACT_INPUT", 3_000_500_000n).amountOut).to.equal(10n ** 18n);
    expect(usdToEth.price("EXACT_OUTPUT", 10n ** 18n).amountIn).to.equal(3_000_500_000n);
  });

  it("isItsOwnReference_withNoDeviationAndNoDepthCap", async () => {
    const reading = await source.read(eth, usd);
    expect(reading.reference).to.equal(reading.spot);
    expect(reading).to.include({ referenceLabel: "fixed", deviationBps: 0n });
    expect(reading.maxInput).to.equal(undefined);
  });

  it("parsePrice_refusesZeroAndNonDecimals", () => {
    expect(parsePrice("0.25")).to.deep.equal({ numerator: 25n, denominator: 100n });
    for (const bad of ["0", "-1", "1e3", "abc"]) expect(() => parsePrice(bad), bad).to.throw();
  });
});

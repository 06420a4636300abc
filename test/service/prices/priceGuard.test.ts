/** ts/service/prices/priceGuard.ts: the band, the lower of spot and reference, the depth cap, the value check. */
import { expect } from "chai";
import { checkOutputValue, guardedCurve, pricedBy } from "../../../ts/service/prices/priceGuard.ts";
import type { PriceCurve, PriceReading } from "../../../ts/service/prices/priceSource.ts";
import { codeOf } from "../quote/quoteFixture.ts";

/** A linear curve: `rate` out per in, no impact. */
const linear = (rate: bigint): PriceCurve => ({
  price: (side, amount) =>
    side === "EXACT_INPUT" ? { amountIn: amount, amountOut: amount * rate, amountOutAtSpot: amount * rate } : { amountIn: (amount + rate - 1n) / rate, amountOut: amount, amountOutAtSpot: amount },
});
const reading = (spot: bigint, reference: bigint, over: Partial<PriceReading> = {}): PriceReading => ({
  spot: linear(spot),
  reference: linear(reference),
  referenceLabel: "twap:60s",
  deviationBps: ((spot > reference ? spot - reference : reference - spot) * 10_000n) / reference,
  ...over,
});

describe("priceGuard", async () => {
  it("refusesASpotOutsideTheBand_PRICE_OUT_OF_BAND", async () => {
    expect(await codeOf(() => guardedCurve(reading(2_000n, 1_000n), 300n))).to.equal("PRICE_OUT_OF_BAND");
    expect(await codeOf(() => guardedCurve(reading(1_030n, 1_000n), 300n))).to.equal(undefined);
    expect(await codeOf(() => guardedCurve(reading(1_031n, 1_000n), 300n))).to.equal("PRICE_OUT_OF_BAND");
  });

  it("pricesAtTheWorseOfSpotAndReference_forTheRecipient", async () => {
    const above = guardedCurve(reading(1_020n, 1_000n), 300n);
    expect(above.price("EXACT_INPUT", 10n).amountOut).to.equal(10_000n);
    expect(above.price("EXACT_OUTPUT", 10_000n).amountIn).to.equal(10n);
    const below = guardedCurve(reading(980n, 1_000n), 300n);
    expect(below.price("EXACT_INPUT", 10n).amountOut).to.equal(9_800n);
    expect(below.price("EXACT_OUTPUT", 9_800n).amountIn).to.equal(10n);
    expect(pricedBy(reading(1_020n, 1_000n), 10n)).to.equal("reference");
    expect(pricedBy(reading(980n, 1_000n), 10n)).to.equal("spot");
  });

  it("capsTheInputAtTheMarketsDepth_INSUFFICIENT_LIQUIDITY", async () => {
    const capped = guardedCurve(reading(1_000n, 1_000n, { maxInput: 100n }), 300n);
    expect(capped.price("EXACT_INPUT", 100n).amountOut).to.equal(100_000n);
    expect(await codeOf(() => capped.price("EXACT_INPUT", 101n))).to.equal("INSUFFICIENT_LIQUIDITY");
    expect(await codeOf(() => capped.price("EXACT_OUTPUT", 101_000n))).to.equal("INSUFFICIENT_LIQUIDITY");
  });

  it("valueCheck_refusesAnOutputWorthMoreThanTheNetInputPlusTheBand", async () => {
    expect(await codeOf(() => checkOutputValue(linear(1_000n), 10n, 10_300n, 300n))).to.equal(undefined);
    expect(await codeOf(() => checkOutputValue(linear(1_000n), 10n, 10_301n, 300n))).to.equal("PRICE_OUT_OF_BAND");
  });
});

/**
 * What a quote may pay, whatever a market says at the moment it is read. Pure.
 *
 * - **Band**: a reading whose spot mid price is more than `bandBps` from its reference (the TWAP or the
 *   oracle, ./priceSource.ts) is refused, PRICE_OUT_OF_BAND (400): a pushed pool is not quoted at all.
 * - **Never above the reference**: within the band, each amount is priced at the worse of the two for
 *   the recipient — EXACT_INPUT the smaller output, EXACT_OUTPUT the larger input — so a push inside the
 *   band buys the pusher nothing either.
 * - **Depth**: an input above the reading's `maxInput` (a fraction of the pool's reserve) is
 *   INSUFFICIENT_LIQUIDITY.
 * - **Value** (`checkOutputValue`, every swap, whatever the source): the output may exceed what the
 *   net input is worth at the reference mid price by at most `bandBps` — a source that prices wrong
 *   (decimals, a broken feed) cannot make a quote pay out more than it takes in.
 */
import type { PriceCurve, PriceReading, SwapPrice } from "./priceSource.ts";
import { QuoteError } from "../errors/quoteErrors.ts";

const BPS = 10_000n;

export function guardedCurve(reading: PriceReading, bandBps: bigint): PriceCurve {
  if (reading.deviationBps > bandBps) {
    throw new QuoteError(
      "PRICE_OUT_OF_BAND",
      `the market's price is ${formatBps(reading.deviationBps)} away from its reference (${reading.referenceLabel}); at most ${formatBps(bandBps)} is quoted: retry once it is back`,
    );
  }
  const { spot, reference, maxInput } = reading;
  const capped = (price: SwapPrice): SwapPrice => {
    if (maxInput !== undefined && price.amountIn > maxInput) {
      throw new QuoteError("INSUFFICIENT_LIQUIDITY", `the input ${price.amountIn} is more than one quote may take from this market (${maxInput})`);
    }
    return price;
  };
  return {
    price(side, amount) {
      const atSpot = spot.price(side, amount);
      const atReference = reference.price(side, amount);
      if (side === "EXACT_INPUT") return capped(atSpot.amountOut < atReference.amountOut ? { ...atSpot, amountOutAtSpot: atReference.amountOutAtSpot } : atReference);
      return capped(atSpot.amountIn > atReference.amountIn ? { ...atSpot, amountOutAtSpot: reference.price("EXACT_INPUT", atSpot.amountIn).amountOutAtSpot } : atReference);
    },
  };
}

/** Whether the market (spot) or the reference gave the lower output for `netInput`. */
export function pricedBy(reading: PriceReading, netInput: bigint): "spot" | "reference" {
  return reading.spot.price("EXACT_INPUT", netInput).amountOut < reading.reference.price("EXACT_INPUT", netInput).amountOut ? "spot" : "reference";
}

/** The value check: `output` ≤ `netInput` at the reference mid price × (1 + band). */
export function checkOutputValue(reference: PriceCurve, netInput: bigint, output: bigint, bandBps: bigint): void {
  const worth = reference.price("EXACT_INPUT", netInput).amountOutAtSpot;
  if (output * BPS > worth * (BPS + bandBps)) {
    throw new QuoteError(
      "PRICE_OUT_OF_BAND",
      `the output ${output} is worth more than the net input at the reference price (${worth}) plus ${formatBps(bandBps)}`,
    );
  }
}

function formatBps(bps: bigint): string {
  return `${bps / 100n}.${(bps % 100n).toString().padStart(2, "0")}%`;
}

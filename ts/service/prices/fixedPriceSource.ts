/**
 * A fixed price, configured by the operator: `price` units of `quote` per whole `base` (a decimal
 * string). No market is read and nothing moves it: the devnet's price source for its pairs without a
 * pool, labelled `fixed` in quotes (`details.isFixedRate: true`, `route.destination.router: "fixed"`).
 * Not a market price: on a real chain use a pool (./uniswapV2PriceSource.ts).
 */
import { ceilDiv } from "./usdPrice.ts";
import type { PriceCurve, PricedCurrency, PriceSource, SwapSide } from "./priceSource.ts";
import { QuoteError } from "../errors/quoteErrors.ts";

export type FixedPriceConfig = { chainId: number; base: string; quote: string; price: string };

const DECIMAL = /^(0|[1-9][0-9]{0,29})(?:\.([0-9]{1,18}))?$/;

/** "3000.5" → {numerator: 30005, denominator: 10}. */
export function parsePrice(price: string): { numerator: bigint; denominator: bigint } {
  const match = DECIMAL.exec(price);
  if (!match) throw new QuoteError("PRICE_UNAVAILABLE", `not a price: ${price.slice(0, 40)}`);
  const fraction = match[2] ?? "";
  const numerator = BigInt(match[1]! + fraction);
  if (numerator === 0n) throw new QuoteError("PRICE_UNAVAILABLE", "a fixed price of 0");
  return { numerator, denominator: 10n ** BigInt(fraction.length) };
}

export function createFixedPriceSource(config: FixedPriceConfig): PriceSource {
  const { numerator, denominator } = parsePrice(config.price);
  const id = `fixed:${config.chainId}:${config.base}/${config.quote}`;
  return {
    id,
    router: "fixed",
    isFixed: true,
    chainId: config.chainId,
    prices: (from, to) => (from.symbol === config.base && to.symbol === config.quote) || (from.symbol === config.quote && to.symbol === config.base),
    async read(from, to) {
      const curve = fixedCurve(from, to, from.symbol === config.base ? { numerator, denominator } : { numerator: denominator, denominator: numerator });
      // Nothing moves a configured price: it is its own reference.
      return { spot: curve, reference: curve, referenceLabel: "fixed", deviationBps: 0n };
    },
  };
}

/** out = in · num · 10^decOut / (den · 10^decIn): the same rate at every size (no impact). */
function fixedCurve(from: PricedCurrency, to: PricedCurrency, rate: { numerator: bigint; denominator: bigint }): PriceCurve {
  const num = rate.numerator * 10n ** BigInt(to.decimals);
  const den = rate.denominator * 10n ** BigInt(from.decimals);
  return {
    price(side: SwapSide, amount: bigint) {
      if (side === "EXACT_INPUT") {
        const out = (amount * num) / den;
        return { amountIn: amount, amountOut: out, amountOutAtSpot: out };
      }
      const amountIn = ceilDiv(amount * den, num);
      return { amountIn, amountOut: amount, amountOutAtSpot: (amountIn * num) / den };
    },
  };
}

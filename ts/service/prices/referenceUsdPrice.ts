/**
 * A currency's USD price from a price source's reference: one whole unit of `currency` priced at the
 * reference mid price (TWAP, oracle, fixed: what one transaction cannot move) into `priced`, times
 * `priced`'s configured USD price (e.g. ETH from an ETH/USDC pool's TWAP and USDC at $1). Pure.
 * Undefined when `priced` has no USD price or the result rounds to 0.
 */
import { formatUnits } from "viem";
import type { PriceCurve } from "./priceSource.ts";
import { parseUsd, USD_DECIMALS, type Priced } from "./usdPrice.ts";

export function referenceUsdPrice(reference: PriceCurve, currency: { decimals: number }, priced: Priced): string | undefined {
  if (priced.usdPrice === undefined) return undefined;
  const perWhole = reference.price("EXACT_INPUT", 10n ** BigInt(currency.decimals)).amountOutAtSpot;
  const valueE8 = (perWhole * parseUsd(priced.usdPrice)) / 10n ** BigInt(priced.decimals);
  return valueE8 === 0n ? undefined : formatUnits(valueE8, USD_DECIMALS);
}

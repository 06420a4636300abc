/**
 * USD arithmetic on bigints. Prices are operator-configured decimal strings (USD per whole unit, at most
 * 8 decimals) held as integers of 1e-8 USD ("E8"). Conversions between currencies go through USD and
 * round in the service's favour: a fee converted into the input currency is rounded up.
 */
import { formatUnits } from "viem";
import { QuoteError } from "../errors/quoteErrors.ts";

export const USD_DECIMALS = 8;
const USD_RE = /^(0|[1-9][0-9]{0,14})(?:\.([0-9]{1,8}))?$/;

/** "3000.5" → 300050000000n (1e-8 USD). Throws on anything but a plain decimal with ≤ 8 decimals. */
export function parseUsd(value: string): bigint {
  const match = USD_RE.exec(value);
  if (!match) throw new QuoteError("PRICE_UNAVAILABLE", `not a USD amount: ${value.slice(0, 32)}`);
  return BigInt(match[1]!) * 10n ** 8n + BigInt((match[2] ?? "").padEnd(USD_DECIMALS, "0"));
}

export const ceilDiv = (a: bigint, b: bigint): bigint => (a + b - 1n) / b;

/** What a currency needs for conversions. */
export type Priced = { symbol: string; decimals: number; usdPrice?: string };

/** The USD value (E8, rounded down) of `amount` smallest units, or undefined without a price. */
export function usdValueE8(amount: bigint, currency: Priced): bigint | undefined {
  if (currency.usdPrice === undefined) return undefined;
  return (amount * parseUsd(currency.usdPrice)) / 10n ** BigInt(currency.decimals);
}

/** E8 USD as a decimal string ("-1.5", "0"); "0" when unknown. */
export function formatUsd(valueE8: bigint | undefined): string {
  return formatUnits(valueE8 ?? 0n, USD_DECIMALS);
}

/**
 * Rescales between decimals: up is exact; down rounds down (`ceil` rounds up instead). Used for the
 * output amount (down: the recipient never gets more than was paid for) and for EXACT_OUTPUT's input
 * (up: the deposit always covers the output).
 */
export function rescale(amount: bigint, fromDecimals: number, toDecimals: number, ceil = false): bigint {
  if (toDecimals >= fromDecimals) return amount * 10n ** BigInt(toDecimals - fromDecimals);
  const divisor = 10n ** BigInt(fromDecimals - toDecimals);
  return ceil ? ceilDiv(amount, divisor) : amount / divisor;
}

/**
 * `amount` of `from` expressed in `to`, rounded up. The same symbol converts 1:1 (rescaled), without
 * prices; otherwise both USD prices are needed (PRICE_UNAVAILABLE).
 */
export function convertCeil(amount: bigint, from: Priced, to: Priced): bigint {
  if (amount === 0n) return 0n;
  if (from.symbol === to.symbol) return rescale(amount, from.decimals, to.decimals, true);
  const missing = [from, to].find((c) => c.usdPrice === undefined);
  if (missing) throw new QuoteError("PRICE_UNAVAILABLE", `no USD price configured for ${missing.symbol}`);
  const numerator = amount * parseUsd(from.usdPrice!) * 10n ** BigInt(to.decimals);
  const denominator = parseUsd(to.usdPrice!) * 10n ** BigInt(from.decimals);
  if (denominator === 0n) throw new QuoteError("PRICE_UNAVAILABLE", `USD price of ${to.symbol} is 0`);
  return ceilDiv(numerator, denominator);
}

/** A USD amount (decimal string) in `to`'s smallest units, rounded up. */
export function usdToUnitsCeil(usd: string, to: Priced): bigint {
  const valueE8 = parseUsd(usd);
  if (valueE8 === 0n) return 0n;
  if (to.usdPrice === undefined || parseUsd(to.usdPrice) === 0n) {
    throw new QuoteError("PRICE_UNAVAILABLE", `no USD price configured for ${to.symbol}`);
  }
  return ceilDiv(valueE8 * 10n ** BigInt(to.decimals), parseUsd(to.usdPrice));
}

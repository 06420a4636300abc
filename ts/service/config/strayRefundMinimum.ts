/**
 * The dust threshold of stray-deposit refunds for one currency: a stray deposit below it is not
 * refunded automatically (`ignored`, AMOUNT_TOO_LOW_TO_REFUND), because returning it would cost the
 * operator more gas than it is worth — the griefing a 1-wei deposit is. Published in GET /chains
 * (`strayRefundMinimum` on each currency) so a depositor can know it. Pure.
 *
 * 1. the currency's own `strayRefundMinimum` (smallest units), when configured;
 * 2. else, when the currency has a `usdPrice`, the amount worth `solver.strayRefundMinimumUsd`
 *    (default $1), rounded up to a whole smallest unit;
 * 3. else 0: every non-zero stray of that currency is refunded (the Depository still bounds the
 *    gas of each payout).
 */

/** USD decimal strings carry at most 8 decimals (the config schema's UsdAmount). */
const USD_SCALE = 8;

function scaledUsd(usd: string): bigint {
  const [whole, fraction = ""] = usd.split(".");
  return BigInt(`${whole}${fraction.padEnd(USD_SCALE, "0")}`);
}

export function strayRefundMinimum(currency: { decimals: number; usdPrice?: string; strayRefundMinimum?: string }, strayRefundMinimumUsd: string): bigint {
  if (currency.strayRefundMinimum !== undefined) return BigInt(currency.strayRefundMinimum);
  if (currency.usdPrice === undefined) return 0n;
  const price = scaledUsd(currency.usdPrice);
  if (price === 0n) return 0n;
  const numerator = scaledUsd(strayRefundMinimumUsd) * 10n ** BigInt(currency.decimals);
  return (numerator + price - 1n) / price;
}

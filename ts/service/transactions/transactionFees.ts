/**
 * EIP-1559 fees for the solver's transactions, and the replacement (bump) policy. Pure.
 *
 * - **First attempt**: tip = what the chain asks now (`eth_maxPriorityFeePerGas`), max fee =
 *   2 × base fee + tip (the base fee can grow 12.5% per full block: twice today's survives about six
 *   full blocks in a row before the transaction stops being includable).
 * - **Replacement** (same nonce, not mined after `replaceAfterMs`, ./nonceManager.ts): both the tip
 *   and the max fee go up by at least 12.5% over the previous attempt (geth asks 10%, other clients
 *   up to 12.5%; rounded up), and to at least what a first attempt would offer now.
 * - **Cap per transaction**: max fee × gas limit never exceeds the chain's `maxTransactionFee`
 *   (config, wei). A first attempt over the cap is not sent (TRANSACTION_FEE_CAP_EXCEEDED, retried
 *   later: fees come down); a replacement is capped at it, and when the cap leaves no room for a valid
 *   bump the transaction is left to wait at its current fees.
 */
export type Fees = { maxFeePerGas: bigint; maxPriorityFeePerGas: bigint };

/** What the chain asks now. */
export type MarketFees = { baseFeePerGas: bigint; priorityFeePerGas: bigint };

/** +12.5%: the largest increment any common client requires to replace a pending transaction. */
export const BUMP_PERCENT = 12.5;

const bump = (value: bigint) => (value * 1125n + 999n) / 1000n;

export function marketFees(market: MarketFees): Fees {
  return { maxFeePerGas: 2n * market.baseFeePerGas + market.priorityFeePerGas, maxPriorityFeePerGas: market.priorityFeePerGas };
}

/** The most a transaction may cost (max fee × gas limit) against the cap. */
export function feeCost(fees: Fees, gas: bigint): bigint {
  return fees.maxFeePerGas * gas;
}

export type InitialFees = { ok: true; fees: Fees } | { ok: false; fees: Fees; cost: bigint };

export function initialFees(market: MarketFees, gas: bigint, cap: bigint): InitialFees {
  const fees = marketFees(market);
  const cost = feeCost(fees, gas);
  return cost <= cap ? { ok: true, fees } : { ok: false, fees, cost };
}

/**
 * The fees of a replacement for an attempt signed with `previous`, or null when the cap leaves no room
 * for a bump the nodes would accept.
 */
export function bumpedFees(previous: Fees, market: MarketFees, gas: bigint, cap: bigint): Fees | null {
  const now = marketFees(market);
  const minimum = { maxFeePerGas: bump(previous.maxFeePerGas), maxPriorityFeePerGas: bump(previous.maxPriorityFeePerGas) };
  let maxPriorityFeePerGas = minimum.maxPriorityFeePerGas > now.maxPriorityFeePerGas ? minimum.maxPriorityFeePerGas : now.maxPriorityFeePerGas;
  let maxFeePerGas = minimum.maxFeePerGas > now.maxFeePerGas ? minimum.maxFeePerGas : now.maxFeePerGas;
  if (maxFeePerGas < maxPriorityFeePerGas) maxFeePerGas = maxPriorityFeePerGas;
  const ceiling = gas === 0n ? maxFeePerGas : cap / gas;
  if (maxFeePerGas > ceiling) {
    maxFeePerGas = ceiling;
    if (maxPriorityFeePerGas > maxFeePerGas) maxPriorityFeePerGas = maxFeePerGas;
  }
  if (maxFeePerGas < minimum.maxFeePerGas || maxPriorityFeePerGas < minimum.maxPriorityFeePerGas) return null;
  return { maxFeePerGas, maxPriorityFeePerGas };
}

/**
 * The fill-time price check of a swap. The solver delivers the quoted output (`destinationAmount`)
 * from its own inventory; it does not swap. What "the price has not moved past the tolerance" means
 * for it: the deposit's net input (`swap.netInput`, the deposit less every fee), re-priced now against
 * the **reference** of the same price source that quoted it (the pair's TWAP or its oracle, at the
 * pool's depth and fee — never the spot, which one transaction moves), must still buy at least
 * `swap.floorAmount` — the quoted output less the slippage tolerance. A quote is never priced above
 * its reference (../../prices/priceGuard.ts), so a deposit quoted while someone pushed the pool is filled
 * at no more than the reference gave then, and a push at fill time neither lets a fill through nor
 * refunds a victim's deposit: only a move of the reference itself (the market held there over the
 * window, or the oracle) does. Below that the market moved against the quote by more than the user's
 * tolerance between the quote and the fill: the request fails with SLIPPAGE and the deposit is
 * refunded, so the solver never hands out more than the deposit is worth beyond the tolerance, and a
 * stale quote is not filled at a price the market no longer gives. Within it, the user gets exactly
 * the quoted amount (≥ minimumAmount) and the solver absorbs the difference.
 *
 * A price source that cannot be read is an error of the step (retried next tick, like an RPC
 * failure); one the configuration no longer has, or whose reference is unavailable (PRICE_UNAVAILABLE:
 * a stale feed), is a failure with that reason in details (SLIPPAGE: the fill cannot be priced, the
 * deposit is refunded).
 */
import type { QuotedIntent } from "../../model/quotedIntent.ts";
import type { Details } from "../../model/solverState.ts";
import type { PriceSources } from "../../prices/priceSources.ts";
import { isFerryError } from "../../../core/errors.ts";
import { canonicalAddress, ZERO_ADDRESS } from "../../model/values.ts";

export type RepricingResult = { ok: true; currentAmount?: bigint } | { ok: false; failReason: "SLIPPAGE"; details: Details };

/** `from`/`to` as the price source needs them, from the intent's currencies and the configured chains. */
export type SwapCurrencies = {
  from: { symbol: string; decimals: number; address: `0x${string}`; isNative: boolean };
  to: { symbol: string; decimals: number; address: `0x${string}`; isNative: boolean };
};

export async function repriceSwap(intent: Pick<QuotedIntent, "swap" | "destinationAmount">, currencies: SwapCurrencies, prices: PriceSources): Promise<RepricingResult> {
  const swap = intent.swap;
  if (!swap) return { ok: true };
  const source = prices.byId(swap.priceSource);
  if (!source) {
    return { ok: false, failReason: "SLIPPAGE", details: { reason: "PRICE_SOURCE_MISSING", priceSource: swap.priceSource } };
  }
  let curve;
  try {
    curve = (await source.read(currencies.from, currencies.to)).reference;
  } catch (error) {
    // The reference cannot be had (a stale or broken feed, a pair without its window of history): the
    // fill cannot be priced against what one transaction cannot move, so it is not filled at all.
    if (isFerryError(error) && error.code === "PRICE_UNAVAILABLE") {
      return { ok: false, failReason: "SLIPPAGE", details: { reason: "PRICE_UNAVAILABLE", priceSource: swap.priceSource, message: error.message } };
    }
    throw error;
  }
  let currentAmount: bigint;
  try {
    currentAmount = curve.price("EXACT_INPUT", swap.netInput).amountOut;
  } catch (error) {
    // The market cannot price it at all any more (e.g. a drained pool): the price moved past any tolerance.
    if (isFerryError(error) && error.code === "INSUFFICIENT_LIQUIDITY") currentAmount = 0n;
    else throw error;
  }
  if (currentAmount >= swap.floorAmount) return { ok: true, currentAmount };
  return {
    ok: false,
    failReason: "SLIPPAGE",
    details: {
      reason: "the price moved past the slippage tolerance before the fill",
      priceSource: swap.priceSource,
      quotedAmount: intent.destinationAmount.toString(),
      floorAmount: swap.floorAmount.toString(),
      currentAmount: currentAmount.toString(),
      toleranceBps: swap.toleranceBps,
    },
  };
}

/** The intent's two currencies as configured (symbol, decimals), or undefined when one is no longer configured. */
export function swapCurrencies(
  chains: readonly { id: number; nativeCurrency: { symbol: string; decimals: number }; erc20Currencies: readonly { address: string; symbol: string; decimals: number }[] }[],
  intent: Pick<QuotedIntent, "originChainId" | "originCurrency" | "destinationChainId" | "destinationCurrency">,
): SwapCurrencies | undefined {
  const find = (chainId: number, address: `0x${string}`) => {
    const chain = chains.find((c) => c.id === chainId);
    if (!chain) return undefined;
    if (address === ZERO_ADDRESS) return { symbol: chain.nativeCurrency.symbol, decimals: chain.nativeCurrency.decimals, address, isNative: true };
    const erc20 = chain.erc20Currencies.find((c) => c.address === address);
    return erc20 && { symbol: erc20.symbol, decimals: erc20.decimals, address, isNative: false };
  };
  const from = find(intent.originChainId, intent.originCurrency);
  const to = find(intent.destinationChainId, intent.destinationCurrency);
  return from && to ? { from, to } : undefined;
}

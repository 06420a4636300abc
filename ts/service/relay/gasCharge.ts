/**
 * What a relayed execution costs the app, in USD micro-units (the app ledger's unit). Pure.
 *
 * Wei are priced with the chain's native currency's `usdPrice` — the operator's configured price, which
 * no transaction can move — and rounded up (in the service's favour, as every conversion of a fee).
 * The hold is the most the first attempt can cost (gas limit × max fee per gas); the debit is what the
 * receipt says was paid (gas used × effective gas price), never more than the hold.
 */
import { ServiceError } from "../errors/serviceError.ts";
import { ceilDiv, parseUsd } from "../prices/usdPrice.ts";

/** USD E8 → micro-units (1e-6 USD): / 100. */
const E8_PER_MICRO = 100n;

/** The USD micro-units of `wei` of a native currency with `decimals` and `usdPrice` (rounded up). */
export function weiToUsdMicros(wei: bigint, native: { symbol: string; decimals: number; usdPrice?: string }, chainId: number): bigint {
  if (native.usdPrice === undefined) {
    throw new ServiceError("PRICE_UNAVAILABLE", `chain ${chainId} has no usdPrice for ${native.symbol}: relayed gas cannot be charged to an app balance there`);
  }
  return ceilDiv(wei * parseUsd(native.usdPrice), 10n ** BigInt(native.decimals) * E8_PER_MICRO);
}

/** What the receipt says was spent (gas, and the value sent when the call succeeded), in micro-units, at most `heldUsd`. */
export function spentUsdMicros(receipt: { gasUsed: bigint; effectiveGasPrice: bigint; status: "success" | "reverted" }, value: bigint, native: { symbol: string; decimals: number; usdPrice?: string }, chainId: number, heldUsd: bigint): bigint {
  const spent = weiToUsdMicros(receipt.gasUsed * receipt.effectiveGasPrice + (receipt.status === "success" ? value : 0n), native, chainId);
  return spent < heldUsd ? spent : heldUsd;
}

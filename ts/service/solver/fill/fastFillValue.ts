/**
 * What a fast fill fronts, in the ledger's unit: the quote's destination amount at the destination
 * currency's operator-configured `usdPrice` (config, not a pool: no transaction can move it), in USD
 * micro-units rounded up (the hold covers at least the value sent). Pure.
 */
import type { ChainConfig } from "../../config/configSchema.ts";
import { ServiceError } from "../../errors/serviceError.ts";
import type { QuotedIntent } from "../../model/quotedIntent.ts";
import { ZERO_ADDRESS } from "../../model/values.ts";
import { parseUsd } from "../../prices/usdPrice.ts";

/** 1e-8 USD (the prices' E8) per USD micro-unit (the ledger's 1e-6). */
const E8_PER_MICRO = 100n;

export function fastFillValueUsd(intent: Pick<QuotedIntent, "destinationChainId" | "destinationCurrency" | "destinationAmount">, chains: readonly ChainConfig[]): bigint {
  const chain = chains.find((c) => c.id === intent.destinationChainId);
  const currency =
    intent.destinationCurrency === ZERO_ADDRESS ? chain?.nativeCurrency : chain?.erc20Currencies.find((c) => c.address === intent.destinationCurrency);
  if (!currency || currency.usdPrice === undefined || parseUsd(currency.usdPrice) === 0n) {
    throw new ServiceError("FAST_FILL_PRICE_UNAVAILABLE", `no USD price is configured for ${intent.destinationCurrency} on chain ${intent.destinationChainId}: its fills cannot be fronted`);
  }
  const denominator = 10n ** BigInt(currency.decimals) * E8_PER_MICRO;
  const value = (intent.destinationAmount * parseUsd(currency.usdPrice) + denominator - 1n) / denominator;
  return value > 0n ? value : 1n;
}

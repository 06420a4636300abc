/**
 * Which routes Ferry quotes: a currency to itself (native → native, ERC-20 → ERC-20 of the same
 * symbol) across the configured chains or on one chain, and a swap between two configured currencies
 * of different symbols (on one chain or across) when a price source prices the pair for the
 * destination chain (../prices/priceSources.ts). Everything else is refused with the most specific code:
 * UNSUPPORTED_CHAIN, UNSUPPORTED_CURRENCY, then UNSUPPORTED_ROUTE. A chain is unsupported when it is
 * not configured, disabled (the operator's switch, or its health now — ../chains/chainHealth.ts: halted,
 * RPC down, no solver inventory — the message names the incident), or, as the origin, closed for
 * deposits (the operator's switch, or its block production lagging).
 *
 * A `Route` carries everything the rest of the quote needs from the configuration (both currencies,
 * both native currencies, the Depository and AttestedReceiver), canonical (lowercase addresses), so
 * the quote resolves it once and never comes back here.
 */
import type { ChainConfig, CurrencyConfig } from "../config/configSchema.ts";
import { canonicalAddress, ZERO_ADDRESS, type Address } from "../model/values.ts";
import type { PriceSource } from "../prices/priceSource.ts";
import type { PriceSources } from "../prices/priceSources.ts";
import { QuoteError } from "../errors/quoteErrors.ts";
import type { ChainHealth } from "../chains/chainHealth.ts";

/** A configured currency on its chain. `address` is canonical; the zero address is the native currency. */
export type RouteCurrency = {
  chainId: number;
  address: Address;
  symbol: string;
  name: string;
  decimals: number;
  logoURI: string;
  usdPrice?: string;
  isNative: boolean;
};

export type RouteEnd = {
  chain: ChainConfig;
  currency: RouteCurrency;
  /** The chain's native currency (gas is priced in it). */
  native: RouteCurrency;
  /** The chain's Depository and AttestedReceiver, canonical. */
  depository: Address;
  attestedReceiver: Address;
};

/** `swap`: the price source of a route between two symbols; absent for a currency to itself. */
export type Route = { origin: RouteEnd; destination: RouteEnd; sameChain: boolean; swap?: PriceSource };

/** What a route is resolved from; currencies canonical (decoded at the HTTP boundary). */
export type RouteRequest = {
  originChainId: number;
  originCurrency: Address;
  destinationChainId: number;
  destinationCurrency: Address;
  /** `useExternalLiquidity`: a swap is priced by a market source for the pair when one is configured (../prices/priceSources.ts). */
  useExternalLiquidity?: boolean;
};

/** A chain's health now (../chains/chainWatch.ts); undefined: the operator's switches alone. */
export type ChainHealthOf = (chainId: number) => ChainHealth | undefined;

export function resolveRoute(chains: readonly ChainConfig[], request: RouteRequest, priceSources?: PriceSources, healthOf?: ChainHealthOf): Route {
  const origin = chains.find((c) => c.id === request.originChainId);
  if (!origin || origin.disabled) throw new QuoteError("UNSUPPORTED_CHAIN", `origin chain ${request.originChainId} is not supported`);
  if (!origin.depositEnabled) throw new QuoteError("UNSUPPORTED_CHAIN", `deposits are disabled on chain ${origin.id}`);
  const destination = chains.find((c) => c.id === request.destinationChainId);
  if (!destination || destination.disabled) {
    throw new QuoteError("UNSUPPORTED_CHAIN", `destination chain ${request.destinationChainId} is not supported`);
  }
  const originHealth = healthOf?.(origin.id);
  if (originHealth?.disabled) throw new QuoteError("UNSUPPORTED_CHAIN", `origin chain ${origin.id} is disabled now: ${originHealth.reason}`);
  if (originHealth && !originHealth.depositEnabled) throw new QuoteError("UNSUPPORTED_CHAIN", `deposits are disabled on chain ${origin.id} now: ${originHealth.reason}`);
  const destinationHealth = healthOf?.(destination.id);
  if (destinationHealth?.disabled) throw new QuoteError("UNSUPPORTED_CHAIN", `destination chain ${destination.id} is disabled now: ${destinationHealth.reason}`);
  const originCurrency = findCurrency(origin, request.originCurrency);
  if (!originCurrency) throw new QuoteError("UNSUPPORTED_CURRENCY", `currency ${request.originCurrency} is not supported on chain ${origin.id}`);
  const destinationCurrency = findCurrency(destination, request.destinationCurrency);
  if (!destinationCurrency) {
    throw new QuoteError("UNSUPPORTED_CURRENCY", `currency ${request.destinationCurrency} is not supported on chain ${destination.id}`);
  }
  const sameCurrency = originCurrency.isNative === destinationCurrency.isNative && originCurrency.symbol === destinationCurrency.symbol;
  const swap = sameCurrency ? undefined : priceSources?.find(destination.id, originCurrency, destinationCurrency, request.useExternalLiquidity ? "market" : undefined);
  if (!sameCurrency && !swap) {
    throw new QuoteError(
      "UNSUPPORTED_ROUTE",
      `no route from ${originCurrency.symbol} on ${origin.id} to ${destinationCurrency.symbol} on ${destination.id}: no price source for the pair on chain ${destination.id}`,
    );
  }
  return {
    origin: routeEnd(origin, originCurrency),
    destination: routeEnd(destination, destinationCurrency),
    sameChain: origin.id === destination.id,
    ...(swap ? { swap } : {}),
  };
}

function routeEnd(chain: ChainConfig, currency: RouteCurrency): RouteEnd {
  return {
    chain,
    currency,
    native: currency.isNative ? currency : nativeCurrency(chain),
    depository: chain.contracts.depository,
    attestedReceiver: chain.contracts.attestedReceiver,
  };
}

/** The configured currency at a canonical `address` on `chain`, or undefined. */
export function findCurrency(chain: ChainConfig, address: Address): RouteCurrency | undefined {
  if (address === ZERO_ADDRESS) return nativeCurrency(chain);
  const erc20 = chain.erc20Currencies.find((c) => c.address === address);
  return erc20 && routeCurrency(chain, erc20, address, false);
}

function nativeCurrency(chain: ChainConfig): RouteCurrency {
  return routeCurrency(chain, chain.nativeCurrency, ZERO_ADDRESS, true);
}

function routeCurrency(chain: ChainConfig, currency: Omit<CurrencyConfig, "address">, address: Address, isNative: boolean): RouteCurrency {
  const { symbol, name, decimals, logoURI, usdPrice } = currency;
  return { chainId: chain.id, address, symbol, name, decimals, logoURI, ...(usdPrice === undefined ? {} : { usdPrice }), isNative };
}

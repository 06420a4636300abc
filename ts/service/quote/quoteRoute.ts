/**
 * Which routes Ferry quotes: native → native and ERC-20 → ERC-20 of the same symbol, across the
 * configured chains or on one chain (a same-currency transfer). Everything else is refused with the
 * most specific code: UNSUPPORTED_CHAIN, UNSUPPORTED_CURRENCY, then UNSUPPORTED_ROUTE.
 */
import { zeroAddress, type Address } from "viem";
import type { ChainConfig } from "../config/configSchema.ts";
import { QuoteError, QuoteErrorCode } from "./quoteErrors.ts";

/** A configured currency on its chain. `address` is lowercase; the zero address is the native currency. */
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

export type RouteEnd = { chain: ChainConfig; currency: RouteCurrency };

export type Route = { origin: RouteEnd; destination: RouteEnd; sameChain: boolean };

export type RouteRequest = { originChainId: number; originCurrency: string; destinationChainId: number; destinationCurrency: string };

/** The configured currency at `address` on `chain`, or undefined. */
export function findCurrency(chain: ChainConfig, address: string): RouteCurrency | undefined {
  const lower = address.toLowerCase();
  const base = { chainId: chain.id };
  if (lower === zeroAddress) {
    const native = chain.nativeCurrency;
    return { ...base, address: zeroAddress, symbol: native.symbol, name: native.name, decimals: native.decimals, logoURI: native.logoURI, ...price(native.usdPrice), isNative: true };
  }
  const erc20 = chain.erc20Currencies.find((c) => c.address.toLowerCase() === lower);
  if (!erc20) return undefined;
  return { ...base, address: lower as Address, symbol: erc20.symbol, name: erc20.name, decimals: erc20.decimals, logoURI: erc20.logoURI, ...price(erc20.usdPrice), isNative: false };
}

const price = (usdPrice: string | undefined) => (usdPrice === undefined ? {} : { usdPrice });

export function resolveRoute(chains: readonly ChainConfig[], request: RouteRequest): Route {
  const origin = chains.find((c) => c.id === request.originChainId);
  if (!origin || origin.disabled) throw new QuoteError(QuoteErrorCode.UNSUPPORTED_CHAIN, `origin chain ${request.originChainId} is not supported`);
  if (!origin.depositEnabled) throw new QuoteError(QuoteErrorCode.UNSUPPORTED_CHAIN, `deposits are disabled on chain ${origin.id}`);
  const destination = chains.find((c) => c.id === request.destinationChainId);
  if (!destination || destination.disabled) {
    throw new QuoteError(QuoteErrorCode.UNSUPPORTED_CHAIN, `destination chain ${request.destinationChainId} is not supported`);
  }
  const originCurrency = findCurrency(origin, request.originCurrency);
  if (!originCurrency) throw new QuoteError(QuoteErrorCode.UNSUPPORTED_CURRENCY, `currency ${request.originCurrency} is not supported on chain ${origin.id}`);
  const destinationCurrency = findCurrency(destination, request.destinationCurrency);
  if (!destinationCurrency) {
    throw new QuoteError(QuoteErrorCode.UNSUPPORTED_CURRENCY, `currency ${request.destinationCurrency} is not supported on chain ${destination.id}`);
  }
  if (originCurrency.isNative !== destinationCurrency.isNative || originCurrency.symbol !== destinationCurrency.symbol) {
    throw new QuoteError(
      QuoteErrorCode.UNSUPPORTED_ROUTE,
      `no route from ${originCurrency.symbol} on ${origin.id} to ${destinationCurrency.symbol} on ${destination.id}: Ferry bridges a currency to itself (no swaps)`,
    );
  }
  return {
    origin: { chain: origin, currency: originCurrency },
    destination: { chain: destination, currency: destinationCurrency },
    sameChain: origin.id === destination.id,
  };
}

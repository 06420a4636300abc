/**
 * The configured price sources (`quotes.priceSources`), built once per process: which source prices
 * a swap. A route between two currencies of different symbols is priced by the source configured for
 * the **destination chain** and the pair (either orientation) — the market of the chain where the
 * solver delivers from its inventory; none → 400 UNSUPPORTED_ROUTE. Several sources for one pair: the
 * first configured prices it, unless the quote asks for external liquidity (`useExternalLiquidity`):
 * then the first **market** source (a Uniswap V2 pool: onchain liquidity, not an operator-set price)
 * when there is one, else the first as without the flag. The solver looks the source up again by the
 * id the intent stored.
 */
import type { PriceSourceConfig } from "../config/configSchema.ts";
import { createFixedPriceSource } from "./fixedPriceSource.ts";
import type { PricedCurrency, PriceSource } from "./priceSource.ts";
import { createUniswapV2PriceSource, type PairReader } from "./uniswapV2PriceSource.ts";

export type PriceSources = {
  /** The source for `from` → `to` delivered on `chainId` (`"market"`: a market source first when one prices it), or undefined. */
  find(chainId: number, from: PricedCurrency, to: PricedCurrency, prefer?: SourcePreference): PriceSource | undefined;
  /** By the id stored in an intent. */
  byId(id: string): PriceSource | undefined;
  all(): readonly PriceSource[];
};

/** `"market"`: a source reading an onchain market (not `isFixed`) before an operator-set fixed price. */
export type SourcePreference = "market";

export function createPriceSources(configs: readonly PriceSourceConfig[], clients: { get(chainId: number): PairReader | undefined }): PriceSources {
  const sources = configs.map((config) =>
    config.type === "fixed"
      ? createFixedPriceSource(config)
      : createUniswapV2PriceSource(config, () => clients.get(config.chainId)),
  );
  return {
    find: (chainId, from, to, prefer) => {
      const pricing = sources.filter((source) => source.chainId === chainId && source.prices(from, to));
      return (prefer === "market" ? pricing.find((source) => !source.isFixed) : undefined) ?? pricing[0];
    },
    byId: (id) => sources.find((source) => source.id === id),
    all: () => sources,
  };
}

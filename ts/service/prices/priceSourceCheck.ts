/**
 * At start, before the service listens: every `uniswapV2` price source's pair is read onchain and
 * checked against the configuration, so a source that would price wrong never prices at all.
 * - the pair holds `baseToken` and `quoteToken`;
 * - each token's `decimals()` equals the configured decimals of the currency it stands for on the
 *   source's chain — the ERC-20 configured at that address, or the native currency for its wrapped
 *   token (the token of the native symbol);
 * - a `chainlink` reference answers `decimals()` (it is a feed).
 * A mismatch is CONFIG_INVALID naming the field, and the service does not start (chosen over
 * disabling the source: a swap route that silently disappears is found later than a service that
 * does not start). The sources convert with the decimals read onchain in any case (./uniswapV2PriceSource.ts).
 */
import type { ChainConfig, PriceSourceConfig } from "../config/configSchema.ts";
import { ConfigInvalidError } from "../config/configErrors.ts";
import { createChainlinkFeed } from "./chainlinkFeed.ts";
import { createUniswapV2PriceSource, type PairReader } from "./uniswapV2PriceSource.ts";

export async function checkPriceSources(
  chains: readonly ChainConfig[],
  sources: readonly PriceSourceConfig[],
  clients: { get(chainId: number): PairReader | undefined },
): Promise<void> {
  for (const [index, config] of sources.entries()) {
    if (config.type !== "uniswapV2") continue;
    const field = `quotes.priceSources[${index}]`;
    const chain = chains.find((c) => c.id === config.chainId);
    const client = clients.get(config.chainId);
    if (!chain || !client) throw new ConfigInvalidError(`${field}.chainId`, `chain ${config.chainId} is not configured`);
    const pair = config.pair;
    const source = createUniswapV2PriceSource(config, () => client);
    const tokens = await source.tokens();
    const sides = [
      { name: "baseToken", token: config.baseToken, symbol: config.base, decimals: tokens.baseDecimals },
      { name: "quoteToken", token: config.quoteToken, symbol: config.quote, decimals: tokens.quoteDecimals },
    ];
    for (const side of sides) {
      if (side.token !== tokens.token0 && side.token !== tokens.token1) {
        throw new ConfigInvalidError(`${field}.${side.name}`, `the pair ${pair} on chain ${chain.id} holds ${tokens.token0} and ${tokens.token1}, not ${side.token}`);
      }
      const configured =
        chain.erc20Currencies.find((currency) => currency.address === side.token) ??
        (chain.nativeCurrency.symbol === side.symbol ? chain.nativeCurrency : undefined);
      if (configured && configured.decimals !== side.decimals) {
        throw new ConfigInvalidError(
          `${field}.${side.name}`,
          `${side.token} has ${side.decimals} decimals onchain, the configured ${side.symbol} on chain ${chain.id} has ${configured.decimals}: fix the currency's decimals or the token`,
        );
      }
    }
    if (config.reference.type === "chainlink") {
      const feed = createChainlinkFeed(config.reference.feed, config.reference.maxStalenessSeconds);
      try {
        await feed.decimals(client);
      } catch (cause) {
        throw new ConfigInvalidError(`${field}.reference.feed`, `${feed.address} on chain ${chain.id} does not answer decimals(): not an AggregatorV3 feed`, { cause });
      }
    }
  }
}

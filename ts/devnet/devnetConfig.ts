/**
 * The service configuration of the devnet, built in code through the config parser (the same rules
 * as a FERRY_CONFIG file): both chains with their RPC URLs, protocol names, the contracts of the
 * deployment records, the stablecoin as an erc20 currency, USD prices for quotes (ETH 3000, the
 * stablecoin 1), swap price sources — the destination chain's ETH/fUSD from its real Uniswap V2 pool
 * (./devnetMarket.ts) checked against the pair's one-minute TWAP, the origin chain's from a **fixed** price of 3000 fUSD per ETH (the devnet's
 * labelled fixed price, `DEVNET_FIXED_ETH_PRICE`) — PGlite under the devnet's data dir, the solver
 * polling every DEVNET_SOLVER_POLL_MS.
 * Keys and the other overrides (FERRY_SOLVER, FERRY_SOLVER_POLL_MS, FERRY_WEBHOOKS, …) come from `env`,
 * as for any service.
 */
import type { Address } from "viem";
import type { DeploymentRecord } from "../deploy/deploymentRecord.ts";
import type { FerryConfig } from "../service/config/configSchema.ts";
import { parseConfig, resolveChainContracts, type Env } from "../service/config/parseConfig.ts";
import { DEVNET_TWAP_WINDOW_SECONDS } from "./devnetMarket.ts";
import { DEVNET_STABLECOIN } from "./devnetStablecoin.ts";

/** The devnet solver's poll interval: a deposit reaches `success` in well under a second. FERRY_SOLVER_POLL_MS overrides it. */
export const DEVNET_SOLVER_POLL_MS = 100;

/** The devnet's USD prices: ETH at 3000, the test stablecoin at 1. */
export const DEVNET_USD_PRICES = { eth: "3000", stablecoin: "1" } as const;

/** The devnet's fixed swap price on the origin chain (fUSD per ETH): a configured price, not a market. */
export const DEVNET_FIXED_ETH_PRICE = "3000";

export type DevnetChainInput = {
  id: number;
  /** Protocol chain name, e.g. "ferry-origin". */
  name: string;
  displayName: string;
  rpcUrl: string;
  record: DeploymentRecord;
  /** Seconds between blocks when the devnet mines on an interval (./devnetNode.ts); absent: a block per transaction. */
  expectedBlockTimeSeconds?: number;
  /** The node's websocket (Anvil's): the service's chain head follows `newHeads` on it (../service/chains/chainHead.ts). */
  wsRpcUrl?: string;
};

export function devnetConfig(args: {
  chains: readonly DevnetChainInput[];
  stablecoin: Address;
  /** The destination's Uniswap V2 WETH/fUSD pair (./devnetMarket.ts); without it only the fixed price is configured. */
  market?: { chainId: number; uniswapV2Pair: Address; wrappedNative: Address };
  dataDir: string;
  deploymentsDir: string;
  host: string;
  port: number;
  env: Env;
  cwd: string;
}): FerryConfig {
  const file = {
    server: { host: args.host, port: args.port },
    database: { dataDir: args.dataDir },
    // Status changes reach websocket subscribers within ~100 ms (the solver polls at the same pace).
    websocket: { pollIntervalMs: 100 },
    // Webhook deliveries leave within ~100 ms of a status change.
    webhooks: { pollIntervalMs: 100 },
    solver: { pollIntervalMs: DEVNET_SOLVER_POLL_MS },
    quotes: {
      priceSources: [
        ...args.chains
          .filter((chain) => chain.id !== args.market?.chainId)
          .map((chain) => ({ type: "fixed" as const, chainId: chain.id, base: "ETH", quote: DEVNET_STABLECOIN.symbol, price: DEVNET_FIXED_ETH_PRICE })),
        ...(args.market
          ? [
              {
                type: "uniswapV2" as const,
                chainId: args.market.chainId,
                base: "ETH",
                quote: DEVNET_STABLECOIN.symbol,
                pair: args.market.uniswapV2Pair,
                baseToken: args.market.wrappedNative,
                quoteToken: args.stablecoin,
                // The spot is checked against the pair's TWAP over a minute (the devnet seeds that much history).
                reference: { type: "twap" as const, windowSeconds: DEVNET_TWAP_WINDOW_SECONDS },
              },
            ]
          : []),
      ],
    },
    deploymentsDir: args.deploymentsDir,
    chains: args.chains.map((chain) => ({
      id: chain.id,
      name: chain.name,
      displayName: chain.displayName,
      rpcUrl: chain.rpcUrl,
      confirmations: 1,
      ...(chain.expectedBlockTimeSeconds !== undefined && { expectedBlockTimeSeconds: chain.expectedBlockTimeSeconds }),
      ...(chain.wsRpcUrl !== undefined && { wsRpcUrl: chain.wsRpcUrl }),
      // Operator-configured USD prices (no oracle): what quotes convert gas costs with.
      nativeCurrency: { symbol: "ETH", name: "Ether", decimals: 18, usdPrice: DEVNET_USD_PRICES.eth },
      erc20Currencies: [{ address: args.stablecoin, ...DEVNET_STABLECOIN, usdPrice: DEVNET_USD_PRICES.stablecoin }],
    })),
  };
  // The devnet's own host/port win over FERRY_HOST/FERRY_PORT read by the parser (already applied to args).
  const { FERRY_HOST: _host, FERRY_PORT: _port, FERRY_DATA_DIR: _data, FERRY_DEPLOYMENTS_DIR: _deployments, ...env } = args.env;
  const config = parseConfig(file, env, args.cwd);
  return resolveChainContracts(config, new Map(args.chains.map((chain) => [chain.id, chain.record])));
}

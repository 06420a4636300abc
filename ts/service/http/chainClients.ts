/**
 * One viem public client per configured chain (by chain id), created once per app from the chain's
 * `rpcUrl`. The quote route reads gas prices, allowances and balances through them. Tests inject their
 * own (a Hardhat EDR chain's client) through `AppDeps.chainClients`.
 */
import { createPublicClient, http, type PublicClient } from "viem";
import type { ChainConfig } from "../config/configSchema.ts";

export type ChainClients = ReadonlyMap<number, PublicClient>;

/** Clients are lazy: nothing connects until the first call. */
export function createChainClients(chains: readonly ChainConfig[]): ChainClients {
  return new Map(chains.map((chain) => [chain.id, createPublicClient({ transport: http(chain.rpcUrl, { timeout: 10_000, retryCount: 1 }) })]));
}

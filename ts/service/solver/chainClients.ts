/**
 * viem clients per configured chain: a public client for reads, and the solver's wallet client
 * (when the solver key is configured) for fills and payouts. Keys are revealed only here, into
 * viem LocalAccounts that sign; they are never logged.
 */
import { createPublicClient, createWalletClient, defineChain, http, type Chain, type LocalAccount, type PublicClient, type WalletClient, type Transport, type Account } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import type { ChainConfig, FerryConfig, KeyRole } from "../config/configSchema.ts";
import { ChainNotConfiguredError, KeyNotConfiguredError } from "./solverErrors.ts";

export type SolverWallet = WalletClient<Transport, Chain, Account>;

export type ChainClient = {
  config: ChainConfig;
  chain: Chain;
  publicClient: PublicClient;
  /** The solver key's wallet on this chain, when configured. */
  solverWallet?: SolverWallet;
};

export type ChainClients = {
  get(chainId: number): ChainClient;
  has(chainId: number): boolean;
  all(): ChainClient[];
};

/** The signing account of a configured key, or undefined. */
export function keyAccount(config: FerryConfig, role: KeyRole): LocalAccount | undefined {
  const key = config.keys[role]?.reveal();
  return key ? privateKeyToAccount(key as `0x${string}`) : undefined;
}

export function requireKeyAccount(config: FerryConfig, role: KeyRole): LocalAccount {
  const account = keyAccount(config, role);
  if (!account) throw new KeyNotConfiguredError(role);
  return account;
}

export function createChainClients(config: FerryConfig, options: { pollingIntervalMs?: number } = {}): ChainClients {
  const solver = keyAccount(config, "solver");
  const clients = new Map<number, ChainClient>();
  for (const chainConfig of config.chains) {
    const chain = defineChain({
      id: chainConfig.id,
      name: chainConfig.displayName,
      nativeCurrency: { name: chainConfig.nativeCurrency.name, symbol: chainConfig.nativeCurrency.symbol, decimals: chainConfig.nativeCurrency.decimals },
      rpcUrls: { default: { http: [chainConfig.rpcUrl] } },
    });
    const transport = http(chainConfig.rpcUrl, { retryCount: 1 });
    const publicClient = createPublicClient({ chain, transport, pollingInterval: options.pollingIntervalMs ?? 1000 }) as PublicClient;
    const solverWallet = solver ? createWalletClient({ account: solver, chain, transport }) : undefined;
    clients.set(chainConfig.id, { config: chainConfig, chain, publicClient, ...(solverWallet ? { solverWallet } : {}) });
  }
  return {
    get(chainId) {
      const client = clients.get(chainId);
      if (!client) throw new ChainNotConfiguredError(chainId);
      return client;
    },
    has: (chainId) => clients.has(chainId),
    all: () => [...clients.values()],
  };
}

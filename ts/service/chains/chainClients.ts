/**
 * The service's chain clients, created once per process and injected everywhere chains are read or
 * written (quote route, POST /transactions/index, readiness, solver): one viem public client per
 * configured chain and, when the solver key is configured, the solver's wallet client on it (and the
 * attester's, which cancels attestations it no longer wants honoured: ../solver/cancelBeforeRefund.ts).
 * Nothing connects until the first call.
 */
import { createPublicClient, createWalletClient, defineChain, http, type Account, type Chain, type LocalAccount, type PublicClient, type Transport, type WalletClient } from "viem";
import type { ChainConfig } from "../config/configSchema.ts";
import { ServiceError } from "../errors/serviceError.ts";

export type SolverWallet = WalletClient<Transport, Chain, Account>;

export type ChainClient = {
  config: ChainConfig;
  chain: Chain;
  publicClient: PublicClient;
  /** The solver key's wallet on this chain, when configured. */
  solverWallet?: SolverWallet;
  /** The attester key's wallet on this chain, when configured: it sends `cancel(requestId)` (needs gas there). */
  attesterWallet?: SolverWallet;
};

export type ChainClients = {
  /** Throws CHAIN_NOT_CONFIGURED for a chain id the configuration does not have. */
  get(chainId: number): ChainClient;
  has(chainId: number): boolean;
  all(): ChainClient[];
};

export type ChainClientOptions = {
  /** Signs the solver's fills and payouts. */
  solver?: LocalAccount;
  /** Signs the attester's cancellations on the receiver. */
  attester?: LocalAccount;
  /** How often viem polls (receipts, blocks). Default 1 s. */
  pollingIntervalMs?: number;
  /** Per-request RPC timeout. Default 10 s. */
  timeoutMs?: number;
};

export class ChainNotConfiguredError extends ServiceError {
  readonly chainId: number;
  constructor(chainId: number) {
    super("CHAIN_NOT_CONFIGURED", `chain ${chainId} is not configured`);
    this.chainId = chainId;
  }
}

export function createChainClients(chains: readonly ChainConfig[], options: ChainClientOptions = {}): ChainClients {
  const clients = new Map<number, ChainClient>();
  for (const chainConfig of chains) {
    const chain = defineChain({
      id: chainConfig.id,
      name: chainConfig.displayName,
      nativeCurrency: { name: chainConfig.nativeCurrency.name, symbol: chainConfig.nativeCurrency.symbol, decimals: chainConfig.nativeCurrency.decimals },
      rpcUrls: { default: { http: [chainConfig.rpcUrl] } },
    });
    const transport = http(chainConfig.rpcUrl, { retryCount: 1, timeout: options.timeoutMs ?? 10_000 });
    const publicClient = createPublicClient({ chain, transport, pollingInterval: options.pollingIntervalMs ?? 1000 }) as PublicClient;
    const solverWallet = options.solver ? createWalletClient({ account: options.solver, chain, transport }) : undefined;
    const attesterWallet = options.attester ? createWalletClient({ account: options.attester, chain, transport }) : undefined;
    clients.set(chainConfig.id, { config: chainConfig, chain, publicClient, ...(solverWallet ? { solverWallet } : {}), ...(attesterWallet ? { attesterWallet } : {}) });
  }
  return chainClientsOf([...clients.values()]);
}

/** A ChainClients over clients built elsewhere (tests inject EDR-backed clients). */
export function chainClientsOf(list: readonly ChainClient[]): ChainClients {
  const byId = new Map(list.map((c) => [c.config.id, c]));
  return {
    get(chainId) {
      const client = byId.get(chainId);
      if (!client) throw new ChainNotConfiguredError(chainId);
      return client;
    },
    has: (chainId) => byId.has(chainId),
    all: () => [...byId.values()],
  };
}

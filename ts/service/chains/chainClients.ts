/**
 * The service's chain clients, created once per process and injected everywhere chains are read or
 * written (quote route, POST /transactions/index, readiness, solver): one viem public client per
 * configured chain and, when the solver key is configured, the solver's wallet client on it (and the
 * attester's, which cancels attestations it no longer wants honoured: ../solver/payout/cancelBeforeRefund.ts) —
 * all over the chain's one RPC transport (./rpcTransport.ts: every URL of `rpcUrls`, timeouts, retries
 * with backoff, failover by health, metrics per URL). Nothing connects until the first call.
 */
import { createPublicClient, createWalletClient, defineChain, type Chain, type PublicClient, type Transport, type WalletClient } from "viem";
import type { ChainConfig } from "../config/configSchema.ts";
import { ServiceError } from "../errors/serviceError.ts";
import type { ChainMetrics } from "./chainMetrics.ts";
import type { ServiceAccount } from "./serviceAccounts.ts";
import { createRpcEndpoints, type RpcEndpoints } from "./rpcTransport.ts";
import { createChainHead, type ChainHead } from "./chainHead.ts";

/** A wallet of one of the service's accounts: its `account.address` is canonical (./serviceAccounts.ts). */
export type SolverWallet = WalletClient<Transport, Chain, ServiceAccount>;

export type ChainClient = {
  config: ChainConfig;
  chain: Chain;
  publicClient: PublicClient;
  /** The solver key's wallet on this chain, when configured. */
  solverWallet?: SolverWallet;
  /** The attester key's wallet on this chain, when configured: it sends `cancel(requestId)` (needs gas there). */
  attesterWallet?: SolverWallet;
  /** The chain's RPC URLs as scored now (absent for clients built elsewhere, e.g. tests' EDR clients). */
  rpc?: RpcEndpoints;
  /** Where chain-reading metrics go (the indexer's too); absent: none recorded. */
  metrics?: ChainMetrics;
  /** The chain's head (./chainHead.ts): every reader of "the latest block" in the process reads it here. */
  head: ChainHead;
};

/** A chain client as built elsewhere (tests): `chainClientsOf` gives it a polled head when it has none. */
export type ChainClientParts = Omit<ChainClient, "head"> & { head?: ChainHead };

export type ChainClients = {
  /** Throws CHAIN_NOT_CONFIGURED for a chain id the configuration does not have. */
  get(chainId: number): ChainClient;
  has(chainId: number): boolean;
  all(): ChainClient[];
  /** Ends every chain's head subscription (./chainHead.ts): whoever created the clients closes them. */
  close(): void;
};

export type ChainClientOptions = {
  /** Signs the solver's fills and payouts. */
  solver?: ServiceAccount;
  /** Signs the attester's cancellations on the receiver. */
  attester?: ServiceAccount;
  /** How often viem polls (receipts, blocks). Default 1 s. */
  pollingIntervalMs?: number;
  /** The process's chain metrics (./chainMetrics.ts). */
  metrics?: ChainMetrics;
  /** How old a polled head may be when shared (./chainHead.ts); default DEFAULT_HEAD_MAX_AGE_MS. */
  headMaxAgeMs?: number;
  /** Told when a chain's head follower changes mode (subscription / polling). */
  onHeadMode?: (chainId: number, mode: "subscription" | "polling", reason: string) => void;
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
    const rpc = createRpcEndpoints({ chainId: chainConfig.id, urls: chainConfig.rpcUrls, settings: chainConfig.rpc, ...(options.metrics && { metrics: options.metrics }) });
    const transport = rpc.transport;
    // viem's own block/receipt caches are off: the indexer and the solver decide on fresh reads.
    const publicClient = createPublicClient({ chain, transport, pollingInterval: options.pollingIntervalMs ?? 1000, cacheTime: 0 }) as PublicClient;
    const solverWallet = options.solver ? createWalletClient({ account: options.solver, chain, transport, cacheTime: 0 }) : undefined;
    const attesterWallet = options.attester ? createWalletClient({ account: options.attester, chain, transport, cacheTime: 0 }) : undefined;
    const head = createChainHead(publicClient, {
      ...(options.headMaxAgeMs !== undefined && { maxAgeMs: options.headMaxAgeMs }),
      ...(chainConfig.wsRpcUrl && { wsUrl: chainConfig.wsRpcUrl }),
      ...(chainConfig.expectedBlockTimeSeconds !== undefined && { staleAfterMs: chainConfig.expectedBlockTimeSeconds * 3000 }),
      ...(options.onHeadMode && { onModeChange: (mode: "subscription" | "polling", reason: string) => options.onHeadMode!(chainConfig.id, mode, reason) }),
    });
    clients.set(chainConfig.id, { config: chainConfig, chain, publicClient, rpc, head, ...(solverWallet ? { solverWallet } : {}), ...(attesterWallet ? { attesterWallet } : {}), ...(options.metrics && { metrics: options.metrics }) });
  }
  return chainClientsOf([...clients.values()]);
}

/** A ChainClients over clients built elsewhere (tests inject EDR-backed clients), each with its one head. */
export function chainClientsOf(list: readonly ChainClientParts[]): ChainClients {
  const byId = new Map(list.map((c): [number, ChainClient] => [c.config.id, { ...c, head: c.head ?? createChainHead(c.publicClient) }]));
  return {
    get(chainId) {
      const client = byId.get(chainId);
      if (!client) throw new ChainNotConfiguredError(chainId);
      return client;
    },
    has: (chainId) => byId.has(chainId),
    all: () => [...byId.values()],
    close: () => {
      for (const client of byId.values()) client.head.close();
    },
  };
}

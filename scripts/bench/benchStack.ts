/**
 * The stack the API and end-to-end benchmarks run against: the devnet's two EDR chains served on
 * loopback (free ports), Ferry and fUSD deployed exactly as `startDevnet` does, and the service
 * started with `startServer` on a free loopback port (with the devnet's solver settings unless told
 * otherwise), its PGlite store in a temp folder.
 *
 * Why not `startDevnet` itself: a benchmark needs the service's store (to seed requests and to
 * create an API key whose own per-minute limit is high enough that rate limiting never shapes the
 * figures), and `RunningDevnet` exposes neither. The chains and contracts come from the devnet's own
 * startDevnetChains.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { NetworkManager } from "hardhat/types/network";
import type { Address } from "viem";
import { devnetAccounts, HARDHAT_FUNDED_ACCOUNTS, type DevnetAccount } from "../../ts/devnet/devnetAccounts.ts";
import type { DevnetChain } from "../../ts/devnet/devnetChain.ts";
import { startDevnetChains, type DevnetChains } from "../../ts/devnet/devnetChains.ts";
import type { DevnetNode } from "../../ts/devnet/devnetNode.ts";
import { DEVNET_SOLVER_POLL_MS, devnetConfig } from "../../ts/devnet/devnetConfig.ts";
import type { FerryConfig } from "../../ts/service/config/configSchema.ts";
import { startServer, type RunningServer, type ServerSolverOptions } from "../../ts/service/server.ts";
import { apiKeyStore } from "../../ts/service/store/apiKeys.ts";

/** The API key's own limit (requests per minute): far above anything a benchmark sends. */
export const BENCH_API_KEY_PER_MINUTE = 1_000_000_000;

export type BenchStack = {
  chains: DevnetChain[];
  config: FerryConfig;
  server: RunningServer;
  /** Sent as `x-api-key`: its own rate limit is BENCH_API_KEY_PER_MINUTE. */
  apiKey: string;
  stablecoin: Address;
  /** All 20 funded Hardhat accounts, roles as in the devnet (deployer, allocator, attester, solver, users). */
  accounts: DevnetAccount[];
  /** Where the deployment records are, and the service's key variables (for service processes of its own: scripts/bench/benchReplicas.ts). */
  deploymentsDir: string;
  serviceEnv: Record<string, string>;
  dir: string;
  close: () => Promise<void>;
};

export async function startBenchStack(options: {
  network: NetworkManager;
  log?: (line: string) => void;
  /** Adjusts the service config before the server starts (e.g. rate limits). */
  configure?: (config: FerryConfig) => FerryConfig;
  /** The solver in the service: `false` (off) or its options; default the devnet's (poll every DEVNET_SOLVER_POLL_MS). */
  solver?: ServerSolverOptions;
  /** The node serving the chains and how they mine (../../ts/devnet/devnetNode.ts); default EDR, a block per transaction. */
  node?: DevnetNode;
}): Promise<BenchStack> {
  const log = options.log ?? (() => {});
  const host = "127.0.0.1";
  const dir = await mkdtemp(join(tmpdir(), "ferry-bench-"));
  const deploymentsDir = join(dir, "deployments");
  const accounts = devnetAccounts(HARDHAT_FUNDED_ACCOUNTS);
  let devnetChains: DevnetChains | undefined;
  let server: RunningServer | undefined;
  const close = async () => {
    await server?.close().catch(() => {});
    server = undefined;
    await devnetChains?.close();
    await rm(dir, { recursive: true, force: true }).catch(() => {});
  };

  try {
    devnetChains = await startDevnetChains({ network: options.network, deploymentsDir, log, ...(options.node && { node: options.node }) });
    const { chains, inputs, stablecoin, market } = devnetChains;
    log("Ferry and fUSD deployed on both chains");
    // The service's keys go through an env map of our own (the process env is left alone).
    const env: Record<string, string> = { ...devnetChains.serviceEnv };
    const base = devnetConfig({
      chains: inputs,
      stablecoin,
      market,
      dataDir: join(dir, "data"),
      deploymentsDir,
      host,
      port: 0,
      env,
      cwd: dir,
    });
    const config = options.configure ? options.configure(base) : base;
    // The config was parsed from `env`, not process.env (FERRY_SOLVER, FERRY_SOLVER_POLL_MS): the bench says what runs.
    server = await startServer({ config, solver: options.solver ?? { pollIntervalMs: DEVNET_SOLVER_POLL_MS } });
    const { key: apiKey } = await apiKeyStore(server.store).createApiKey("bench", BENCH_API_KEY_PER_MINUTE);
    log(`service on ${server.url} (PGlite in ${join(dir, "data")})`);
    const running = server;
    return { chains, config, server: running, apiKey, stablecoin, accounts, deploymentsDir, serviceEnv: env, dir, close };
  } catch (error) {
    await close();
    throw error;
  }
}

/**
 * Starts the devnet: two EDR chains on loopback (hardhat.config.ts "origin" 31337 and "destination"
 * 31338), Ferry deployed on both at the same addresses (ts/deploy, records in `deploymentsDir`), the
 * 6-decimal stablecoin at the same address on both, minted to the test accounts, then the service
 * (embedded PGlite) — and writes `devnet.json`. `close()` stops the service, then both chains.
 */
import { join, resolve } from "node:path";
import type { NetworkManager } from "hardhat/types/network";
import type { Address } from "viem";
import { writeDeploymentRecord } from "../deploy/deploymentRecord.ts";
import { ensureDeterministicDeployer } from "../deploy/deterministicDeployer.ts";
import { deployFerryContracts } from "../deploy/ferryDeployment.ts";
import { startServer, type RunningServer } from "../service/server.ts";
import { apiKeyStore } from "../service/store/apiKeys.ts";
import { accountWithRole, devnetAccounts, hardhatTestAccount, HARDHAT_FUNDED_ACCOUNTS } from "./devnetAccounts.ts";
import { startDevnetChain, type DevnetChain } from "./devnetChain.ts";
import { devnetConfig, type DevnetChainInput } from "./devnetConfig.ts";
import { writeDevnetFile, type DevnetFile } from "./devnetFile.ts";
import { DEVNET_STABLECOIN, deployStablecoin } from "./devnetStablecoin.ts";

export type DevnetOptions = {
  network: NetworkManager;
  host?: string;
  originPort: number;
  destinationPort: number;
  apiPort: number;
  /** Where devnet.json and the database go. Default `.devnet`. */
  devnetDir?: string;
  /** Where the deployment records go (the service reads them from there). Default `deployments`. */
  deploymentsDir?: string;
  cwd?: string;
  /** The process environment: the service keys are set in it (FERRY_ALLOCATOR_KEY …). */
  env?: NodeJS.ProcessEnv;
  log?: (line: string) => void;
};

export type RunningDevnet = { file: DevnetFile; filePath: string; stablecoinSymbol: string; close: () => Promise<void> };

/** The chains: hardhat.config.ts network → protocol name. */
export const DEVNET_CHAINS = [
  { network: "origin", name: "ferry-origin", displayName: "Ferry Origin" },
  { network: "destination", name: "ferry-destination", displayName: "Ferry Destination" },
] as const;

export async function startDevnet(options: DevnetOptions): Promise<RunningDevnet> {
  const log = options.log ?? (() => {});
  const host = options.host ?? "127.0.0.1";
  const cwd = options.cwd ?? process.cwd();
  const env = options.env ?? process.env;
  const devnetDir = resolve(cwd, options.devnetDir ?? ".devnet");
  const deploymentsDir = resolve(cwd, options.deploymentsDir ?? "deployments");
  const accounts = devnetAccounts();
  const deployer = accountWithRole(accounts, "deployer");
  const allocator = accountWithRole(accounts, "allocator");
  const attester = accountWithRole(accounts, "attester");
  const solver = accountWithRole(accounts, "solver");

  const chains: DevnetChain[] = [];
  let server: RunningServer | undefined;
  const close = async () => {
    await server?.close().catch(() => {});
    server = undefined;
    while (chains.length > 0) await chains.pop()!.close().catch(() => {});
  };

  try {
    const ports = [options.originPort, options.destinationPort];
    for (const [i, spec] of DEVNET_CHAINS.entries()) {
      const chain = await startDevnetChain({ network: options.network, name: spec.network, host, port: ports[i]! });
      chains.push(chain);
      log(`${spec.network} chain ${chain.chainId} on ${chain.rpcUrl}`);
    }

    const inputs: DevnetChainInput[] = [];
    let stablecoin: Address | undefined;
    const holders = Array.from({ length: HARDHAT_FUNDED_ACCOUNTS }, (_, i) => hardhatTestAccount(i).address);
    for (const [i, chain] of chains.entries()) {
      const spec = DEVNET_CHAINS[i]!;
      log(`deploying Ferry on ${chain.chainId}…`);
      const walletClient = chain.walletClient(deployer.privateKey);
      await ensureDeterministicDeployer({ publicClient: chain.publicClient, testClient: chain.testClient });
      const result = await deployFerryContracts({
        publicClient: chain.publicClient,
        walletClient,
        testClient: chain.testClient,
        options: { allocator: allocator.address, signers: [attester.address] },
      });
      // A fresh chain every run: the record is rewritten, not merged with an earlier run's.
      await writeDeploymentRecord(deploymentsDir, result.record);
      log(`deploying the ${DEVNET_STABLECOIN.symbol} stablecoin on ${chain.chainId} and minting to ${holders.length} test accounts…`);
      stablecoin = await deployStablecoin({ publicClient: chain.publicClient, walletClient, holders });
      inputs.push({ id: chain.chainId, name: spec.name, displayName: spec.displayName, rpcUrl: chain.rpcUrl, record: result.record });
    }

    // The service's keys, through the environment as for any deployment (never printed).
    env.FERRY_ALLOCATOR_KEY = allocator.privateKey;
    env.FERRY_ATTESTER_KEY = attester.privateKey;
    env.FERRY_SOLVER_KEY = solver.privateKey;
    const config = devnetConfig({
      chains: inputs,
      stablecoin: stablecoin!,
      dataDir: join(devnetDir, "data"),
      deploymentsDir,
      host,
      port: options.apiPort,
      env,
      cwd,
    });
    log("starting the service (embedded database)…");
    server = await startServer({ config });
    // A real key in the service's store (only its hash is stored): requests made with it get the
    // higher rate limit. It is a devnet credential and goes only into devnet.json.
    const { key: apiKey } = await apiKeyStore(server.store).createApiKey("devnet");

    const file: DevnetFile = {
      apiUrl: server.url,
      chains: inputs.map((input) => ({
        id: input.id,
        name: input.name,
        rpcUrl: input.rpcUrl,
        contracts: { ...input.record.addresses, stablecoin: stablecoin! },
      })),
      accounts,
      apiKey,
    };
    const filePath = join(devnetDir, "devnet.json");
    await writeDevnetFile(filePath, file);
    return { file, filePath, stablecoinSymbol: DEVNET_STABLECOIN.symbol, close };
  } catch (error) {
    await close();
    throw error;
  }
}

/**
 * The devnet's chains, ready for the service: two EDR chains on loopback (hardhat.config.ts "origin"
 * 31337 and "destination" 31338), Ferry deployed on both at the same addresses (ts/deploy, records
 * written to `deploymentsDir`), the 6-decimal stablecoin at the same address on both, minted to every
 * funded test account, the canonical Permit2 at its canonical address (./devnetPermit2.ts), and ERC-4337's
 * EntryPoint v0.8 at its canonical address with its SimpleAccountFactory and Simple7702Account
 * (./devnetAccountAbstraction.ts), and Uniswap's Calibur (the batch executor of the SDK's executeGaslessBatch)
 * at its canonical address (./devnetCalibur.ts). `startDevnet` (npm start), the benchmarks and the solver tests all start
 * their chains here, so they run exactly what `npm start` runs.
 */
import type { NetworkManager } from "hardhat/types/network";
import type { Address } from "viem";
import { writeDeploymentRecord } from "../deploy/deploymentRecord.ts";
import { ensureDeterministicDeployer } from "../deploy/deterministicDeployer.ts";
import { deployFerryContracts } from "../deploy/ferryDeployment.ts";
import { ensureMulticall3, MULTICALL3_ADDRESS } from "../deploy/multicall3.ts";
import { accountWithRole, devnetAccounts, hardhatTestAccount, HARDHAT_FUNDED_ACCOUNTS, type DevnetAccount } from "./devnetAccounts.ts";
import { startDevnetChain, type DevnetChain } from "./devnetChain.ts";
import { DEFAULT_DEVNET_NODE, type DevnetNode } from "./devnetNode.ts";
import type { DevnetChainInput } from "./devnetConfig.ts";
import { deployDevnetMarket, type DevnetMarket } from "./devnetMarket.ts";
import { DEVNET_STABLECOIN, stablecoinAddress, deployStablecoin } from "./devnetStablecoin.ts";
import { ensurePermit2 } from "./devnetPermit2.ts";
import { deployAccountAbstraction, type DevnetAccountAbstraction } from "./devnetAccountAbstraction.ts";
import { ensureCalibur } from "./devnetCalibur.ts";

/** The chains: hardhat.config.ts network (and the chain id it gives it) → protocol name. */
export const DEVNET_CHAINS = [
  { network: "origin", chainId: 31337, name: "ferry-origin", displayName: "Ferry Origin" },
  { network: "destination", chainId: 31338, name: "ferry-destination", displayName: "Ferry Destination" },
] as const;

/**
 * The service's keys by env name, taken from the devnet roles (allocator, attester, solver) and, for
 * POST /execute, the relayer: the last funded test account (10,000 ETH on both chains).
 */
export type DevnetServiceEnv = { FERRY_ALLOCATOR_KEY: `0x${string}`; FERRY_ATTESTER_KEY: `0x${string}`; FERRY_SOLVER_KEY: `0x${string}`; FERRY_RELAYER_KEY: `0x${string}` };

/** The relayer of POST /execute on the devnet: Hardhat's last funded test account (none of the listed roles). */
export const DEVNET_RELAYER_INDEX = HARDHAT_FUNDED_ACCOUNTS - 1;

export type DevnetChains = {
  /** Origin first, then destination. */
  chains: DevnetChain[];
  /** What devnetConfig needs per chain (ids, names, RPC URLs, deployment records). */
  inputs: DevnetChainInput[];
  stablecoin: Address;
  /** The destination chain's market (./devnetMarket.ts): a Uniswap V2 WETH/fUSD pool and an ERC-4626 vault. */
  market: DevnetMarket & { chainId: number };
  /** ERC-4337 and Calibur (the same addresses on both chains). */
  accountAbstraction: DevnetAccountAbstraction & { calibur: Address };
  accounts: DevnetAccount[];
  serviceEnv: DevnetServiceEnv;
  /** Stops both chains (idempotent). */
  close: () => Promise<void>;
};

export async function startDevnetChains(options: {
  network: NetworkManager;
  deploymentsDir: string;
  host?: string;
  /** Origin and destination RPC ports; 0 (the default) picks free ones. */
  ports?: readonly [number, number];
  /** The node and its mining (./devnetNode.ts); default EDR, a block per transaction. */
  node?: DevnetNode;
  log?: (line: string) => void;
}): Promise<DevnetChains> {
  const log = options.log ?? (() => {});
  const host = options.host ?? "127.0.0.1";
  const node = options.node ?? DEFAULT_DEVNET_NODE;
  const accounts = devnetAccounts();
  const deployer = accountWithRole(accounts, "deployer");
  const allocator = accountWithRole(accounts, "allocator");
  const attester = accountWithRole(accounts, "attester");
  const solver = accountWithRole(accounts, "solver");

  const chains: DevnetChain[] = [];
  const close = async () => {
    while (chains.length > 0) await chains.pop()!.close().catch(() => {});
  };
  try {
    for (const [i, spec] of DEVNET_CHAINS.entries()) {
      const chain = await startDevnetChain({ network: options.network, name: spec.network, chainId: spec.chainId, host, port: options.ports?.[i] ?? 0, node: node.kind });
      chains.push(chain);
      log(`${spec.network} chain ${chain.chainId} on ${chain.rpcUrl} (${node.kind})`);
    }

    const inputs: DevnetChainInput[] = [];
    let stablecoin: Address | undefined;
    let accountAbstraction: (DevnetAccountAbstraction & { calibur: Address }) | undefined;
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
        // The stablecoin's address is known before it is deployed: list it as a destination currency.
        options: { allocator: allocator.address, signers: [attester.address], currencies: [stablecoinAddress()] },
      });
      // Multicall3 at its canonical address (GET /chains serves it): the presigned keyless
      // transaction, its sender funded by setBalance (setCode only if the node refused it).
      const multicall3 = await ensureMulticall3({ publicClient: chain.publicClient, testClient: chain.testClient });
      if (multicall3.status === "absent") throw new Error(`Multicall3 not installed on ${chain.chainId}: ${multicall3.reason}`);
      const record = { ...result.record, multicall3: MULTICALL3_ADDRESS };
      // A fresh chain every run: the record is rewritten, not merged with an earlier run's.
      await writeDeploymentRecord(options.deploymentsDir, record);
      log(`deploying the ${DEVNET_STABLECOIN.symbol} stablecoin on ${chain.chainId} and minting to ${holders.length} test accounts…`);
      stablecoin = await deployStablecoin({ publicClient: chain.publicClient, walletClient, holders });
      // Permit2 deposits (usePermit) go through the canonical Permit2 at its canonical address.
      await ensurePermit2({ publicClient: chain.publicClient, testClient: chain.testClient });
      // POST /execute relays EntryPoint.handleOps and EIP-7702 delegations to the package's accounts.
      // The SDK's executeGaslessBatch delegates the user's EOA to Calibur at its canonical address.
      const calibur = await ensureCalibur({ publicClient: chain.publicClient, testClient: chain.testClient });
      accountAbstraction = { ...(await deployAccountAbstraction({ publicClient: chain.publicClient, walletClient })), calibur };
      inputs.push({
        id: chain.chainId,
        name: spec.name,
        displayName: spec.displayName,
        rpcUrl: chain.rpcUrl,
        record,
        ...(node.blockTimeSeconds !== undefined && { expectedBlockTimeSeconds: node.blockTimeSeconds }),
        // Anvil serves websockets on its HTTP port: the service follows its heads by newHeads there.
        ...(node.kind === "anvil" && { wsRpcUrl: chain.rpcUrl.replace(/^http/, "ws") }),
      });
    }
    const destination = chains[1]!;
    log(`deploying the Uniswap V2 WETH/${DEVNET_STABLECOIN.symbol} pool and the vault on ${destination.chainId}…`);
    const market = { chainId: destination.chainId, ...(await deployDevnetMarket({ publicClient: destination.publicClient, walletClient: destination.walletClient(deployer.privateKey), stablecoin: stablecoin! })) };
    if (node.blockTimeSeconds !== undefined) {
      // Deployed (automined: a hundred transactions in a row); from here on the chains mine as real ones do.
      for (const chain of chains) {
        await chain.testClient.setAutomine(false);
        await chain.testClient.setIntervalMining({ interval: node.blockTimeSeconds });
      }
      log(`both chains mine a block every ${node.blockTimeSeconds} s`);
    }
    const serviceEnv: DevnetServiceEnv = {
      FERRY_ALLOCATOR_KEY: allocator.privateKey,
      FERRY_ATTESTER_KEY: attester.privateKey,
      FERRY_SOLVER_KEY: solver.privateKey,
      FERRY_RELAYER_KEY: hardhatTestAccount(DEVNET_RELAYER_INDEX).privateKey,
    };
    return { chains: [...chains], inputs, stablecoin: stablecoin!, market, accountAbstraction: accountAbstraction!, accounts, serviceEnv, close };
  } catch (error) {
    await close();
    throw error;
  }
}

/**
 * One local chain of the devnet, on loopback, with viem clients over its HTTP URL: an EDR JSON-RPC
 * server started in-process by Hardhat (`network.createServer`) for a network of hardhat.config.ts, or
 * an Anvil child process (./anvilNode.ts) with the same chain id and accounts (./devnetNode.ts).
 */
import type { NetworkManager } from "hardhat/types/network";
import {
  createPublicClient,
  createTestClient,
  createWalletClient,
  defineChain,
  http,
  type Chain,
  type Hex,
  type PublicClient,
  type TestClient,
} from "viem";
import { privateKeyToAccount } from "viem/accounts";
import type { DeployWalletClient } from "../deploy/ferryDeployment.ts";
import { startAnvilNode } from "./anvilNode.ts";
import type { DevnetNodeKind } from "./devnetNode.ts";

export type DevnetChain = {
  /** The hardhat.config.ts network name ("origin", "destination"). */
  network: string;
  /** The node serving it. */
  node: DevnetNodeKind;
  chainId: number;
  rpcUrl: string;
  chain: Chain;
  publicClient: PublicClient;
  testClient: TestClient;
  walletClient: (privateKey: Hex) => DeployWalletClient;
  close: () => Promise<void>;
};

export async function startDevnetChain(args: {
  network: NetworkManager;
  name: string;
  /** The chain id hardhat.config.ts gives the network (checked against what the node answers). */
  chainId: number;
  host: string;
  port: number;
  node?: DevnetNodeKind;
}): Promise<DevnetChain> {
  const node = args.node ?? "edr";
  const served = node === "anvil" ? await startAnvilNode({ chainId: args.chainId, host: args.host, port: args.port }) : await startEdrServer(args);
  const { rpcUrl } = served;
  try {
    const probe = createPublicClient({ transport: http(rpcUrl) });
    const chainId = await probe.getChainId();
    if (chainId !== args.chainId) throw new Error(`the ${args.name} chain answers chain id ${chainId}, not ${args.chainId}`);
    const chain = defineChain({
      id: chainId,
      name: `Ferry ${args.name}`,
      nativeCurrency: { name: "Ether", symbol: "ETH", decimals: 18 },
      rpcUrls: { default: { http: [rpcUrl] } },
    });
    const transport = http(rpcUrl);
    const publicClient = createPublicClient({ chain, transport, pollingInterval: 50 }) as PublicClient;
    // The test methods' names differ (hardhat_* / anvil_*) and so do some units (interval mining).
    const testClient = createTestClient({ chain, transport, mode: node === "anvil" ? "anvil" : "hardhat" }) as TestClient;
    const walletClient = (privateKey: Hex) =>
      createWalletClient({ account: privateKeyToAccount(privateKey), chain, transport }) as DeployWalletClient;
    return { network: args.name, node, chainId, rpcUrl, chain, publicClient, testClient, walletClient, close: served.close };
  } catch (error) {
    await served.close().catch(() => {});
    throw error;
  }
}

async function startEdrServer(args: { network: NetworkManager; name: string; host: string; port: number }): Promise<{ rpcUrl: string; close: () => Promise<void> }> {
  // Blocks mined within one second may share its timestamp (as on fast L2s). Without it every automined
  // block is one second after the last, and under load (hundreds of transactions a second) the chain's
  // clock runs minutes ahead of the wall clock: quotes, stamped with wall-clock time, expire before
  // their deposits are mined.
  const server = await args.network.createServer({ network: args.name, override: { allowBlocksWithSameTimestamp: true } }, args.host, args.port);
  const { address, port } = await server.listen();
  return { rpcUrl: `http://${address}:${port}`, close: () => server.close() };
}

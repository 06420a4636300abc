/**
 * One local chain of the devnet: an EDR JSON-RPC server started in-process by Hardhat
 * (`network.createServer`) for a network of hardhat.config.ts, on loopback, with viem clients over
 * its HTTP URL.
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

export type DevnetChain = {
  /** The hardhat.config.ts network name ("origin", "destination"). */
  network: string;
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
  host: string;
  port: number;
}): Promise<DevnetChain> {
  // Blocks mined within one second may share its timestamp (as on fast L2s). Without it every automined
  // block is one second after the last, and under load (hundreds of transactions a second) the chain's
  // clock runs minutes ahead of the wall clock: quotes, stamped with wall-clock time, expire before
  // their deposits are mined.
  const server = await args.network.createServer({ network: args.name, override: { allowBlocksWithSameTimestamp: true } }, args.host, args.port);
  const { address, port } = await server.listen();
  const rpcUrl = `http://${address}:${port}`;
  try {
    const probe = createPublicClient({ transport: http(rpcUrl) });
    const chainId = await probe.getChainId();
    const chain = defineChain({
      id: chainId,
      name: `Ferry ${args.name}`,
      nativeCurrency: { name: "Ether", symbol: "ETH", decimals: 18 },
      rpcUrls: { default: { http: [rpcUrl] } },
    });
    const transport = http(rpcUrl);
    const publicClient = createPublicClient({ chain, transport, pollingInterval: 50 }) as PublicClient;
    const testClient = createTestClient({ chain, transport, mode: "hardhat" }) as TestClient;
    const walletClient = (privateKey: Hex) =>
      createWalletClient({ account: privateKeyToAccount(privateKey), chain, transport }) as DeployWalletClient;
    return { network: args.name, chainId, rpcUrl, chain, publicClient, testClient, walletClient, close: () => server.close() };
  } catch (error) {
    await server.close().catch(() => {});
    throw error;
  }
}

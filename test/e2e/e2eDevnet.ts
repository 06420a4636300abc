/**
 * Shared fixture of the end-to-end tests: the devnet of `npm start` started in-process
 * (ts/devnet/startDevnet.ts: two EDR chains on free loopback ports, Ferry + fUSD on both, the service
 * with its solver, PGlite and deployment records in a temp dir), plus what a test talks to it with:
 * a Ferry client over HTTP and viem clients per chain. Tests use only HTTP and the chains' RPCs.
 */
import { parseDevnetNode, type DevnetNode } from "../../ts/devnet/devnetNode.ts";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { network } from "hardhat";
import {
  createPublicClient,
  createTestClient,
  createWalletClient,
  defineChain,
  http,
  type Account,
  type Address,
  type Chain,
  type Hex,
  type PublicClient,
  type TestClient,
  type Transport,
  type WalletClient,
} from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { createFerryClient, type FerryClient } from "../../ts/client/createFerryClient.ts";
import type { DevnetAccount } from "../../ts/devnet/devnetAccounts.ts";
import type { DevnetFile, DevnetFileChain } from "../../ts/devnet/devnetFile.ts";
import { startDevnet, type RunningDevnet } from "../../ts/devnet/startDevnet.ts";

export const ORIGIN = 31337;
export const DESTINATION = 31338;
export const NATIVE: Address = "0x0000000000000000000000000000000000000000";

export type E2eChain = {
  id: number;
  file: DevnetFileChain;
  chain: Chain;
  publicClient: PublicClient;
  testClient: TestClient;
  wallet: (account: DevnetAccount | Hex) => WalletClient<Transport, Chain, Account>;
};

export type E2eDevnet = {
  file: DevnetFile;
  /** The folder holding devnet.json (what `ferry … --devnet-dir` takes). */
  devnetDir: string;
  client: FerryClient;
  origin: E2eChain;
  destination: E2eChain;
  chain: (id: number) => E2eChain;
  /** The devnet's `user` accounts (Hardhat test accounts 4…); each test takes its own. */
  users: DevnetAccount[];
  account: (role: DevnetAccount["role"]) => DevnetAccount;
  /**
   * Stops `chain` from mining (a transaction sent now waits in the mempool) until the returned resume
   * is called, which restores the devnet's own mining (a block per transaction, or its interval) and
   * mines one block.
   */
  holdMining: (chain: E2eChain) => Promise<() => Promise<void>>;
  /** The running service (its store, for operator actions a test plays, e.g. `ferry keys referrer`). */
  server: RunningDevnet["server"];
  close: () => Promise<void>;
};

/** `webhookUrl`: the devnet API key's webhook endpoint (the devnet's `client` quotes with that key). */
/**
 * `node`: the node serving the chains and their mining; default what FERRY_DEVNET_NODE and
 * FERRY_DEVNET_BLOCK_TIME say (EDR, a block per transaction, when unset), so that
 * `FERRY_DEVNET_NODE=anvil npx hardhat test mocha test/e2e/…` runs the end-to-end suites on Anvil.
 * `env`: the service's environment on top of the test process's (e.g. FERRY_SOLVER=off).
 */
export async function startE2eDevnet(options: { webhookUrl?: string; node?: DevnetNode; env?: Record<string, string> } = {}): Promise<E2eDevnet> {
  const node = options.node ?? parseDevnetNode(process.env);
  const dir = await mkdtemp(join(tmpdir(), "ferry-e2e-"));
  let devnet: RunningDevnet | undefined;
  try {
    devnet = await startDevnet({
      network,
      originPort: 0,
      destinationPort: 0,
      apiPort: 0,
      devnetDir: join(dir, ".devnet"),
      deploymentsDir: join(dir, "deployments"),
      // The service keys are set in this copy, not in the test process's environment.
      env: { ...process.env, ...options.env },
      ...(options.webhookUrl ? { webhookUrl: options.webhookUrl } : {}),
      node,
    });
  } catch (error) {
    await rm(dir, { recursive: true, force: true });
    throw error;
  }
  const file = devnet.file;
  const chains = file.chains.map((c) => e2eChain(c, node.kind));
  const chain = (id: number) => {
    const found = chains.find((c) => c.id === id);
    if (!found) throw new Error(`no devnet chain ${id}`);
    return found;
  };
  const running = devnet;
  return {
    file,
    devnetDir: join(dir, ".devnet"),
    client: createFerryClient({ baseUrl: file.apiUrl, apiKey: file.apiKey }),
    origin: chain(ORIGIN),
    destination: chain(DESTINATION),
    chain,
    users: file.accounts.filter((a) => a.role === "user"),
    account: (role) => file.accounts.find((a) => a.role === role)!,
    holdMining: async ({ testClient }) => {
      await testClient.setAutomine(false);
      if (node.blockTimeSeconds !== undefined) await testClient.setIntervalMining({ interval: 0 });
      return async () => {
        if (node.blockTimeSeconds !== undefined) await testClient.setIntervalMining({ interval: node.blockTimeSeconds });
        else await testClient.setAutomine(true);
        await testClient.mine({ blocks: 1 });
      };
    },
    server: running.server,
    close: async () => {
      await running.close();
      await rm(dir, { recursive: true, force: true });
    },
  };
}

function e2eChain(file: DevnetFileChain, node: DevnetNode["kind"]): E2eChain {
  const chain = defineChain({
    id: file.id,
    name: file.name,
    nativeCurrency: { name: "Ether", symbol: "ETH", decimals: 18 },
    rpcUrls: { default: { http: [file.rpcUrl] } },
  });
  const transport = http(file.rpcUrl);
  return {
    id: file.id,
    file,
    chain,
    publicClient: createPublicClient({ chain, transport, pollingInterval: 50 }) as PublicClient,
    testClient: createTestClient({ chain, transport, mode: node === "anvil" ? "anvil" : "hardhat" }) as TestClient,
    wallet: (account) =>
      createWalletClient({
        account: privateKeyToAccount(typeof account === "string" ? account : account.privateKey),
        chain,
        transport,
        pollingInterval: 50,
      }),
  };
}

/** Gas paid by a mined transaction (wei). */
export async function gasCost(publicClient: PublicClient, hash: Hex): Promise<bigint> {
  const receipt = await publicClient.getTransactionReceipt({ hash });
  return receipt.gasUsed * receipt.effectiveGasPrice;
}

/** A fresh address nobody holds funds at (a recipient whose balance starts at 0). */
export function freshRecipient(): Address {
  return privateKeyToAccount(`0x${Buffer.from(crypto.getRandomValues(new Uint8Array(32))).toString("hex")}` as Hex).address;
}

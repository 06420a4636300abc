/**
 * Real chains the fault tests can stop, resume and reorg: `hardhat node` child processes on 127.0.0.1
 * (chain ids 31337 and 31338), Ferry and the devnet stablecoin deployed on both exactly as the devnet
 * does it (ts/deploy, same addresses), deployment records in a temp folder. A node can be paused
 * (SIGSTOP: its port still accepts connections and nothing answers — a hung RPC) and resumed
 * (SIGCONT) with its chain intact, and reorged (evm_snapshot / evm_revert, then other blocks). Blocks
 * come both from automine and from interval mining, so confirmations accrue as on a live chain.
 * `node: "anvil"` runs Foundry's Anvil instead (ts/devnet/anvilNode.ts: same chain ids and accounts),
 * which reorganises its chain natively (`anvil_reorg`: the last n blocks replaced by blocks holding
 * the transactions given); Anvil's interval mining replaces its automine and counts whole seconds.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createPublicClient, createTestClient, createWalletClient, defineChain, http, type Chain, type Hex, type PublicClient, type TestClient } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { writeDeploymentRecord, type DeploymentRecord } from "../../ts/deploy/deploymentRecord.ts";
import { ensureDeterministicDeployer } from "../../ts/deploy/deterministicDeployer.ts";
import { deployFerryContracts, type DeployWalletClient } from "../../ts/deploy/ferryDeployment.ts";
import { accountWithRole, devnetAccounts, hardhatTestAccount, HARDHAT_FUNDED_ACCOUNTS } from "../../ts/devnet/devnetAccounts.ts";
import { deployStablecoin, stablecoinAddress } from "../../ts/devnet/devnetStablecoin.ts";
import { startAnvilNode } from "../../ts/devnet/anvilNode.ts";

/** The node implementation behind a fault chain. */
export type FaultNodeKind = "hardhat" | "anvil";

export type ChainNode = {
  chainId: number;
  kind: FaultNodeKind;
  /** The node's own URL (the service goes through proxies in front of it). */
  url: string;
  chain: Chain;
  publicClient: PublicClient;
  testClient: TestClient;
  walletClient: (privateKey: Hex) => DeployWalletClient;
  /** SIGSTOP: the port accepts, nothing answers (the chain's state is kept). */
  pause(): void;
  /** SIGCONT. */
  resume(): void;
  /** Interval mining on (ms) or off (0); automine stays on. */
  intervalMining(ms: number): Promise<void>;
  close(): Promise<void>;
};

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject).listen(0, "127.0.0.1", () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

const HARDHAT_CLI = new URL("../../node_modules/hardhat/dist/src/cli.js", import.meta.url).pathname;

export async function startChainNode(chainId: number, kind: FaultNodeKind = "hardhat"): Promise<ChainNode> {
  if (kind === "anvil") return startAnvilChainNode(chainId);
  const port = await freePort();
  let output = "";
  const child: ChildProcess = spawn(process.execPath, [HARDHAT_CLI, "node", "--hostname", "127.0.0.1", "--port", String(port), "--chain-id", String(chainId)], {
    cwd: new URL("../..", import.meta.url).pathname,
    stdio: ["ignore", "pipe", "pipe"],
  });
  child.stdout!.on("data", (chunk: Buffer) => (output = (output + chunk.toString()).slice(-4000)));
  child.stderr!.on("data", (chunk: Buffer) => (output = (output + chunk.toString()).slice(-4000)));
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const url = `http://127.0.0.1:${port}`;
  const close = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill("SIGCONT");
      child.kill("SIGKILL");
    }
    await exited;
  };
  try {
    const deadline = Date.now() + 120_000;
    for (;;) {
      if (child.exitCode !== null) throw new Error(`hardhat node exited: ${output}`);
      const id = await fetch(url, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "eth_chainId", params: [] }) })
        .then(async (r) => ((await r.json()) as { result: string }).result)
        .catch(() => null);
      if (id !== null) {
        if (Number(id) !== chainId) throw new Error(`node on ${url} serves chain ${Number(id)}, expected ${chainId}`);
        break;
      }
      if (Date.now() > deadline) throw new Error(`hardhat node did not start: ${output}`);
      await new Promise((r) => setTimeout(r, 250));
    }
  } catch (error) {
    await close();
    throw error;
  }
  const { chain, publicClient, testClient, walletClient } = nodeClients(chainId, url, "hardhat");
  return {
    chainId,
    kind: "hardhat",
    url,
    chain,
    publicClient,
    testClient,
    walletClient,
    pause: () => void child.kill("SIGSTOP"),
    resume: () => void child.kill("SIGCONT"),
    intervalMining: async (ms) => {
      await testClient.request({ method: "evm_setIntervalMining", params: [ms] } as never);
    },
    close,
  };
}

async function startAnvilChainNode(chainId: number): Promise<ChainNode> {
  const anvil = await startAnvilNode({ chainId, host: "127.0.0.1", port: 0 });
  const { chain, publicClient, testClient, walletClient } = nodeClients(chainId, anvil.rpcUrl, "anvil");
  return {
    chainId,
    kind: "anvil",
    url: anvil.rpcUrl,
    chain,
    publicClient,
    testClient,
    walletClient,
    pause: () => void process.kill(anvil.pid, "SIGSTOP"),
    resume: () => void process.kill(anvil.pid, "SIGCONT"),
    // Whole seconds (at least 1); 0: back to a block per transaction.
    intervalMining: async (ms) => {
      if (ms === 0) await testClient.setAutomine(true);
      else await testClient.setIntervalMining({ interval: Math.max(1, Math.round(ms / 1000)) });
    },
    close: async () => {
      try {
        process.kill(anvil.pid, "SIGCONT");
      } catch {
        // already gone
      }
      await anvil.close();
    },
  };
}

function nodeClients(chainId: number, url: string, mode: "hardhat" | "anvil") {
  const chain = defineChain({ id: chainId, name: `fault ${chainId}`, nativeCurrency: { name: "Ether", symbol: "ETH", decimals: 18 }, rpcUrls: { default: { http: [url] } } });
  const transport = http(url, { timeout: 30_000 });
  const publicClient = createPublicClient({ chain, transport, pollingInterval: 50 }) as PublicClient;
  const testClient = createTestClient({ chain, transport, mode }) as TestClient;
  const walletClient = (privateKey: Hex) => createWalletClient({ account: privateKeyToAccount(privateKey), chain, transport }) as DeployWalletClient;
  return { chain, publicClient, testClient, walletClient };
}

export type FaultChains = {
  origin: ChainNode;
  destination: ChainNode;
  deploymentsDir: string;
  dir: string;
  records: Map<number, DeploymentRecord>;
  stablecoin: `0x${string}`;
  /** FERRY_ALLOCATOR_KEY, FERRY_ATTESTER_KEY, FERRY_SOLVER_KEY of the devnet roles. */
  serviceEnv: Record<string, string>;
  solver: `0x${string}`;
  /** Test users (distinct funded accounts: their nonces never clash). */
  user(i: number): { address: `0x${string}`; privateKey: Hex };
  close(): Promise<void>;
};

/** Two nodes with Ferry deployed, interval mining every `blockMs` (on hardhat nodes automine stays on). */
export async function startFaultChains(options: { blockMs?: number; node?: FaultNodeKind } = {}): Promise<FaultChains> {
  const dir = await mkdtemp(join(tmpdir(), "ferry-faults-"));
  const deploymentsDir = join(dir, "deployments");
  const nodes: ChainNode[] = [];
  const close = async () => {
    for (const node of nodes) await node.close().catch(() => {});
    await rm(dir, { recursive: true, force: true });
  };
  try {
    const [origin, destination] = await Promise.all([startChainNode(31337, options.node), startChainNode(31338, options.node)]);
    nodes.push(origin!, destination!);
    const accounts = devnetAccounts();
    const deployer = accountWithRole(accounts, "deployer");
    const allocator = accountWithRole(accounts, "allocator");
    const attester = accountWithRole(accounts, "attester");
    const solver = accountWithRole(accounts, "solver");
    const holders = Array.from({ length: HARDHAT_FUNDED_ACCOUNTS }, (_, i) => hardhatTestAccount(i).address);
    const records = new Map<number, DeploymentRecord>();
    for (const node of nodes) {
      const walletClient = node.walletClient(deployer.privateKey);
      await ensureDeterministicDeployer({ publicClient: node.publicClient, testClient: node.testClient });
      const result = await deployFerryContracts({
        publicClient: node.publicClient,
        walletClient,
        testClient: node.testClient,
        options: { allocator: allocator.address, signers: [attester.address], currencies: [stablecoinAddress()] },
      });
      await writeDeploymentRecord(deploymentsDir, result.record);
      records.set(node.chainId, result.record);
      await deployStablecoin({ publicClient: node.publicClient, walletClient, holders });
    }
    const blockMs = options.blockMs ?? 250;
    for (const node of nodes) await node.intervalMining(blockMs);
    return {
      origin: origin!,
      destination: destination!,
      deploymentsDir,
      dir,
      records,
      stablecoin: stablecoinAddress(),
      serviceEnv: { FERRY_ALLOCATOR_KEY: allocator.privateKey, FERRY_ATTESTER_KEY: attester.privateKey, FERRY_SOLVER_KEY: solver.privateKey },
      solver: solver.address,
      // Accounts 10.. are funded and have no devnet role.
      user: (i) => hardhatTestAccount(10 + i),
      close,
    };
  } catch (error) {
    await close();
    throw error;
  }
}

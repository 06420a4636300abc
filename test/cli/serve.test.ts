// `ferry serve` with the example config (examples/serve/ferry.two-nodes.json, its RPC ports moved to
// free ones) on two `hardhat node`s started as their own processes: `ferry deploy --config` puts Ferry
// on both, `ferry serve --config` checks and reports each stage on stderr, a native bridge (quote over
// HTTP, deposit from a wallet) reaches `success`, the admin API answers, and Ctrl-C (SIGINT to the
// process group of `npx ferry serve`) stops it with exit 0. Before that, what makes it useless is a
// one-line exit 2 naming the fix: no keys, a node down, a chain id that differs, no code at the
// configured contracts.
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { expect } from "chai";
import { createPublicClient, createWalletClient, defineChain, http, parseEther, type Hex } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { BIN, REPO_ROOT } from "./runCli.ts";
import { freePort, startHardhatNode, type HardhatNode } from "./hardhatNode.ts";
import { copyMigratedDataDir } from "../service/store/migratedDataDir.ts";

// Hardhat's public test keys: #1 allocator, #2 attester, #3 solver, #5 the user.
const KEYS = {
  FERRY_ALLOCATOR_KEY: "0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d",
  FERRY_ATTESTER_KEY: "0x5de4111afa1a4b94908f83103eb1f1706367c2e68ca870fc3fb9a804cdab365a",
  FERRY_SOLVER_KEY: "0x7c852118294e51e653712a81e05800f419141751be58f605c371e15141b007a6",
} as const;
const USER_KEY: Hex = "0x8b3a350cf5c34c9194ca85829a2df0ec3153be0318b5e2d3348e872092edffba";
const ADMIN_TOKEN = "serve-test-admin-token-0123456789abcdef";
const NEUTRAL = { FERRY_CONFIG: "", DATABASE_URL: "", FERRY_DATA_DIR: "", FERRY_DEPLOYMENTS_DIR: "", FERRY_HOST: "", FERRY_PORT: "", FERRY_SOLVER: "", FERRY_ADMIN_TOKEN: "", FERRY_WEBHOOK_SECRET_KEY: "", FERRY_DEPLOYER_KEY: "", FERRY_ALLOCATOR_KEY: "", FERRY_ATTESTER_KEY: "", FERRY_SOLVER_KEY: "" };

type Run = { status: number | null; stdout: string; stderr: string };

function ferry(args: string[], env: Record<string, string>): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], { cwd: REPO_ROOT, env: { ...process.env, ...NEUTRAL, ...env }, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk) => (stdout += chunk));
    child.stderr.on("data", (chunk) => (stderr += chunk));
    const timer = setTimeout(() => child.kill("SIGKILL"), 120_000);
    child.on("error", reject);
    child.on("close", (status) => {
      clearTimeout(timer);
      resolve({ status, stdout, stderr });
    });
  });
}

/** The example config with its two RPC URLs pointed at `urls`; everything else as shipped. */
async function exampleConfig(dir: string, urls: [string, string], name = "ferry.json"): Promise<string> {
  const example = JSON.parse(await readFile(join(REPO_ROOT, "examples/serve/ferry.two-nodes.json"), "utf8")) as { chains: { rpcUrl: string }[] };
  expect(example.chains.map((c) => c.rpcUrl)).to.deep.equal(["http://127.0.0.1:8545", "http://127.0.0.1:8546"]);
  example.chains.forEach((chain, i) => (chain.rpcUrl = urls[i]!));
  const path = join(dir, name);
  await writeFile(path, JSON.stringify(example, null, 2));
  return path;
}

describe("ferry serve on two hardhat nodes with the example config", function () {
  this.timeout(600_000);
  let nodes: HardhatNode[] = [];
  let dir: string;
  let config: string;
  let serve: ChildProcess | undefined;

  before(async () => {
    dir = await mkdtemp(join(tmpdir(), "ferry-serve-"));
    nodes = [await startHardhatNode(31337), await startHardhatNode(31338)];
    config = await exampleConfig(dir, [nodes[0]!.url, nodes[1]!.url]);
  });
  after(async () => {
    if (serve && serve.exitCode === null) process.kill(-serve.pid!, "SIGKILL");
    for (const node of nodes) await node.stop();
    await rm(dir, { recursive: true, force: true });
  });

  it("refuses to start, one line and exit 2 naming the fix: no keys, a node down, another chain id, no contracts", async () => {
    // Not deployed yet: the configuration has no contracts for its chains.
    const undeployed = await ferry(["serve", "--config", config], KEYS);
    expect(undeployed.status, undeployed.stderr).to.equal(2);
    expect(undeployed.stderr.trim().split("\n").at(-1)).to.match(/^ferry: CONFIG_INVALID: chains\[0\]\.contracts\.depository: missing: .*\(ferry deploy --config <file> writes it\)$/);

    const down = `http://127.0.0.1:${await freePort()}`;
    const contracts = { depository: "0x1111111111111111111111111111111111111111", attestedReceiver: "0x2222222222222222222222222222222222222222", multicaller: "0x3333333333333333333333333333333333333333" };
    const variant = async (name: string, edit: (file: { chains: Record<string, unknown>[] }) => void) => {
      const file = JSON.parse(await readFile(config, "utf8")) as { chains: Record<string, unknown>[] };
      for (const chain of file.chains) chain.contracts = contracts;
      edit(file);
      const path = join(dir, name);
      await writeFile(path, JSON.stringify(file));
      return path;
    };
    const noKeys = await ferry(["serve", "--config", await variant("keys.json", () => {})], {});
    expect(noKeys.status, noKeys.stderr).to.equal(2);
    expect(noKeys.stderr.trim().split("\n").at(-1)).to.match(/^ferry: KEY_MISSING: FERRY_SOLVER_KEY, FERRY_ATTESTER_KEY, FERRY_ALLOCATOR_KEY are not set .*FERRY_SOLVER=off/);
    const cases: [string, string][] = [
      [await variant("down.json", (f) => (f.chains[1]!.rpcUrl = down)), `ferry: RPC_UNREACHABLE: chains[1].rpcUrl ${down} does not answer (ECONNREFUSED): start the node or fix the URL`],
      [await variant("swapped.json", (f) => (f.chains[1]!.rpcUrl = nodes[0]!.url)), `ferry: CHAIN_ID_MISMATCH: chains[1].rpcUrl ${nodes[0]!.url} serves chain 31337, not 31338: fix the URL or the chain id`],
      [await variant("nocode.json", () => {}), "ferry: CONTRACTS_MISSING: no code at chains[0].contracts.depository 0x1111111111111111111111111111111111111111 on chain 31337: deploy with ferry deploy --config <ferry.json>"],
    ];
    for (const [path, expected] of cases) {
      const run = await ferry(["serve", "--config", path], { ...KEYS, FERRY_DATA_DIR: join(dir, "unused") });
      expect(run.status, run.stderr).to.equal(2);
      expect(run.stderr.trim().split("\n").at(-1)).to.satisfy((line: string) => line.startsWith(expected), `${path}: ${run.stderr}`);
    }
  });

  it("deploys with ferry deploy --config, serves with ferry serve --config, bridges to success, npx ferry serve stops on Ctrl-C (SIGINT to its process group) with exit 0", async () => {
    const deployed = await ferry(["deploy", "--config", config], { FERRY_ALLOCATOR_KEY: KEYS.FERRY_ALLOCATOR_KEY, FERRY_ATTESTER_KEY: KEYS.FERRY_ATTESTER_KEY });
    expect(deployed.status, deployed.stderr).to.equal(0);

    // Deployed: what is left to refuse is the database and the port.
    const noDatabase = await ferry(["serve", "--config", config], { ...KEYS, DATABASE_URL: `postgres://ferry@127.0.0.1:${await freePort()}/ferry` });
    expect(noDatabase.status, noDatabase.stderr).to.equal(2);
    expect(noDatabase.stderr.trim().split("\n").at(-1)).to.match(/^ferry: DATABASE_UNREACHABLE: DATABASE_URL postgres:\/\/ferry@127\.0\.0\.1:\d+\/ferry does not answer \(ECONNREFUSED\): start PostgreSQL or fix DATABASE_URL$/);
    const blocker = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, "127.0.0.1", resolve));
    try {
      const busy = (blocker.address() as { port: number }).port;
      // The database opens before the port is taken: a copy of a migrated one spares this run the
      // ~5 s of creating it (the run below, as the README's, creates its own).
      const taken = await ferry(["serve", "--config", config], { ...KEYS, FERRY_PORT: String(busy), FERRY_DATA_DIR: await copyMigratedDataDir(join(dir, "busy-data")) });
      expect(taken.status, taken.stderr).to.equal(2);
      expect(taken.stderr.trim().split("\n").at(-1)).to.equal(`ferry: PORT_IN_USE: 127.0.0.1:${busy} is in use: stop what listens there, or set FERRY_PORT (server.port)`);
    } finally {
      await new Promise((resolve) => blocker.close(resolve));
    }

    // As the README runs it: `npx ferry serve`, in its own process group so that SIGINT reaches the
    // whole group as a terminal's Ctrl-C does (npx, the shell it runs the bin through, the service).
    serve = spawn("npx", ["ferry", "serve", "--config", config], {
      cwd: REPO_ROOT,
      detached: true,
      env: { ...process.env, ...NEUTRAL, ...KEYS, FERRY_PORT: "0", FERRY_ADMIN_TOKEN: ADMIN_TOKEN, FERRY_DATA_DIR: join(dir, "data"), FERRY_LOG_LEVEL: "warn" },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stderr = "";
    serve.stderr!.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    serve.stdout!.resume();
    const exited = new Promise<number | null>((resolve) => serve!.on("exit", (code) => resolve(code)));
    const deadline = Date.now() + 120_000;
    while (!stderr.includes("ferry serve: ready")) {
      if (serve.exitCode !== null || Date.now() > deadline) throw new Error(`ferry serve did not start:\n${stderr}`);
      await new Promise((r) => setTimeout(r, 100));
    }
    // One progress line per stage, in order.
    const stages = [/config .*ferry\.json: 2 chains/, /chain 31337 local-a: http:\/\/127\.0\.0\.1:\d+ answers/, /chain 31338: Depository 0x[0-9a-fA-F]{40}, .* found/, /database embedded at .*: migrations applied \(schema version \d+\)/, /listening on http:\/\/127\.0\.0\.1:\d+ .*admin API on/, /solver started: 0x90F79bf6EB2c4f870365E785982E1f101E93b906/];
    let at = 0;
    for (const stage of stages) {
      const index = stderr.slice(at).search(stage);
      expect(index, `${stage} in\n${stderr}`).to.be.at.least(0);
      at += index;
    }
    for (const key of Object.values(KEYS)) expect(stderr).to.not.include(key.slice(2));
    expect(stderr).to.not.include(ADMIN_TOKEN);
    const apiUrl = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(stderr)![1]!;

    const user = privateKeyToAccount(USER_KEY);
    const recipient = privateKeyToAccount(`0x${"42".repeat(32)}`).address;
    const quoteResponse = await fetch(`${apiUrl}/quote/v2`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({
        user: user.address,
        recipient,
        originChainId: 31337,
        destinationChainId: 31338,
        originCurrency: "0x0000000000000000000000000000000000000000",
        destinationCurrency: "0x0000000000000000000000000000000000000000",
        amount: parseEther("0.5").toString(),
        tradeType: "EXACT_INPUT",
      }),
    });
    const quote = (await quoteResponse.json()) as { steps: { items: { data: { to: Hex; data: Hex; value: string; chainId: number }; check?: { endpoint: string } }[] }[]; details: { currencyOut: { amount: string } } };
    expect(quoteResponse.status, JSON.stringify(quote)).to.equal(200);
    const item = quote.steps.at(-1)!.items[0]!;
    const chain = defineChain({ id: 31337, name: "local-a", nativeCurrency: { name: "Ether", symbol: "ETH", decimals: 18 }, rpcUrls: { default: { http: [nodes[0]!.url] } } });
    const wallet = createWalletClient({ account: user, chain, transport: http(nodes[0]!.url) });
    const hash = await wallet.sendTransaction({ to: item.data.to, data: item.data.data, value: BigInt(item.data.value) });
    expect((await createPublicClient({ chain, transport: http(nodes[0]!.url) }).waitForTransactionReceipt({ hash })).status).to.equal("success");

    let status = "";
    const until = Date.now() + 120_000;
    while (!["success", "failure", "refund"].includes(status) && Date.now() < until) {
      await new Promise((r) => setTimeout(r, 300));
      status = ((await (await fetch(`${apiUrl}${item.check!.endpoint}`)).json()) as { status: string }).status;
    }
    expect(status, stderr).to.equal("success");
    const received = await createPublicClient({ transport: http(nodes[1]!.url) }).getBalance({ address: recipient });
    expect(received.toString()).to.equal(quote.details.currencyOut.amount);

    const keys = await fetch(`${apiUrl}/admin/keys`, { headers: { authorization: `Bearer ${ADMIN_TOKEN}` } });
    expect(keys.status).to.equal(200);

    process.kill(-serve.pid!, "SIGINT");
    expect(await exited, stderr).to.equal(0);
    expect(stderr).to.match(/SIGINT: stopping .*\n.*stopped/);
    expect(stderr).to.not.include("again: exiting now");
  });
});

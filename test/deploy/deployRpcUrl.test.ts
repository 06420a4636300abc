/**
 * `ferry deploy --rpc-url` and `--config` run from a directory outside the repository (no Hardhat
 * config there), against real JSON-RPC servers on loopback: records land where the user says, the
 * config's keys give the allocator and signer, every chain is reached and its id checked before
 * anything is sent, and connection or chain-id failures are exit 2 naming the fix.
 */
import { expect } from "chai";
import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { network } from "hardhat";
import type { JsonRpcServer } from "hardhat/types/network";
import { createPublicClient, getAddress, http } from "viem";
import { predictFerryAddresses } from "../../ts/deploy/ferryDeployment.ts";

const BIN = fileURLToPath(new URL("../../ts/cli/bin.mjs", import.meta.url));
const DEPLOYER = getAddress("0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266");
// Hardhat's public test keys #1 (allocator) and #2 (attester).
const ALLOCATOR_KEY = "0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d";
const ALLOCATOR = getAddress("0x70997970c51812dc3a010c7d01b50e0d17dc79c8");
const ATTESTER_KEY = "0x5de4111afa1a4b94908f83103eb1f1706367c2e68ca870fc3fb9a804cdab365a";
const ATTESTER = getAddress("0x3c44cdddb6a900fa2b585dd299e03d12fa4293bc");
const KEYS = ["FERRY_DEPLOYER_KEY", "FERRY_ALLOCATOR_KEY", "FERRY_ATTESTER_KEY", "FERRY_SOLVER_KEY", "FERRY_RELAYER_KEY", "FERRY_CONFIG", "FERRY_DEPLOYMENTS_DIR"];

type Run = { status: number | null; stdout: string; stderr: string };

function ferry(args: string[], cwd: string, env: Record<string, string> = {}): Promise<Run> {
  const inherited: Record<string, string | undefined> = {};
  // A user's shell: none of the variables of the Hardhat test run this test is in.
  for (const [name, value] of Object.entries(process.env)) if (!/^(npm_|HARDHAT_|HH_)/i.test(name) && !KEYS.includes(name)) inherited[name] = value;
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], { cwd, env: { ...inherited, ...env }, stdio: ["ignore", "pipe", "pipe"] });
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

const chainFile = (id: number, name: string, rpcUrl: string) => ({
  id,
  name,
  displayName: name,
  rpcUrl,
  nativeCurrency: { symbol: "ETH", name: "Ether", decimals: 18 },
});

describe("ferry deploy --rpc-url / --config from outside the repository", function () {
  this.timeout(300_000);
  let origin: JsonRpcServer;
  let destination: JsonRpcServer;
  let originUrl: string;
  let destinationUrl: string;
  let cwd: string;
  const addresses = predictFerryAddresses({ deployer: DEPLOYER, allocator: DEPLOYER });

  before(async function () {
    origin = await network.createServer("origin", "127.0.0.1", 0);
    destination = await network.createServer("destination", "127.0.0.1", 0);
    const a = await origin.listen();
    const b = await destination.listen();
    originUrl = `http://${a.address}:${a.port}`;
    destinationUrl = `http://${b.address}:${b.port}`;
    cwd = await mkdtemp(join(tmpdir(), "ferry-deploy-outside-"));
  });
  after(async function () {
    await origin?.close();
    await destination?.close();
    await rm(cwd, { recursive: true, force: true });
  });

  it("--rpc-url deploys from any directory into ./deployments, and a re-run sends nothing", async function () {
    const run = await ferry(["deploy", "--rpc-url", originUrl, "--signer", ATTESTER], cwd);
    expect(run.status, run.stderr).to.equal(0);
    expect(run.stdout).to.include(`deployer ${DEPLOYER}`);
    const record = JSON.parse(await readFile(join(cwd, "deployments", "31337.json"), "utf8"));
    expect(record.addresses.depository).to.equal(addresses.depository);
    const again = await ferry(["deploy", "--rpc-url", originUrl, "--json"], cwd);
    expect(again.status, again.stderr).to.equal(0);
    expect(JSON.parse(again.stdout)).to.deep.include({ chainId: 31337, alreadyDeployed: true });
  });

  it("--config deploys every chain of a service config with the allocator and signer of its keys; --check agrees", async function () {
    const dir = join(cwd, "svc");
    const config = join(cwd, "ferry.json");
    await writeFile(config, JSON.stringify({ deploymentsDir: "svc", chains: [chainFile(31337, "one", originUrl), chainFile(31338, "two", destinationUrl)] }));
    const env = { FERRY_ALLOCATOR_KEY: ALLOCATOR_KEY, FERRY_ATTESTER_KEY: ATTESTER_KEY };
    // Another salt than the first test's deployment (whose allocator is locked to the deployer).
    const salt = `0x${"01".padStart(64, "0")}`;
    const run = await ferry(["deploy", "--config", config, "--salt", salt, "--json"], cwd, env);
    expect(run.status, run.stderr).to.equal(0);
    const lines = run.stdout.trim().split("\n").map((line) => JSON.parse(line));
    expect(lines.map((line) => line.chainId)).to.deep.equal([31337, 31338]);
    for (const id of [31337, 31338]) {
      const record = JSON.parse(await readFile(join(dir, `${id}.json`), "utf8"));
      expect(record.configuration.allocator).to.equal(ALLOCATOR);
      expect(record.configuration.signers).to.deep.equal([ATTESTER]);
    }
    const check = await ferry(["deploy", "--check", "--config", config, "--salt", salt], cwd, env);
    expect(check.status, check.stdout + check.stderr).to.equal(0);
    for (const secret of [ALLOCATOR_KEY, ATTESTER_KEY]) expect(run.stdout + run.stderr + check.stdout + check.stderr).to.not.include(secret.slice(2));
  });

  it("stops before sending anything when a chain of the config is unreachable or serves another chain id: exit 2 naming the fix", async function () {
    const before = await createPublicClient({ transport: http(originUrl) }).getBlockNumber();
    const closed = `http://127.0.0.1:${await closedPort()}`;
    const unreachable = join(cwd, "unreachable.json");
    await writeFile(unreachable, JSON.stringify({ chains: [chainFile(31337, "one", originUrl), chainFile(31340, "gone", closed)] }));
    const run = await ferry(["deploy", "--config", unreachable, "--allocator", ALLOCATOR], cwd);
    expect(run.status).to.equal(2);
    expect(run.stderr.trim()).to.equal(`ferry: RPC_UNREACHABLE: chains[1].rpcUrl of ${unreachable} ${closed} does not answer (ECONNREFUSED): start the node or fix the URL`);

    const mismatch = join(cwd, "mismatch.json");
    await writeFile(mismatch, JSON.stringify({ chains: [chainFile(31337, "one", originUrl), chainFile(10, "optimism", destinationUrl)] }));
    const wrong = await ferry(["deploy", "--config", mismatch, "--allocator", ALLOCATOR], cwd);
    expect(wrong.status).to.equal(2);
    expect(wrong.stderr.trim()).to.equal(`ferry: CHAIN_ID_MISMATCH: chains[1].rpcUrl of ${mismatch} ${destinationUrl} serves chain 31338, not 10: fix the URL or the chain id`);
    expect(await createPublicClient({ transport: http(originUrl) }).getBlockNumber()).to.equal(before);

    const direct = await ferry(["deploy", "--rpc-url", closed], cwd);
    expect(direct.status).to.equal(2);
    expect(direct.stderr.trim()).to.equal(`ferry: RPC_UNREACHABLE: --rpc-url ${closed} does not answer (ECONNREFUSED): start the node or fix the URL`);
  });

  it("asks for exactly one chain source; --network outside the repository names --rpc-url", async function () {
    for (const args of [["deploy"], ["deploy", "--rpc-url", originUrl, "--network", "localhost"], ["deploy", "--rpc-url", originUrl, "--chain", "1"]]) {
      const run = await ferry(args, cwd);
      expect(run.status, args.join(" ")).to.equal(2);
      expect(run.stderr, args.join(" ")).to.match(/^ferry: USAGE: /);
    }
    const outside = await ferry(["deploy", "--network", "localhost"], cwd);
    expect(outside.status).to.equal(2);
    expect(outside.stderr).to.match(/^ferry: USAGE: .*(--rpc-url <url>)/);
    expect(existsSync(join(cwd, "hardhat.config.ts"))).to.equal(false);

    // In the repository, a --network whose node is down is exit 2 naming its URL variable.
    const repo = fileURLToPath(new URL("../../", import.meta.url));
    const down = await ferry(["deploy", "--network", "localhost"], repo, { FERRY_RPC_URL_LOCALHOST: `http://127.0.0.1:${await closedPort()}` });
    expect(down.status, down.stderr).to.equal(2);
    expect(down.stderr.trim()).to.equal("ferry: RPC_UNREACHABLE: network localhost (URL: FERRY_RPC_URL_LOCALHOST) does not answer (ECONNREFUSED): start the node or fix the URL");
  });
});

function closedPort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

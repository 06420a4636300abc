// `npm start`'s devnet as a child process — `npm start` itself, in its own process group (every port
// 0, .devnet and the deployment records in a temp dir): it says what the contract build is doing,
// both chains answer with their ids and the same contract addresses, the service answers /health and
// /chains, the summary shows the API key, where the service's log goes (FERRY_DEVNET_LOG, here a
// file that fills) and one line to try next; a second devnet on the same FERRY_DEVNET_DIR is refused
// with a hint naming FERRY_DEVNET_DIR; and SIGINT to the group — a terminal's Ctrl-C — stops
// everything with exit 0, npm's included.
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { connect } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { expect } from "chai";
import { createPublicClient, http, type Address } from "viem";
import type { DevnetFile } from "../../ts/devnet/devnetFile.ts";

/** Generous: npm start on a 2-core machine shared with other builds (about 10 s when quiet). */
const STARTUP_TIMEOUT_MS = 120_000;
const STOP_TIMEOUT_MS = 10_000;
/** Only configured, never called here: no request is quoted with the devnet key in this test. */
const WEBHOOK_URL = "http://127.0.0.1:9/ferry-devnet-hooks";

describe("devnet (npm start)", function () {
  this.timeout(STARTUP_TIMEOUT_MS + STOP_TIMEOUT_MS + 20_000);
  let dir: string;
  let child: ChildProcess;
  let output = "";
  let exited: Promise<number | null>;
  let devnet: DevnetFile;
  let startupMs: number;

  before(async function () {
    dir = await mkdtemp(join(tmpdir(), "ferry-devnet-"));
    const started = Date.now();
    child = spawn("npm", ["start"], {
      cwd: process.cwd(),
      detached: true,
      env: {
        ...process.env,
        FERRY_DEVNET_ORIGIN_PORT: "0",
        FERRY_DEVNET_DESTINATION_PORT: "0",
        FERRY_PORT: "0",
        FERRY_DEVNET_DIR: join(dir, ".devnet"),
        FERRY_DEPLOYMENTS_DIR: join(dir, "deployments"),
        FERRY_DEVNET_WEBHOOK_URL: WEBHOOK_URL,
        FERRY_DEVNET_LOG: join(dir, "logs", "service.log"),
      },
      stdio: ["ignore", "pipe", "pipe"],
    });
    exited = new Promise((resolve) => child.on("exit", (code) => resolve(code)));
    child.stdout!.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.stderr!.on("data", (chunk: Buffer) => (output += chunk.toString()));
    await waitFor(() => output.includes("Ctrl-C stops everything."), STARTUP_TIMEOUT_MS, () => output);
    startupMs = Date.now() - started;
    console.log(`      devnet summary after ${(startupMs / 1000).toFixed(1)} s`);
    devnet = JSON.parse(await readFile(join(dir, ".devnet", "devnet.json"), "utf8")) as DevnetFile;
  });

  after(async function () {
    if (child.exitCode === null && child.signalCode === null) process.kill(-child.pid!, "SIGKILL");
    await rm(dir, { recursive: true, force: true });
  });

  it("prints progress and a summary without private keys", function () {
    expect(output).to.match(/origin chain 31337 on http:\/\/127\.0\.0\.1:\d+/);
    expect(output).to.match(/destination chain 31338 on http:\/\/127\.0\.0\.1:\d+/);
    expect(output).to.include("deploying Ferry");
    expect(output).to.include(devnet.apiUrl);
    for (const account of devnet.accounts) {
      expect(output).to.include(account.address);
      expect(output).to.not.include(account.privateKey.slice(2));
    }
    expect(startupMs).to.be.below(STARTUP_TIMEOUT_MS);
  });

  it("says what the contract build is doing, and no solc warning about a dependency", function () {
    expect(output).to.match(/^(checking the contract build \(recompiles only what changed\)…|compiling the contracts \(first run: ~1–2 min; later starts reuse the build\)…)$/m);
    expect(output).to.match(/^(contracts up to date|contracts compiled in \d+ s)$/m);
    expect(output).to.not.match(/Warning: .*\n.*npm\//);
  });

  it("the summary shows the API key, where the service's log goes, and one line to try next; the log fills", async function () {
    expect(output).to.include(`  apiKey     ${devnet.apiKey}  (send as x-api-key`);
    expect(output).to.include(`  log        the service's log → ${join(dir, "logs", "service.log")}`);
    expect(output).to.match(new RegExp(`^Try this next: curl -s ${devnet.apiUrl.replace(/[.]/g, "\\.")}/chains — `, "m"));
    await fetch(`${devnet.apiUrl}/health`);
    const lines = (await readFile(join(dir, "logs", "service.log"), "utf8")).trim().split("\n").map((line) => JSON.parse(line) as { msg?: string });
    expect(lines.map((line) => line.msg)).to.include("ferry service listening");
  });

  it("a second devnet on the same FERRY_DEVNET_DIR is refused: DATA_DIR_LOCKED names FERRY_DEVNET_DIR, exit 2", async function () {
    const second = spawn(process.execPath, ["scripts/devnet.ts"], {
      cwd: process.cwd(),
      env: { ...process.env, FERRY_DEVNET_ORIGIN_PORT: "0", FERRY_DEVNET_DESTINATION_PORT: "0", FERRY_PORT: "0", FERRY_DEVNET_DIR: join(dir, ".devnet"), FERRY_DEPLOYMENTS_DIR: join(dir, "deployments-2") },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stderr = "";
    second.stderr!.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    const code = await new Promise((resolve) => second.on("exit", resolve));
    expect(code, stderr).to.equal(2);
    expect(stderr.trim().split("\n").at(-1)).to.match(
      /^devnet: DATA_DIR_LOCKED: another devnet \(process \d+\) is running on \S+\.devnet: stop it \(Ctrl-C in its terminal\), or run this one in another folder: FERRY_DEVNET_DIR=<dir> with FERRY_PORT, FERRY_DEVNET_ORIGIN_PORT and FERRY_DEVNET_DESTINATION_PORT set to free ports \(0 = any\)$/,
    );
    expect((await fetch(`${devnet.apiUrl}/health`)).status, "the first devnet runs on").to.equal(200);
  });

  it("writes devnet.json in the shape in docs/architecture.md", function () {
    expect(devnet).to.have.all.keys("apiUrl", "websocketUrl", "chains", "accounts", "apiKey", "adminToken", "webhookUrl");
    expect(devnet.websocketUrl).to.equal(`${devnet.apiUrl.replace(/^http/, "ws")}/ws`);
    expect(devnet.webhookUrl).to.equal(WEBHOOK_URL);
    expect(output).to.include(`apiKey → ${WEBHOOK_URL}`);
    expect(devnet.apiKey).to.be.a("string").and.match(/^ferry_/);
    expect(devnet.chains.map((c) => c.id)).to.deep.equal([31337, 31338]);
    for (const account of devnet.accounts) expect(account).to.have.all.keys("address", "privateKey", "role");
    expect(devnet.accounts.map((a) => a.role).slice(0, 4)).to.deep.equal(["deployer", "allocator", "attester", "solver"]);
  });

  it("both chains answer with their ids and hold the contracts at the same addresses", async function () {
    const [origin, destination] = devnet.chains;
    // Ferry and fUSD at the same addresses on both; the destination adds its market (WETH, the
    // Uniswap V2 factory and pair, the vault).
    expect(Object.keys(origin!.contracts)).to.include.members(["depository", "attestedReceiver", "multicaller", "depositAddressFactory", "stablecoin"]);
    for (const [name, address] of Object.entries(origin!.contracts)) expect(destination!.contracts[name], name).to.equal(address);
    expect(Object.keys(destination!.contracts)).to.include.members(["wrappedNative", "uniswapV2Factory", "uniswapV2Pair", "vault"]);
    for (const chain of devnet.chains) {
      const client = createPublicClient({ transport: http(chain.rpcUrl) });
      expect(await client.getChainId()).to.equal(chain.id);
      for (const [name, address] of Object.entries(chain.contracts)) {
        const code = await client.getCode({ address: address as Address });
        expect(code, `${name} on ${chain.id}`).to.match(/^0x[0-9a-f]{10,}/);
      }
    }
  });

  it("the service answers /health and /chains with both chains", async function () {
    const health = await fetch(`${devnet.apiUrl}/health`);
    expect(health.status).to.equal(200);
    const response = await fetch(`${devnet.apiUrl}/chains`);
    expect(response.status).to.equal(200);
    const body = (await response.json()) as { chains: Array<{ id: number }> };
    expect(body.chains.map((c) => c.id)).to.have.members([31337, 31338]);
  });

  it("the apiKey in devnet.json is a real key of the service; an unknown key is refused", async function () {
    const withKey = await fetch(`${devnet.apiUrl}/chains`, { headers: { "x-api-key": devnet.apiKey! } });
    expect(withKey.status).to.equal(200);
    const unknown = await fetch(`${devnet.apiUrl}/chains`, { headers: { "x-api-key": "ferry_not-a-key" } });
    expect(unknown.status).to.equal(401);
    expect(((await unknown.json()) as { errorCode: string }).errorCode).to.equal("INVALID_API_KEY");
  });

  it("the websocket at websocketUrl greets with the connection message", async function () {
    const ws = new WebSocket(devnet.websocketUrl);
    const first = await new Promise<unknown>((resolve, reject) => {
      ws.onmessage = (event) => resolve(JSON.parse(String(event.data)));
      ws.onerror = () => reject(new Error("websocket error"));
    });
    ws.close();
    expect(first).to.deep.include({ type: "connection", status: "ready" });
  });

  it("Ctrl-C (SIGINT to npm start's process group) stops everything: exit 0 within 10 s and no port left listening", async function () {
    const ports = [devnet.apiUrl, ...devnet.chains.map((c) => c.rpcUrl)].map((url) => Number(new URL(url).port));
    const stopped = Date.now();
    process.kill(-child.pid!, "SIGINT");
    const code = await Promise.race([exited, sleep(STOP_TIMEOUT_MS).then(() => "timeout" as const)]);
    expect(code, output).to.equal(0);
    console.log(`      stopped in ${Date.now() - stopped} ms`);
    for (const port of ports) expect(await refuses(port), `port ${port}`).to.equal(true);
  });
});

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

async function waitFor(condition: () => boolean, timeoutMs: number, describe: () => string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out; output so far:\n${describe()}`);
    await sleep(100);
  }
}

function refuses(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host: "127.0.0.1", port });
    socket.once("connect", () => {
      socket.destroy();
      resolve(false);
    });
    socket.once("error", () => resolve(true));
  });
}

// `npm start` (scripts/devnet.ts) as a child process, stopped and started again on the same folder:
//  - while it runs, `ferry webhooks set/show/log` (and `ferry keys list`) work against it through its
//    admin API, found from .devnet/devnet.json — with the embedded database held by the service;
//  - a curl-style quote (plain HTTP) and `ferry devnet send-steps` (the wallet) reach `success`, and the
//    webhook receiver of examples/webhook-receivers gets the signed events at the README's URL path;
//  - after SIGINT and a new start, the pinned FERRY_DEVNET_API_KEY is the same, the earlier run's
//    requests are gone with its chains (fresh store), and a new deposit reaches `success` again;
//  - a port in use is one line naming the FERRY_DEVNET_* / FERRY_PORT variables, exit 2.
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { createServer, type Server } from "node:net";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { expect } from "chai";
import { createWebhookServer, type FerryWebhookEvent } from "../../examples/webhook-receivers/node-http.ts";
import type { DevnetFile } from "../../ts/devnet/devnetFile.ts";
import { errorLine, runCliAsync, type CliRun } from "../cli/runCli.ts";

const STARTUP_TIMEOUT_MS = 180_000;
const PINNED_KEY = "ferry_devnet_restart_test_key_0001";
const NEUTRAL = { FERRY_CONFIG: "", DATABASE_URL: "", FERRY_DATA_DIR: "", FERRY_API_URL: "", FERRY_ADMIN_TOKEN: "", FERRY_WEBHOOK_SECRET_KEY: "" };

type RunningDevnet = { child: ChildProcess; output: () => string; exited: Promise<number | null>; file: DevnetFile };

function ok(run: CliRun): CliRun {
  expect(run.status, `${run.stdout}\n${run.stderr}`).to.equal(0);
  return run;
}

describe("devnet restarted: admin CLI while it runs, a fresh store with fresh chains", function () {
  this.timeout(2 * STARTUP_TIMEOUT_MS + 240_000);
  let dir: string;
  let receiver: ReturnType<typeof createWebhookServer>;
  let receiverUrl: string;
  const events: FerryWebhookEvent[] = [];
  let devnet: RunningDevnet | undefined;

  const startDevnet = async (extraEnv: Record<string, string> = {}): Promise<RunningDevnet> => {
    let output = "";
    const child = spawn(process.execPath, ["scripts/devnet.ts"], {
      cwd: process.cwd(),
      env: {
        ...process.env,
        ...NEUTRAL,
        FERRY_DEVNET_ORIGIN_PORT: "0",
        FERRY_DEVNET_DESTINATION_PORT: "0",
        FERRY_PORT: "0",
        FERRY_DEVNET_DIR: join(dir, ".devnet"),
        FERRY_DEPLOYMENTS_DIR: join(dir, "deployments"),
        FERRY_DEVNET_API_KEY: PINNED_KEY,
        FERRY_DEVNET_WEBHOOK_URL: receiverUrl,
        ...extraEnv,
      },
      stdio: ["ignore", "pipe", "pipe"],
    });
    const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
    child.stdout!.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.stderr!.on("data", (chunk: Buffer) => (output += chunk.toString()));
    const deadline = Date.now() + STARTUP_TIMEOUT_MS;
    while (!output.includes("Ctrl-C stops everything.")) {
      if (child.exitCode !== null || Date.now() > deadline) {
        // Not returned, so `after` cannot stop it: stopped here (its chains and service with it), else
        // it outlives the run and holds mocha open.
        child.kill("SIGINT");
        if ((await Promise.race([exited, sleep(20_000).then(() => "timeout")])) === "timeout") child.kill("SIGKILL");
        throw new Error(`devnet did not start:\n${output}`);
      }
      await sleep(200);
    }
    const file = JSON.parse(await readFile(join(dir, ".devnet", "devnet.json"), "utf8")) as DevnetFile;
    return { child, output: () => output, exited, file };
  };
  const stop = async (running: RunningDevnet) => {
    running.child.kill("SIGINT");
    expect(await Promise.race([running.exited, sleep(20_000).then(() => "timeout")]), running.output()).to.equal(0);
  };
  /** `ferry …` from the folder holding .devnet (as a user runs it), nothing else pointing it anywhere. */
  const cli = (args: string[], input?: string) => runCliAsync(args, { cwd: dir, env: NEUTRAL, ...(input !== undefined ? { input } : {}) });

  /** The README's curl quote, then `ferry devnet send-steps quote.json --wait`: returns the requestId. */
  const bridge = async (file: DevnetFile): Promise<string> => {
    const user = file.accounts.find((a) => a.role === "user")!.address;
    const response = await fetch(`${file.apiUrl}/quote/v2`, {
      method: "POST",
      headers: { "content-type": "application/json", "x-api-key": file.apiKey },
      body: JSON.stringify({
        user,
        recipient: user,
        originChainId: 31337,
        destinationChainId: 31338,
        originCurrency: "0x0000000000000000000000000000000000000000",
        destinationCurrency: "0x0000000000000000000000000000000000000000",
        amount: "10000000000000000",
        tradeType: "EXACT_INPUT",
      }),
    });
    const quoteText = await response.text();
    expect(response.status, quoteText).to.equal(200);
    await writeFile(join(dir, "quote.json"), quoteText);
    const sent = ok(await cli(["devnet", "send-steps", "quote.json", "--wait", "--json"]));
    const result = JSON.parse(sent.stdout.trim().split("\n").at(-1)!) as { status: string; check: string; transactions: { step: string; status: string }[] };
    expect(result.status).to.equal("success");
    expect(result.transactions.map((t) => [t.step, t.status])).to.deep.equal([["deposit", "success"]]);
    return new URL(result.check).searchParams.get("requestId")!;
  };

  before(async () => {
    dir = await mkdtemp(join(tmpdir(), "ferry-devnet-restart-"));
    receiver = createWebhookServer({ secret: PINNED_KEY, onEvent: (event) => void events.push(event) });
    await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
    // The path examples/webhook-receivers serve, as the README's devnet example gives it.
    receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/webhooks/ferry`;
  });
  after(async () => {
    if (devnet && devnet.child.exitCode === null) devnet.child.kill("SIGKILL");
    await new Promise((resolve) => receiver?.close(resolve));
    await rm(dir, { recursive: true, force: true });
  });

  let firstRequest: string;

  it("first run: ferry webhooks set/show/log and keys list work against the running devnet; a curl + send-steps deposit reaches success", async () => {
    devnet = await startDevnet();
    const { file } = devnet;
    expect(file.apiKey).to.equal(PINNED_KEY);
    expect(file.adminToken).to.match(/^[0-9a-f]{64}$/);
    expect(devnet.output()).to.not.include(file.adminToken);

    const keys = JSON.parse(ok(await cli(["keys", "list", "--json"])).stdout) as { keys: { id: string; name: string }[] };
    expect(keys.keys.map((k) => k.name)).to.deep.equal(["devnet"]);
    // Replace the endpoint the devnet set at start: same receiver, plus a custom header.
    ok(await cli(["webhooks", "set", "--key", "-", "--url", receiverUrl, "--header", "X-Team: payments"], `${PINNED_KEY}\n`));
    const shown = ok(await cli(["webhooks", "show"]));
    expect(shown.stdout).to.include(receiverUrl).and.include("X-Team: [redacted]");
    expect(shown.stdout + shown.stderr).to.not.include(PINNED_KEY);

    firstRequest = await bridge(file);
    // The webhook log of the request, read while the service runs (it holds the embedded database).
    let log: { deliveries: { status: string; state: string; attemptLog: { statusCode: number | null }[] }[] } = { deliveries: [] };
    const deadline = Date.now() + 30_000;
    while (Date.now() < deadline) {
      log = JSON.parse(ok(await cli(["webhooks", "log", "--request", firstRequest, "--json"])).stdout);
      if (log.deliveries.some((d) => d.status === "success" && d.state === "delivered")) break;
      await sleep(500);
    }
    const success = log.deliveries.find((d) => d.status === "success");
    expect(success, JSON.stringify(log)).to.not.equal(undefined);
    expect(success!.state).to.equal("delivered");
    expect(success!.attemptLog.at(-1)!.statusCode).to.equal(204);
    expect(events.some((e) => e.data.requestId === firstRequest && e.data.status === "success")).to.equal(true);
    expect(ok(await cli(["webhooks", "log", "--request", firstRequest])).stdout).to.include("state delivered");
    await stop(devnet);
  });

  it("second run on the same folder: same pinned key, the earlier requests are gone, a new deposit reaches success", async () => {
    devnet = await startDevnet();
    const { file } = devnet;
    expect(devnet.output()).to.match(/emptied .*data: the chains start fresh, so does the database/);
    expect(file.apiKey).to.equal(PINNED_KEY);
    const old = await fetch(`${file.apiUrl}/intents/status/v3?requestId=${firstRequest}`);
    expect(old.status).to.equal(404);
    const keys = JSON.parse(ok(await cli(["keys", "list", "--json"])).stdout) as { keys: { name: string }[] };
    expect(keys.keys.map((k) => k.name)).to.deep.equal(["devnet"]);

    const second = await bridge(file);
    expect(second).to.not.equal(firstRequest);
    const status = (await (await fetch(`${file.apiUrl}/intents/status/v3?requestId=${second}`)).json()) as { status: string };
    expect(status.status).to.equal("success");
    await stop(devnet);
    devnet = undefined;
  });

  it("a port in use is one line naming the variables, exit 2", async () => {
    const blocker: Server = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, "127.0.0.1", resolve));
    const port = (blocker.address() as AddressInfo).port;
    try {
      const child = spawn(process.execPath, ["scripts/devnet.ts"], {
        cwd: process.cwd(),
        env: { ...process.env, FERRY_DEVNET_ORIGIN_PORT: "0", FERRY_DEVNET_DESTINATION_PORT: "0", FERRY_PORT: String(port), FERRY_DEVNET_DIR: join(dir, ".devnet-busy") },
        stdio: ["ignore", "pipe", "pipe"],
      });
      let stderr = "";
      child.stderr!.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
      const code = await new Promise<number | null>((resolve) => child.on("exit", resolve));
      expect(code).to.equal(2);
      expect(errorLine({ status: code, stdout: "", stderr, stdoutBytes: Buffer.alloc(0) })).to.equal(
        `devnet: PORT_IN_USE: 127.0.0.1:${port} (the API, FERRY_PORT) is in use: stop what listens there (an earlier npm start?) or move the devnet with FERRY_DEVNET_ORIGIN_PORT, FERRY_DEVNET_DESTINATION_PORT, FERRY_PORT (0 = any free port)`,
      );
    } finally {
      await new Promise((resolve) => blocker.close(resolve));
    }
  });
});

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

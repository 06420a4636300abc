// Crash safety of the whole service: `node ts/service/server.ts` as a child process (FERRY_CONFIG +
// key env vars, embedded database on disk), killed with SIGKILL between the deposit and the fill,
// restarted on the same data: the request completes and the receiver shows exactly one fill.
import { spawn, type ChildProcess } from "node:child_process";
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { expect } from "chai";
import { depositoryAbi } from "../../../ts/abi/Depository.ts";
import { payoutNonce } from "../../../ts/service/solver/payout/payoutPlan.ts";
import { createStore } from "../../../ts/service/store/createStore.ts";
import { deposit, makeIntent, saveQuote, startTwoChains, type TwoChains } from "./twoChains.ts";
import { filledLogs, waitFor } from "./solverHelpers.ts";
import { canonicalHex } from "../../../ts/service/model/values.ts";

type Service = { child: ChildProcess; url: string; output: () => string; exited: Promise<unknown> };

describe("solver crash safety (service killed with SIGKILL)", function () {
  this.timeout(300_000);
  let env: TwoChains;
  let configPath: string;
  let dataDir: string;
  const children: ChildProcess[] = [];

  before(async () => {
    env = await startTwoChains();
    dataDir = join(env.dir, "service-data");
    configPath = join(env.dir, "ferry.json");
    await writeFile(
      configPath,
      JSON.stringify({
        server: { host: "127.0.0.1", port: 0 },
        // The test polls the status every 50 ms.
        rateLimits: { anonymousPerMinute: 100_000 },
        database: { dataDir },
        deploymentsDir: env.deploymentsDir,
        chains: env.config.chains.map((c) => ({
          id: c.id,
          name: c.name,
          displayName: c.displayName,
          rpcUrl: c.rpcUrl,
          confirmations: 1,
          nativeCurrency: { symbol: c.nativeCurrency.symbol, name: c.nativeCurrency.name, decimals: c.nativeCurrency.decimals },
          erc20Currencies: c.erc20Currencies.map(({ address, symbol, name, decimals }) => ({ address, symbol, name, decimals })),
        })),
      }),
    );
  });
  after(async () => {
    for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
    await env?.close();
  });

  async function startService(): Promise<Service> {
    let output = "";
    const child = spawn(process.execPath, ["ts/service/server.ts"], {
      cwd: process.cwd(),
      env: { ...process.env, ...env.keyEnv, FERRY_CONFIG: configPath, FERRY_SOLVER_POLL_MS: "100", FERRY_LOG_LEVEL: "info" },
      stdio: ["ignore", "pipe", "pipe"],
    });
    children.push(child);
    const exited = new Promise((resolve) => child.on("exit", resolve));
    child.stdout!.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.stderr!.on("data", (chunk: Buffer) => (output += chunk.toString()));
    const url = await waitFor(async () => /listening at (http:\/\/127\.0\.0\.1:\d+)/.exec(output)?.[1], 30_000, "the service to listen").catch((error) => {
      throw new Error(`${(error as Error).message}\n${output}`);
    });
    return { child, url, output: () => output, exited };
  }

  async function kill(service: Service): Promise<void> {
    service.child.kill("SIGKILL");
    await service.exited;
  }

  async function status(service: Service, requestId: string): Promise<string | undefined> {
    const response = await fetch(`${service.url}/intents/status/v3?requestId=${requestId}`);
    if (response.status !== 200) return undefined;
    return ((await response.json()) as { status: string }).status;
  }

  /** Quotes go into the service's database directly (the quote route is another concern): only while no service runs. */
  async function quote(intent: ReturnType<typeof makeIntent>): Promise<void> {
    const store = await createStore({ dataDir });
    try {
      await saveQuote(store, intent);
    } finally {
      await store.close();
    }
  }

  async function readRequest(requestId: string) {
    const store = await createStore({ dataDir });
    try {
      return await store.getRequest(canonicalHex(requestId));
    } finally {
      await store.close();
    }
  }

  it("killedWithTheFillSubmittedButUnmined_completesAfterRestartWithOneFill", async () => {
    const intent = makeIntent(env);
    await quote(intent);
    await env.destination.testClient.setAutomine(false);
    let service: Service | undefined;
    try {
      service = await startService();
      await deposit(env, { orderId: intent.orderId, amount: BigInt(intent.originAmount) });
      await waitFor(async () => (await status(service!, intent.requestId)) === "submitted", 20_000, "submitted");
      await kill(service);
      await env.destination.testClient.mine({ blocks: 1 });
    } finally {
      await env.destination.testClient.setAutomine(true);
    }
    const restarted = await startService();
    try {
      await waitFor(async () => (await status(restarted, intent.requestId)) === "success", 40_000, "success after restart").catch((error) => {
        throw new Error(`${(error as Error).message}\n${restarted.output().slice(-4000)}`);
      });
    } finally {
      await kill(restarted);
    }
    expect(await filledLogs(env, intent.requestId)).to.have.length(1);
    const stored = await readRequest(intent.requestId);
    expect(stored!.txHashes).to.have.length(1);
  });

  it("killedRightAfterTheDeposit_completesAfterRestartWithOneFillAndTheRepayment", async () => {
    const intent = makeIntent(env);
    await quote(intent);
    const service = await startService();
    await deposit(env, { orderId: intent.orderId, amount: BigInt(intent.originAmount) });
    await kill(service);
    const restarted = await startService();
    const repaid = () =>
      env.origin.publicClient.readContract({ address: env.config.chains[0]!.contracts.depository, abi: depositoryAbi, functionName: "executed", args: [payoutNonce("repayment", intent.requestId)] });
    try {
      // Repaid: the request is a success and its repayment's nonce (deterministic) is used onchain. (The
      // Depository's balance is no measure: an earlier test's repayment may land in the meantime.)
      await waitFor(
        async () => (await publicStatus(restarted, intent.requestId)) === "success" && (await repaid()),
        40_000,
        "success and repayment after restart",
      ).catch((error) => {
        throw new Error(`${(error as Error).message}\n${restarted.output().slice(-4000)}`);
      });
    } finally {
      await kill(restarted);
    }
    expect(await filledLogs(env, intent.requestId)).to.have.length(1);
    const stored = await readRequest(intent.requestId);
    expect(stored!.status).to.equal("success");
    expect((await env.origin.publicClient.readContract({
      address: env.config.chains[0]!.contracts.depository,
      abi: depositoryAbi,
      functionName: "executed",
      args: [stored!.solver!.repayment!.nonce],
    }))).to.equal(true);
  });

  // How fast is `npm run bench:e2e`'s figure (deposit → success, against a baseline in the same run);
  // a wall-clock bound here would only measure how busy the machine is.
  it("aRunningServiceTakesEachDepositToSuccess_andFillsItOnce", async () => {
    const intents = [makeIntent(env), makeIntent(env), makeIntent(env)];
    for (const intent of intents) await quote(intent);
    const service = await startService();
    const times: number[] = [];
    try {
      for (const intent of intents) {
        const started = Date.now();
        await deposit(env, { orderId: intent.orderId, amount: BigInt(intent.originAmount) });
        await waitFor(async () => (await status(service, intent.requestId)) === "success", 10_000, "success");
        times.push(Date.now() - started);
      }
      console.log(`      deposit → success in ${times.join(", ")} ms`);
    } finally {
      await kill(service);
    }
    for (const intent of intents) expect(await filledLogs(env, intent.requestId)).to.have.length(1);
    expect(times).to.have.length(intents.length);
  });

  async function publicStatus(service: Service, requestId: string): Promise<string | undefined> {
    const response = await fetch(`${service.url}/intents/status/v3?requestId=${requestId}`);
    if (response.status !== 200) return undefined;
    return ((await response.json()) as { status: string }).status;
  }
});

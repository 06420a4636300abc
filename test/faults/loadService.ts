/**
 * The service as a real process for fault tests: `node ts/service/server.ts` with a FERRY_CONFIG file
 * written for the two test chains (quotes priced as on the devnet, the solver polling fast), its keys
 * and DATABASE_URL in the child's environment only, its log (JSON lines) appended to a file so a
 * request can be traced by requestId across restarts. `kill()` is SIGKILL.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { appendFileSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { DEVNET_STABLECOIN } from "../../ts/devnet/devnetStablecoin.ts";
import { DEVNET_USD_PRICES } from "../../ts/devnet/devnetConfig.ts";
import type { TwoChains } from "../service/solver/twoChains.ts";

export type LoadServiceOptions = {
  /** PostgreSQL (a private cluster, say); without it the embedded database under `dataDir`. */
  databaseUrl?: string;
  dataDir?: string;
  /** Extra top-level config sections, merged over the defaults (e.g. `{solver: {...}, database: {...}}`). */
  config?: Record<string, unknown>;
  env?: Record<string, string>;
  /** A name for the log file and the config file (several replicas side by side). */
  name?: string;
};

export type LoadService = {
  url: string;
  child: ChildProcess;
  /** Everything the process wrote so far (stdout + stderr) in this run. */
  output(): string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  kill(): Promise<void>;
  /** SIGTERM and wait. */
  stop(): Promise<void>;
};

/** The service's config file for `env`'s chains (same shape as the devnet's, see ts/devnet/devnetConfig.ts). */
export function loadServiceConfig(env: TwoChains, options: LoadServiceOptions): Record<string, unknown> {
  const extra = options.config ?? {};
  return {
    server: { host: "127.0.0.1", port: 0 },
    rateLimits: { anonymousPerMinute: 10_000_000, apiKeyPerMinute: 10_000_000 },
    database: { ...(options.dataDir ? { dataDir: options.dataDir } : {}), ...(extra.database as object | undefined) },
    deploymentsDir: env.deploymentsDir,
    websocket: { pollIntervalMs: 100 },
    webhooks: { pollIntervalMs: 50, timeoutMs: 2000, leaseMs: 5000, baseDelayMs: 50, maxDelayMs: 500, ...(extra.webhooks as object | undefined) },
    solver: { pollIntervalMs: 100, ...(extra.solver as object | undefined) },
    log: { level: "info" },
    chains: env.config.chains.map((c) => ({
      id: c.id,
      name: c.name,
      displayName: c.displayName,
      rpcUrl: c.rpcUrl,
      confirmations: 1,
      nativeCurrency: { symbol: "ETH", name: "Ether", decimals: 18, usdPrice: DEVNET_USD_PRICES.eth },
      erc20Currencies: [{ address: env.stablecoin, ...DEVNET_STABLECOIN, usdPrice: DEVNET_USD_PRICES.stablecoin }],
    })),
    ...Object.fromEntries(Object.entries(extra).filter(([key]) => !["database", "webhooks", "solver"].includes(key))),
  };
}

let started = 0;

export async function startLoadService(env: TwoChains, options: LoadServiceOptions = {}): Promise<LoadService> {
  const name = options.name ?? "service";
  const configPath = join(env.dir, `${name}.json`);
  const logPath = join(env.dir, `${name}.log`);
  writeFileSync(configPath, JSON.stringify(loadServiceConfig(env, options)));
  started += 1;
  appendFileSync(logPath, `\n--- start ${started} at ${new Date().toISOString()} ---\n`);
  let output = "";
  const child = spawn(process.execPath, ["ts/service/server.ts"], {
    cwd: process.cwd(),
    env: {
      ...process.env,
      ...env.keyEnv,
      FERRY_CONFIG: configPath,
      DATABASE_URL: options.databaseUrl ?? "",
      FERRY_SOLVER_POLL_MS: "",
      FERRY_LOG_LEVEL: "",
      ...options.env,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => child.on("exit", (code, signal) => resolve({ code, signal })));
  const onData = (chunk: Buffer) => {
    const text = chunk.toString();
    output += text;
    appendFileSync(logPath, text);
  };
  child.stdout!.on("data", onData);
  child.stderr!.on("data", onData);
  const deadline = Date.now() + 60_000;
  let url: string | undefined;
  while (!(url = /listening at (http:\/\/127\.0\.0\.1:\d+)/.exec(output)?.[1])) {
    if (child.exitCode !== null || child.signalCode !== null) throw new Error(`the service exited before listening:\n${output.slice(-4000)}`);
    if (Date.now() > deadline) {
      child.kill("SIGKILL");
      throw new Error(`the service did not listen within 60 s:\n${output.slice(-4000)}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  const alive = () => child.exitCode === null && child.signalCode === null;
  return {
    url,
    child,
    output: () => output,
    exited,
    async kill() {
      if (alive()) child.kill("SIGKILL");
      await exited;
    },
    async stop() {
      if (alive()) child.kill("SIGTERM");
      await exited;
    },
  };
}

/** The lines of `name`'s log file (all runs) that mention `needle` (a requestId, a hash). */
export function serviceLogLines(env: TwoChains, needle: string, name = "service"): string[] {
  return readFileSync(join(env.dir, `${name}.log`), "utf8")
    .split("\n")
    .filter((line) => line.toLowerCase().includes(needle.toLowerCase()));
}

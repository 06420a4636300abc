/**
 * Service replicas for the end-to-end benchmark's PostgreSQL runs: `replicas` processes of
 * `node ts/service/server.ts` on one PostgreSQL database (a fresh database on the server at
 * FERRY_BENCH_DATABASE_URL, else the local one as TOOLCHAIN sets it up), all with the bench stack's
 * chains and keys (one solver key, shared, as replicas of one deployment do), each listening on its own
 * loopback port. The in-process service of the stack must be stopped first: two services with two
 * databases on the same chains would each see the other's deposits as strays.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { appendFileSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { join } from "node:path";
import pg from "pg";
import { DEVNET_USD_PRICES } from "../../ts/devnet/devnetConfig.ts";
import { DEVNET_STABLECOIN } from "../../ts/devnet/devnetStablecoin.ts";
import { apiKeyStore } from "../../ts/service/store/apiKeys.ts";
import { createStore } from "../../ts/service/store/createStore.ts";
import { BENCH_API_KEY_PER_MINUTE, type BenchStack } from "./benchStack.ts";

const DEFAULT_URLS = ["postgres://root@127.0.0.1:5432/ferry_test", "postgres://root@/ferry_test?host=/var/run/postgresql"];

/** `pids`: the replicas' processes, for the CPU meter (./cpuMeter.ts); `databaseUrl`: their database, directly. */
export type BenchReplicas = { urls: string[]; pids: number[]; apiKey: string; database: string; databaseUrl: string; close(): Promise<void> };

/**
 * Where the replicas reach their chains and database, when not directly (bench:intent-cost puts its
 * counting proxies there: ./rpcCounter.ts, ./pgCounter.ts).
 */
export type ReplicaRoutes = {
  rpcUrl?: (chainId: number) => string;
  databaseUrl?: (database: string) => string;
  /** A websocket URL per chain (heads by subscription: ../../ts/service/chains/chainHead.ts); default the stack's (Anvil's). */
  wsRpcUrl?: (chainId: number) => string | undefined;
  /** Every chain's confirmations, instead of the stack's. */
  confirmations?: number;
  /**
   * The solver's, webhook worker's and websocket hub's timed poll, ms (default 100, the devnet's); null:
   * the service's own defaults (../../ts/service/config/configSchema.ts: 1000, 500 and 250 ms).
   */
  pollIntervalMs?: number | null;
};

/** A server URL that answers, or the reasons none did. */
export async function benchPostgres(): Promise<{ url: string } | { reason: string }> {
  const reasons: string[] = [];
  for (const url of process.env.FERRY_BENCH_DATABASE_URL ? [process.env.FERRY_BENCH_DATABASE_URL] : DEFAULT_URLS) {
    const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 3000 });
    try {
      await client.connect();
      return { url };
    } catch (error) {
      reasons.push((error as Error).message);
    } finally {
      await client.end().catch(() => {});
    }
  }
  return { reason: reasons.join("; ") };
}

export async function startBenchReplicas(stack: BenchStack, serverUrl: string, replicas: number, name: string, routes: ReplicaRoutes = {}): Promise<BenchReplicas> {
  const database = `ferry_bench_${process.pid}_${name}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  await admin.query(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`);
  await admin.query(`CREATE DATABASE ${database}`);
  await admin.end();
  const databaseUrl = serverUrl.replace(/^(postgres(?:ql)?:\/\/[^/]*)\/[^?]*/, `$1/${database}`);
  const store = await createStore({ databaseUrl });
  const { key: apiKey } = await apiKeyStore(store).createApiKey("bench", BENCH_API_KEY_PER_MINUTE);
  await store.close();

  const configPath = join(stack.dir, `${name}.json`);
  writeFileSync(
    configPath,
    JSON.stringify({
      server: { host: "127.0.0.1", port: 0 },
      deploymentsDir: stack.deploymentsDir,
      ...(routes.pollIntervalMs !== null && {
        solver: { pollIntervalMs: routes.pollIntervalMs ?? 100 },
        webhooks: { pollIntervalMs: routes.pollIntervalMs ?? 100 },
        websocket: { pollIntervalMs: routes.pollIntervalMs ?? 100 },
      }),
      log: { level: "warn" },
      chains: stack.config.chains.map((c) => ({
        id: c.id,
        name: c.name,
        displayName: c.displayName,
        rpcUrl: routes.rpcUrl?.(c.id) ?? c.rpcUrl,
        ...((routes.wsRpcUrl?.(c.id) ?? c.wsRpcUrl) && { wsRpcUrl: routes.wsRpcUrl?.(c.id) ?? c.wsRpcUrl }),
        ...(c.expectedBlockTimeSeconds !== undefined && { expectedBlockTimeSeconds: c.expectedBlockTimeSeconds }),
        confirmations: routes.confirmations ?? c.confirmations,
        nativeCurrency: { symbol: "ETH", name: "Ether", decimals: 18, usdPrice: DEVNET_USD_PRICES.eth },
        erc20Currencies: [{ address: stack.stablecoin, ...DEVNET_STABLECOIN, usdPrice: DEVNET_USD_PRICES.stablecoin }],
      })),
    }),
  );
  const children: ChildProcess[] = [];
  const urls: string[] = [];
  try {
    for (let i = 0; i < replicas; i++) {
      let output = "";
      // Each replica gets a free port of its own (FERRY_PORT) and is up once /health answers: at log level
      // warn it prints no "listening" line, and a replica indexing a busy chain logs plenty besides.
      const port = await freePort();
      const url = `http://127.0.0.1:${port}`;
      // FERRY_BENCH_CPU_PROFILE_DIR: each replica writes a V8 CPU profile there when it exits (where its CPU goes).
      const profileDir = process.env.FERRY_BENCH_CPU_PROFILE_DIR;
      const child = spawn(process.execPath, [...(profileDir ? ["--cpu-prof", `--cpu-prof-dir=${profileDir}`] : []), "ts/service/server.ts"], {
        cwd: process.cwd(),
        env: { ...process.env, ...stack.serviceEnv, FERRY_CONFIG: configPath, DATABASE_URL: routes.databaseUrl?.(database) ?? databaseUrl, FERRY_PORT: String(port), FERRY_LOG_LEVEL: "", FERRY_SOLVER_POLL_MS: "" },
        stdio: ["ignore", "pipe", "pipe"],
      });
      children.push(child);
      // FERRY_BENCH_LOG_DIR: each replica's output (warnings and errors) kept whole in a file there.
      const logDir = process.env.FERRY_BENCH_LOG_DIR;
      const logFile = logDir ? join(logDir, `${name}-replica-${i}.log`) : undefined;
      const onData = (chunk: Buffer) => {
        output = (output + chunk.toString()).slice(-20_000);
        if (logFile) appendFileSync(logFile, chunk);
      };
      child.stdout!.on("data", onData);
      child.stderr!.on("data", onData);
      const deadline = Date.now() + 180_000;
      while (!(await answers(`${url}/health`))) {
        if (child.exitCode !== null || Date.now() > deadline) throw new Error(`replica ${i} did not start:\n${output.slice(-3000)}`);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      urls.push(url);
    }
  } catch (error) {
    for (const child of children) child.kill("SIGKILL");
    throw error;
  }
  return {
    urls,
    pids: children.map((child) => child.pid!),
    apiKey,
    database,
    databaseUrl,
    async close() {
      await Promise.all(
        children.map(
          (child) =>
            new Promise<void>((resolve) => {
              if (child.exitCode !== null) return resolve();
              child.once("exit", () => resolve());
              child.kill("SIGTERM");
            }),
        ),
      );
      const cleanup = new pg.Client({ connectionString: serverUrl });
      await cleanup.connect();
      await cleanup.query(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`);
      await cleanup.end();
    },
  };
}

/** A port nothing listens on now (the OS's pick for port 0 on loopback). */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      server.close(() => (typeof address === "object" && address ? resolve(address.port) : reject(new Error("no port"))));
    });
  });
}

async function answers(url: string): Promise<boolean> {
  try {
    return (await fetch(url, { signal: AbortSignal.timeout(1_000) })).ok;
  } catch {
    return false;
  }
}

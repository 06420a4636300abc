// `npm run bench:intent-cost`: what one intent costs the service — RPC calls, store queries and CPU
// (service, PostgreSQL, chains + users separately) per intent — at FERRY_BENCH_USERS (200) users at
// once on PostgreSQL, one replica then two; exits 1 over the budgets (issue 26), like bench:gas for gas.
//
// What runs: the devnet's two EDR chains in this process (scripts/bench/benchStack.ts), the service as
// separate processes on a fresh PostgreSQL database (scripts/bench/benchReplicas.ts), the users in a
// worker thread (scripts/bench/intentPhase.ts: quote → deposit → status polled every
// FERRY_BENCH_USERS_POLL_MS until `success`). How it counts, from outside the service:
//  - RPC calls: a counting JSON-RPC proxy in front of each chain (scripts/bench/rpcCounter.ts); the
//    replicas' RPC URLs point at it; a batch counts each entry.
//  - store queries: a counting proxy in front of PostgreSQL (scripts/bench/pgCounter.ts) reading the
//    wire protocol; every statement the server runs for the replicas counts, BEGIN and COMMIT included.
//  - CPU: /proc (scripts/bench/cpuMeter.ts): the replicas, the PostgreSQL backends of the run's own
//    database (the server is shared with other work; its background writers are not counted), and this
//    process (chains, users and both proxies).
// "Per intent" is everything the service does between the first quote and the last repayment
// confirmed, divided by the intents: the quote, indexing the deposit, the fill and its confirmation,
// the repayment and its confirmation, and the background loops (chain watch, indexer, work list) that
// run meanwhile. The users' status polls are the users' cost, not the intent's: the store statements
// they issued are counted by the service (`ferry_status_store_reads_total`, read from each replica's
// /metrics before and after the run) and taken off exactly; for RPC calls and CPU, a poll-only phase
// after the run measures what one status poll costs, and that times the polls made is taken off (both
// figures are printed).
// Exactly once: each intent's requestId has exactly one `Filled` on the destination chain and its
// repayment is confirmed.
//
//   FERRY_BENCH_USERS (200)  FERRY_BENCH_USER_INTENTS (2)  FERRY_BENCH_USERS_POLL_MS (1000)
//   FERRY_BENCH_POLL_PROBES (1000: status polls of the poll-only phase)  FERRY_BENCH_REPLICAS (2: 1 skips the second run)
//   FERRY_BENCH_POLL_MS (100: the solver's, webhook worker's and websocket hub's timed polls, as on the
//     devnet; "default": the service's own defaults, printed in the header. Each loop is also woken at
//     once by status changes and new heads)
//   FERRY_BENCH_CPU_PROFILE_DIR (a folder: each replica writes its V8 CPU profile there when it exits)
//   FERRY_BENCH_LOG_DIR (a folder: each replica's output, its warnings and errors, in a file there)
//
// Latency in blocks (issue 26 item 5): with FERRY_DEVNET_BLOCK_TIME (and FERRY_DEVNET_NODE=anvil, whose
// websocket URL the service is given as wsRpcUrl), the chains mine every that many seconds and the bench
// also prints, per run, deposit block → fill block in blocks beyond the confirmations
// (FERRY_BENCH_CONFIRMATIONS, default the devnet's), p50 and p99; budgets p50 ≤ 1, p99 ≤ 2. How the
// blocks are timed (on this machine's clock, not the chains'): scripts/bench/blockLatency.ts.
import hre from "hardhat";
import { availableParallelism } from "node:os";
import { parseEther, type Hex } from "viem";
import pg from "pg";
import { parseDevnetNode } from "../ts/devnet/devnetNode.ts";
import { CONFIG_DEFAULTS } from "../ts/service/config/configSchema.ts";
import { intFromEnv, machineLine, ms, table } from "./bench/benchEnv.ts";
import { benchConfirmations, blockLatencyReport, blocksToFill, fillsSince, startBlockClock, statusTimes, type BlockLatency, type Fill } from "./bench/blockLatency.ts";
import { startCpuMeter, type CpuSpent } from "./bench/cpuMeter.ts";
import { startPgCounter } from "./bench/pgCounter.ts";
import { startRpcCounter, type RpcCounter } from "./bench/rpcCounter.ts";
import { nameSelector } from "./bench/selectorNames.ts";

const USERS = intFromEnv("FERRY_BENCH_USERS", 200);
const USER_INTENTS = intFromEnv("FERRY_BENCH_USER_INTENTS", 2);
const USERS_POLL_MS = intFromEnv("FERRY_BENCH_USERS_POLL_MS", 1000);
const POLL_PROBES = intFromEnv("FERRY_BENCH_POLL_PROBES", 1000);
const REPLICAS = intFromEnv("FERRY_BENCH_REPLICAS", 2);
/** The service's timed polls (solver, webhooks, websocket), ms: unset 100 (the devnet's); "default": the service's own defaults. */
const POLL_MS = process.env.FERRY_BENCH_POLL_MS === "default" ? undefined : intFromEnv("FERRY_BENCH_POLL_MS", 100);
const NODE = parseDevnetNode(process.env);
const CONFIRMATIONS = benchConfirmations(process.env);
const INTENT_TIMEOUT_MS = 300_000;
const REPAYMENT_TIMEOUT_MS = 300_000;

/** Issue 26's targets per intent at 200 users on PostgreSQL, and for two replicas against one. */
const INTENT_COST_BUDGETS = { rpcCalls: 12, storeQueries: 15, serviceDatabaseCpuMs: 15, replicaRatio: 1.1 } as const;

const log = (line: string) => process.stdout.write(`${line}\n`);
log("bench:intent-cost — RPC calls, store queries and CPU per native intent, the service on PostgreSQL");
log(machineLine());
log(
  `${USERS} users × ${USER_INTENTS} native intents at once, status polled every ${USERS_POLL_MS} ms; replicas: 1${REPLICAS > 1 ? " then 2" : ""}; ` +
    `chains: ${NODE.kind}, ${NODE.blockTimeSeconds ? `a block every ${NODE.blockTimeSeconds} s` : "a block per transaction"}${CONFIRMATIONS !== undefined ? `, confirmations ${CONFIRMATIONS}` : ""}; ` +
    `service polls: ${POLL_MS !== undefined ? `every ${POLL_MS} ms` : `its defaults (solver ${CONFIG_DEFAULTS.solver.pollIntervalMs} ms, webhooks ${CONFIG_DEFAULTS.webhooks.pollIntervalMs}, websocket ${CONFIG_DEFAULTS.websocket.pollIntervalMs})`}`,
);

await hre.tasks.getTask("build").run({ quiet: true });
const { startBenchStack } = await import("./bench/benchStack.ts");
const { runIntentPhase } = await import("./bench/intentPhase.ts");
const { benchPostgres, startBenchReplicas } = await import("./bench/benchReplicas.ts");
const { generatePrivateKey, privateKeyToAccount } = await import("viem/accounts");

const postgres = await benchPostgres();
if ("reason" in postgres) {
  process.stderr.write(`bench:intent-cost needs PostgreSQL (FERRY_BENCH_DATABASE_URL, else the local server): ${postgres.reason}\n`);
  process.exit(1);
}

type RunCost = {
  label: string;
  intents: number;
  polls: number;
  /** The store statements the status polls themselves issued (the replicas' `ferry_status_store_reads_total` over the run). */
  pollQueries: number;
  rpc: Map<string, number>;
  /** eth_call / eth_estimateGas by the function called (../scripts/bench/rpcCounter.ts `contractCalls`). */
  contractCalls: Map<string, number>;
  queries: Map<string, number>;
  cpu: CpuSpent;
  wallMs: number;
  exactlyOnce: string | null;
  /** Deposit block → fill block, in blocks beyond the confirmations (interval mining only). */
  blocks: BlockLatency | null;
};
type PollCost = { rpc: number; queries: number; serviceMs: number; postgresMs: number };

const sum = (counts: Map<string, number>) => [...counts.values()].reduce((a, b) => a + b, 0);
const merge = (maps: Map<string, number>[]) => {
  const out = new Map<string, number>();
  for (const m of maps) for (const [k, v] of m) out.set(k, (out.get(k) ?? 0) + v);
  return out;
};

const stack = await startBenchStack({ network: hre.network, node: NODE, log: (line) => log(`  ${line}`) });
// The service runs as processes of its own on PostgreSQL: the stack's in-process one must not watch the chains.
await stack.server.close();
const counters = new Map<number, RpcCounter>();
for (const chain of stack.chains) counters.set(chain.chainId, await startRpcCounter(chain.rpcUrl));
const pgCounter = await startPgCounter(postgres.url);
const [origin, destination] = stack.chains;
const route = { originChainId: origin!.chainId, destinationChainId: destination!.chainId, amount: parseEther("0.01").toString() };
const resetCounts = () => {
  for (const counter of counters.values()) counter.reset();
  pgCounter.reset();
};
const contractCalls = () =>
  merge([...counters.entries()].map(([chainId, c]) => new Map([...c.contractCalls()].map(([call, n]) => [`${nameSelector(call)} @${chainId}`, n]))));
const rpcCounts = () => merge([...counters.entries()].map(([chainId, c]) => new Map([...c.counts()].map(([method, n]) => [`${method} @${chainId}`, n]))));

let failed = false;
const runs: Array<{ run: RunCost; poll: PollCost }> = [];
try {
  const fresh = async (count: number): Promise<Hex[]> => {
    const keys = Array.from({ length: count }, () => generatePrivateKey());
    for (const key of keys) await origin!.testClient.setBalance({ address: privateKeyToAccount(key).address, value: parseEther("1000") });
    return keys;
  };
  for (const replicas of REPLICAS > 1 ? [1, 2] : [1]) {
    const label = `PostgreSQL, ${replicas} replica${replicas > 1 ? "s" : ""}`;
    const users = await fresh(USERS);
    const service = await startBenchReplicas(stack, postgres.url, replicas, `cost${replicas}`, {
      rpcUrl: (chainId) => counters.get(chainId)!.url,
      databaseUrl: (database) => pgCounter.urlFor(database),
      ...(CONFIRMATIONS !== undefined && { confirmations: CONFIRMATIONS }),
      pollIntervalMs: POLL_MS ?? null,
    });
    try {
      // Startup reads (migrations, the first head and inventory reads) are not an intent's: let them settle.
      await new Promise((resolve) => setTimeout(resolve, 2_000));
      log(`  ${label}: ${USERS * USER_INTENTS} intents from ${USERS} users…`);
      const fromBlock = await destination!.publicClient.getBlockNumber();
      // Read before the counts are reset: GET /metrics reads the store too.
      const pollQueriesBefore = await statusStoreReads(service.urls);
      resetCounts();
      const started = Date.now();
      const clock = NODE.blockTimeSeconds ? startBlockClock(stack.chains) : null;
      const meter = startCpuMeter(service.pids.map((pid, i) => ({ label: `replica ${i}`, pid })).concat([{ label: "host", pid: process.pid }]), { postgresDatabase: service.database });
      const result = await runIntentPhase({
        apiUrl: service.urls[0]!,
        apiUrls: service.urls,
        apiKey: service.apiKey,
        chains: stack.chains.map((chain) => ({ chainId: chain.chainId, rpcUrl: chain.rpcUrl })),
        users,
        count: USERS * USER_INTENTS,
        route,
        pollMs: USERS_POLL_MS,
        timeoutMs: INTENT_TIMEOUT_MS,
      });
      const ids = result.timings.map((t) => t.requestId);
      await waitForRepayments(service.databaseUrl, ids);
      const cpu = meter.stop();
      const queries = pgCounter.counts();
      const pollQueries = (await statusStoreReads(service.urls)) - pollQueriesBefore;
      clock?.stop();
      const fills = await fillsSince(destination!.publicClient, fromBlock);
      const stages = clock ? await withDatabase(service.databaseUrl, (client) => statusTimes((sql, params) => client.query(sql, params), ids)) : undefined;
      const run: RunCost = {
        label,
        intents: ids.length,
        polls: result.timings.reduce((n, t) => n + t.polls, 0),
        pollQueries,
        rpc: rpcCounts(),
        contractCalls: contractCalls(),
        queries,
        cpu,
        wallMs: Date.now() - started,
        exactlyOnce: exactlyOnce(fills, ids),
        blocks:
          clock && NODE.blockTimeSeconds
            ? blocksToFill({
                intents: result.timings,
                fills,
                clock,
                originChainId: origin!.chainId,
                destinationChainId: destination!.chainId,
                blockTimeSeconds: NODE.blockTimeSeconds,
                confirmations: CONFIRMATIONS ?? stack.config.chains[0]!.confirmations,
                ...(stages && { stages }),
              })
            : null,
      };
      const poll = await measurePolls(service.urls, service.apiKey, service.pids, service.database, ids);
      runs.push({ run, poll });
    } finally {
      await service.close();
    }
  }
  failed = report(runs);
} catch (error) {
  failed = true;
  process.stderr.write(`bench:intent-cost: ${(error as Error).stack ?? error}\n`);
} finally {
  for (const counter of counters.values()) await counter.close();
  await pgCounter.close();
  await stack.close();
}
process.exit(failed ? 1 : 0);

/** `use` with a client of the replicas' database, directly (not through the counting proxy). */
async function withDatabase<T>(databaseUrl: string, use: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    return await use(client);
  } finally {
    await client.end();
  }
}

/** Until every request's repayment is confirmed (read directly, not through the counting proxy). */
async function waitForRepayments(databaseUrl: string, ids: string[]): Promise<void> {
  await withDatabase(databaseUrl, async (client) => {
    const deadline = Date.now() + REPAYMENT_TIMEOUT_MS;
    for (;;) {
      const { rows } = await client.query<{ n: string }>(
        `SELECT count(*) AS n FROM requests WHERE id = ANY($1::text[]) AND solver_state->'repayment'->>'status' = 'confirmed'`,
        [ids],
      );
      if (Number(rows[0]!.n) === ids.length) return;
      if (Date.now() > deadline) throw new Error(`${ids.length - Number(rows[0]!.n)} repayments not confirmed after ${REPAYMENT_TIMEOUT_MS} ms`);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  });
}

/**
 * The store statements the status route has issued so far, summed over the replicas: each replica counts
 * those of its status cache's misses (`ferry_status_store_reads_total`, ../ts/service/http/statusRecordCache.ts).
 */
async function statusStoreReads(urls: string[]): Promise<number> {
  let total = 0;
  for (const url of urls) {
    const text = await (await fetch(`${url}/metrics`)).text();
    const value = /^ferry_status_store_reads_total (\d+)/m.exec(text)?.[1];
    if (value === undefined) throw new Error(`${url}/metrics has no ferry_status_store_reads_total`);
    total += Number(value);
  }
  return total;
}

/** null when every request has exactly one fill and no other request was filled; else what is wrong. */
function exactlyOnce(fills: Fill[], ids: string[]): string | null {
  const count = new Map<string, number>();
  for (const fill of fills) count.set(fill.requestId, (count.get(fill.requestId) ?? 0) + 1);
  const wanted = new Set(ids.map((id) => id.toLowerCase()));
  const wrong = [...wanted].filter((id) => count.get(id) !== 1);
  const extra = [...count.keys()].filter((id) => !wanted.has(id));
  if (wrong.length === 0 && extra.length === 0) return null;
  return `${wrong.length} requests not filled exactly once (e.g. ${wrong[0] ?? "-"}: ${count.get(wrong[0] ?? "") ?? 0}), ${extra.length} fills of other requests`;
}

/** What one status poll costs the service and PostgreSQL: POLL_PROBES polls of finished requests, 10 at a time, after the run. */
async function measurePolls(urls: string[], apiKey: string, pids: number[], database: string, ids: string[]): Promise<PollCost> {
  await new Promise((resolve) => setTimeout(resolve, 1_000));
  resetCounts();
  const meter = startCpuMeter(pids.map((pid, i) => ({ label: `replica ${i}`, pid })), { postgresDatabase: database });
  let next = 0;
  await Promise.all(
    Array.from({ length: 10 }, async () => {
      while (next < POLL_PROBES) {
        const i = next++;
        const answer = await fetch(`${urls[i % urls.length]}/intents/status/v3?requestId=${ids[i % ids.length]}`, { headers: { "x-api-key": apiKey } });
        await answer.arrayBuffer();
      }
    }),
  );
  const cpu = meter.stop();
  // The background loops ran meanwhile too: their cost over the same time is counted in, so the per-poll figure is an upper bound.
  return {
    rpc: sum(rpcCounts()) / POLL_PROBES,
    queries: sum(pgCounter.counts()) / POLL_PROBES,
    serviceMs: cpu.byProcess.reduce((n, p) => n + p.ms, 0) / POLL_PROBES,
    postgresMs: (cpu.postgresMs ?? 0) / POLL_PROBES,
  };
}

/** Prints the tables; true when a budget is exceeded or an intent was not done exactly once. */
function report(measured: Array<{ run: RunCost; poll: PollCost }>): boolean {
  const cores = availableParallelism();
  const figures = measured.map(({ run, poll }) => {
    const n = run.intents;
    const host = run.cpu.byProcess.find((p) => p.label === "host")?.ms ?? Number.NaN;
    const serviceRaw = run.cpu.byProcess.filter((p) => p.label !== "host").reduce((a, p) => a + p.ms, 0);
    const postgresRaw = run.cpu.postgresMs ?? Number.NaN;
    const pollsPerIntent = run.polls / n;
    const rpc = Math.max(0, sum(run.rpc) / n - pollsPerIntent * poll.rpc);
    // The polls' own statements, as the service counted them — not polls × the poll phase's cost: that
    // phase polls finished requests once each (every poll a cache miss, 1 statement), while during the
    // run a poll is a hit, or a miss of 1 (the request) or 2 (a quote not deposited yet) statements.
    const queries = Math.max(0, sum(run.queries) / n - run.pollQueries / n);
    const queriesByPollPhase = Math.max(0, sum(run.queries) / n - pollsPerIntent * poll.queries);
    const service = Math.max(0, serviceRaw / n - pollsPerIntent * poll.serviceMs);
    const database = Math.max(0, postgresRaw / n - pollsPerIntent * poll.postgresMs);
    return { run, poll, n, host: host / n, service, database, rpc, queries, queriesByPollPhase, pollsPerIntent, rawRpc: sum(run.rpc) / n, rawQueries: sum(run.queries) / n, rawService: serviceRaw / n, rawDatabase: postgresRaw / n };
  });
  const over: string[] = [];
  const mark = (value: number, budget: number, what: string, label: string) => {
    if (!(value <= budget)) over.push(`${label}: ${what} ${value.toFixed(1)} > ${budget}`);
    return `${value.toFixed(1)} ${value <= budget ? "✓" : "✗"}`;
  };
  log("");
  log(`per intent (status polls taken off; with them in brackets), budgets: ≤ ${INTENT_COST_BUDGETS.rpcCalls} RPC calls, ≤ ${INTENT_COST_BUDGETS.storeQueries} store queries, ≤ ${INTENT_COST_BUDGETS.serviceDatabaseCpuMs} ms service + database CPU`);
  log(
    table(
      ["run", "intents", "RPC calls", "store queries", "service ms", "PostgreSQL ms", "service + db ms", "chains + users ms", "polls/intent", "busy", "exactly once"],
      figures.map((f) => [
        f.run.label,
        String(f.n),
        `${mark(f.rpc, INTENT_COST_BUDGETS.rpcCalls, "RPC calls", f.run.label)} (${f.rawRpc.toFixed(1)})`,
        `${mark(f.queries, INTENT_COST_BUDGETS.storeQueries, "store queries", f.run.label)} (${f.rawQueries.toFixed(1)})`,
        `${ms(f.service)} (${ms(f.rawService)})`,
        `${ms(f.database)} (${ms(f.rawDatabase)})`,
        mark(f.service + f.database, INTENT_COST_BUDGETS.serviceDatabaseCpuMs, "service + database CPU ms", f.run.label),
        ms(f.host),
        f.pollsPerIntent.toFixed(1),
        `${((100 * (f.host * f.n + f.rawService * f.n + f.rawDatabase * f.n)) / (cores * f.run.wallMs)).toFixed(0)}%`,
        f.run.exactlyOnce === null ? "yes" : `NO: ${f.run.exactlyOnce}`,
      ]),
    ),
  );
  for (const f of figures) if (f.run.exactlyOnce !== null) over.push(`${f.run.label}: ${f.run.exactlyOnce}`);
  if (NODE.blockTimeSeconds) {
    const blocks = blockLatencyReport(
      NODE.blockTimeSeconds,
      figures.flatMap((f) => (f.run.blocks ? [{ label: f.run.label, latency: f.run.blocks }] : [])),
    );
    log("");
    log(blocks.text);
    over.push(...blocks.over);
  }
  log("");
  log("store queries of the status polls themselves (counted by the service: ferry_status_store_reads_total), per intent and per poll; the figure above takes these off");
  log(
    table(
      ["run", "poll queries per intent", "per poll", "store queries with polls × the poll phase's cost taken off instead"],
      figures.map((f) => [f.run.label, (f.run.pollQueries / f.n).toFixed(2), (f.run.pollQueries / Math.max(1, f.run.polls)).toFixed(2), f.queriesByPollPhase.toFixed(1)]),
    ),
  );
  log("");
  log("one status poll (measured after each run, 10 at a time): RPC calls, store queries, service ms, PostgreSQL ms");
  log(table(["run", "RPC", "queries", "service ms", "PostgreSQL ms"], figures.map((f) => [f.run.label, f.poll.rpc.toFixed(2), f.poll.queries.toFixed(2), ms(f.poll.serviceMs), ms(f.poll.postgresMs)])));
  for (const f of figures) {
    log("");
    log(`where it goes, ${f.run.label} — per intent, polls included:`);
    const rows = (counts: Map<string, number>) =>
      [...counts.entries()]
        .sort((a, b) => b[1] - a[1])
        .filter(([, v]) => v / f.n >= 0.05)
        .map(([k, v]) => [k, (v / f.n).toFixed(2)]);
    log(table(["RPC method @chain", "calls"], rows(f.run.rpc)));
    log(table(["calls in detail @chain", "calls"], rows(f.run.contractCalls)));
    log(table(["statement", "count"], rows(f.run.queries)));
  }
  if (figures.length === 2) {
    const [one, two] = figures as [(typeof figures)[0], (typeof figures)[0]];
    const cpuRatio = (two.service + two.database) / (one.service + one.database);
    const queryRatio = two.queries / one.queries;
    log("");
    log(
      `2 replicas ÷ 1: service + database CPU ${cpuRatio.toFixed(2)}× ${cpuRatio <= INTENT_COST_BUDGETS.replicaRatio ? "✓" : "✗"}, store queries ${queryRatio.toFixed(2)}× ${queryRatio <= INTENT_COST_BUDGETS.replicaRatio ? "✓" : "✗"} (budget ≤ ${INTENT_COST_BUDGETS.replicaRatio}×)`,
    );
    if (!(cpuRatio <= INTENT_COST_BUDGETS.replicaRatio)) over.push(`2 replicas ÷ 1 CPU ${cpuRatio.toFixed(2)}×`);
    if (!(queryRatio <= INTENT_COST_BUDGETS.replicaRatio)) over.push(`2 replicas ÷ 1 queries ${queryRatio.toFixed(2)}×`);
  }
  log("");
  log(over.length === 0 ? "every budget met" : `OVER BUDGET:\n  ${over.join("\n  ")}`);
  return over.length > 0;
}

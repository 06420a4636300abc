// `npm run bench:api`: HTTP throughput and latency of the service's hot read and quote routes,
// against GET /health on the same server in the same run as the baseline (these machines are noisy:
// read the ratios, not the absolute figures).
//
// Targets (issue 12, item 7): the status route's throughput ≥ 0.5× /health's in the same run, and its
// p99 < 10 ms at saturation. The status route is served from the status cache
// (ts/service/http/statusRecordCache.ts); the seeded rows were written before the load starts, so the
// load measures hits after the first read of each id (the warm-up reads every id at least once).
//
// What runs: the devnet's two EDR chains on free loopback ports with Ferry and fUSD deployed, the
// service (startServer, solver off, embedded PGlite in a temp folder) seeded with FERRY_BENCH_REQUESTS
// requests in mixed statuses, loaded on 127.0.0.1 from a worker thread (so the load generator does not
// share the service's event loop), each route for a fixed duration at a fixed number of connections
// (autocannon, closed loop) after a warm-up. The status route runs a second time open loop, evenly
// paced at FERRY_BENCH_STATUS_RATE req/s (scripts/bench/pacedLoad.ts): the latency a client sees
// below saturation, where the closed-loop row shows the latency at saturation.
//
// Rate limits: every request carries an API key created for the bench with its own per-key limit
// (BENCH_API_KEY_PER_MINUTE, 10^9/min). /health carries it too, so the baseline pays the same key
// lookup as the measured routes. The config's anonymous limit is raised to the same figure for the one
// informative row without a key (what the key lookup costs); the per-key default is left as is.
//
// POST /execute (issue 22): each call relays a real transaction from the devnet relayer key (a rawCalls
// call to a fresh address: simulated, held on the app balance, signed, recorded with its request,
// broadcast), so it is measured one call at a time (FERRY_BENCH_EXECUTIONS calls, each a new execution),
// not under closed-loop load: req/s is 1 ÷ the mean latency and its ratio is to the native-bridge quote's
// p50 (the route it stands beside), not to /health. The app is funded by a ledger credit seeded before
// the load, as the status rows are (the bench runs no indexer). Not a target: reported.
//
// The quote route (issue 26, item 4): a native bridge, an ERC-20 (fUSD) bridge and both swaps, each with
// its p50/p99, quotes/s, the ratios to /health of the same run and the service's RPC calls per quote
// and its service-thread CPU ms (each over the requests answered during the row, warm-up included; the
// chain watch's ticks included). CPU ms per request is the figure that other jobs on the machine do not
// shrink: 1000 ÷ it is the requests/s one core could carry. Budgets (./bench/quoteBudgets.ts, ratios to the same run) fail the
// bench when over: a bridge quote's req/s ≥ 0.05 × /health's and its p50 ≤ 25 × /health's; each
// swap's p50 ≤ 2 × the native bridge's.
//
// Exits 1 if any request errored or answered non-2xx, or a quote budget is over.
//
//   FERRY_BENCH_REQUESTS (1000)  FERRY_BENCH_CONNECTIONS (10)  FERRY_BENCH_DURATION (5 s)  FERRY_BENCH_WARMUP (2 s)
//   FERRY_BENCH_EXECUTIONS (30)  FERRY_BENCH_STATUS_RATE (200 req/s)  FERRY_BENCH_ROUNDS (3: baseline and status alternate, each DURATION s a round)
//   FERRY_BENCH_PROFILE (a folder: each quote row's CPU profile of the service's thread — service and
//   chains, not the load — is written there as <row>.cpuprofile, for `node --cpu-prof`-style tools)
//   FERRY_BENCH_STATUS_CACHE (on; "off" = server.statusCacheRefreshMs 0: every status
//   read queries the database, the route as it was before the cache — for a before/after in the same conditions)
import hre from "hardhat";
import { randomBytes } from "node:crypto";
import { loadavg } from "node:os";
import { Session } from "node:inspector/promises";
import { mkdir, writeFile } from "node:fs/promises";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { intFromEnv, machineLine, ms, table } from "./bench/benchEnv.ts";
import type { LoadResult } from "./bench/loadTypes.ts";
import { runLoad } from "./bench/runLoad.ts";
import { benchRequest } from "./bench/benchRequest.ts";
import { canonicalAddress, canonicalHex } from "../ts/service/model/values.ts";
import { apiKeyStore } from "../ts/service/store/apiKeys.ts";
import { quoteVerdicts, type QuoteRow } from "./bench/quoteBudgets.ts";

const SEEDED = intFromEnv("FERRY_BENCH_REQUESTS", 1_000);
const CONNECTIONS = intFromEnv("FERRY_BENCH_CONNECTIONS", 10);
const DURATION = intFromEnv("FERRY_BENCH_DURATION", 5);
const WARMUP = intFromEnv("FERRY_BENCH_WARMUP", 2);
/** The status route's targets at saturation (closed loop): p99, and throughput as a share of /health's in the same run. */
const STATUS_P99_TARGET_MS = 10;
const STATUS_RATIO_TARGET = 0.5;
/** A second, open-loop status run at this fixed rate: the p99 a client sees below saturation. */
const STATUS_RATE = intFromEnv("FERRY_BENCH_STATUS_RATE", 200);
const STATUS_CACHE = process.env.FERRY_BENCH_STATUS_CACHE !== "off";
/** POST /execute calls measured, one at a time. */
const EXECUTIONS = intFromEnv("FERRY_BENCH_EXECUTIONS", 30);
/** Rounds of baseline-then-status, alternated. */
const ROUNDS = intFromEnv("FERRY_BENCH_ROUNDS", 3);
const PROFILE_DIR = process.env.FERRY_BENCH_PROFILE || undefined;

/** Runs `fn` under the V8 CPU profiler of this thread when FERRY_BENCH_PROFILE names a folder, writing `<name>.cpuprofile` there. */
async function profiled<T>(name: string, fn: () => Promise<T>): Promise<T> {
  if (!PROFILE_DIR) return fn();
  const session = new Session();
  session.connect();
  await session.post("Profiler.enable");
  await session.post("Profiler.start");
  try {
    return await fn();
  } finally {
    const { profile } = await session.post("Profiler.stop");
    session.disconnect();
    await mkdir(PROFILE_DIR, { recursive: true });
    await writeFile(join(PROFILE_DIR, `${name.replace(/[^a-z0-9]+/gi, "-").replace(/^-|-$/g, "")}.cpuprofile`), JSON.stringify(profile));
  }
}

/** Several runs of one route as one row: totals over the total time; the median run's p50 and p99. */
function combine(runs: readonly LoadResult[]): LoadResult {
  const sum = (pick: (r: LoadResult) => number) => runs.reduce((total, r) => total + pick(r), 0);
  const median = (pick: (r: LoadResult) => number) => [...runs.map(pick)].sort((a, b) => a - b)[Math.floor(runs.length / 2)]!;
  const statusCodes: Record<string, number> = {};
  for (const run of runs) for (const [code, n] of Object.entries(run.statusCodes)) statusCodes[code] = (statusCodes[code] ?? 0) + n;
  const durationSeconds = sum((r) => r.durationSeconds);
  return {
    durationSeconds,
    completed: sum((r) => r.completed),
    requestsPerSecond: sum((r) => r.completed) / durationSeconds,
    p50Ms: median((r) => r.p50Ms),
    p99Ms: median((r) => r.p99Ms),
    errors: sum((r) => r.errors),
    timeouts: sum((r) => r.timeouts),
    non2xx: sum((r) => r.non2xx),
    statusCodes,
  };
}

/** A counter's total over all its labels in a Prometheus text exposition. */
const counterTotal = (text: string, name: string) =>
  text
    .split("\n")
    .filter((line) => line.startsWith(`${name}{`))
    .reduce((total, line) => total + Number(line.slice(line.lastIndexOf(" ") + 1)), 0);

/**
 * CPU time (ms) of this process's main thread so far: the service and the chains' JSON-RPC side, not
 * the load (a worker) nor EDR's own threads. /proc/self/task/<pid>/stat utime + stime, in clock ticks
 * of 10 ms (USER_HZ 100). Unlike req/s, it does not shrink when other jobs take the cores.
 */
function mainThreadCpuMs(): number {
  const stat = readFileSync(`/proc/self/task/${process.pid}/stat`, "utf8");
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

/** Per answered request while `fn` ran (warm-up included): the service thread's CPU ms and its RPC calls (/metrics: ferry_http_requests_total, ferry_rpc_requests_total). */
type Cost = { cpuMs: number; rpcCalls: number; requests: number };
async function costOf<T>(url: string, fn: () => Promise<T>): Promise<{ result: T; cost: Cost }> {
  const sample = async () => {
    const text = await (await fetch(`${url}/metrics`)).text();
    return { cpuMs: mainThreadCpuMs(), rpcCalls: counterTotal(text, "ferry_rpc_requests_total"), requests: counterTotal(text, "ferry_http_requests_total") };
  };
  const before = await sample();
  const result = await fn();
  const after = await sample();
  // The /metrics request of `before` is counted in `after`: not one of the measured requests.
  const requests = Math.max(1, after.requests - before.requests - 1);
  return { result, cost: { cpuMs: (after.cpuMs - before.cpuMs) / requests, rpcCalls: (after.rpcCalls - before.rpcCalls) / requests, requests } };
}
/** Several measured runs of one route as one cost: the totals over the total requests. */
const combinedCost = (costs: readonly Cost[]): Cost => {
  const requests = costs.reduce((n, c) => n + c.requests, 0);
  return {
    cpuMs: costs.reduce((t, c) => t + c.cpuMs * c.requests, 0) / requests,
    rpcCalls: costs.reduce((t, c) => t + c.rpcCalls * c.requests, 0) / requests,
    requests,
  };
};

/** `count` POST /execute calls one after another, each to a fresh address (a new execution, a new transaction), as one row. */
async function sequentialExecutions(url: string, headers: Record<string, string>, chainId: number, count: number): Promise<LoadResult> {
  const latencies: number[] = [];
  const statusCodes: Record<string, number> = {};
  let errors = 0;
  const started = performance.now();
  for (let i = 0; i < count; i++) {
    const body = JSON.stringify({ executionKind: "rawCalls", data: { chainId, to: `0x${randomBytes(20).toString("hex")}`, data: "0x", value: "0" } });
    const at = performance.now();
    try {
      const response = await fetch(`${url}/execute`, { method: "POST", headers, body });
      await response.arrayBuffer();
      statusCodes[String(response.status)] = (statusCodes[String(response.status)] ?? 0) + 1;
    } catch {
      errors += 1;
    }
    latencies.push(performance.now() - at);
  }
  const durationSeconds = (performance.now() - started) / 1000;
  const sorted = [...latencies].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
  const non2xx = Object.entries(statusCodes).reduce((n, [code, k]) => (code.startsWith("2") ? n : n + k), 0);
  return { durationSeconds, completed: count - errors, requestsPerSecond: (count - errors) / durationSeconds, p50Ms: at(0.5), p99Ms: at(0.99), errors, timeouts: 0, non2xx, statusCodes };
}

const log = (line: string) => process.stdout.write(`${line}\n`);
const hex32 = () => canonicalHex(`0x${randomBytes(32).toString("hex")}`);

log("bench:api — requests/s and latency of GET /intents/status/v3, POST /quote/v2 (bridge, swaps) and POST /execute (relayed), baseline GET /health (same server, same run)");
log(machineLine());
// These machines are shared: the load average says how much else ran (read the ratios, not the figures).
const loadLine = () => `load average ${loadavg().map((l) => l.toFixed(2)).join(" / ")} (1 / 5 / 15 min)`;
log(`before: ${loadLine()}`);
log(
  `status cache: ${STATUS_CACHE ? "on" : "OFF (FERRY_BENCH_STATUS_CACHE=off)"}; ` +
    `load: from a worker thread, ${CONNECTIONS} connections (autocannon, closed loop; one paced open-loop row), ${WARMUP} s warm-up + ${DURATION} s per run, ` +
    `/health and the status route alternating for ${ROUNDS} rounds, 127.0.0.1; ` +
    `store: embedded PGlite seeded with ${SEEDED} requests; solver off; rate limits: API key with its own limit of 10^9/min, anonymous limit raised to the same`,
);

await hre.tasks.getTask("build").run({ quiet: true });
// Loaded after the build: the deploy code imports the compiled artifacts.
const { startBenchStack, BENCH_API_KEY_PER_MINUTE } = await import("./bench/benchStack.ts");
const { quoteRequestBody } = await import("./bench/quoteRequest.ts");

// Anonymous requests (one row only, to show what the key lookup costs) get the same high limit.
const stack = await startBenchStack({
  network: hre.network,
  log: (line) => log(`  ${line}`),
  // No solver: nothing but the load runs in the service (the seeded requests are not real deposits).
  solver: false,
  configure: (config) => ({
    ...config,
    rateLimits: { ...config.rateLimits, anonymousPerMinute: BENCH_API_KEY_PER_MINUTE },
    server: STATUS_CACHE ? config.server : { ...config.server, statusCacheRefreshMs: 0 },
  }),
});
let failed = false;
try {
  const { server, apiKey, config } = stack;
  const [origin, destination] = config.chains;
  const user = stack.accounts.find((a) => a.role === "user")!.address;

  // Seed: a spread of lifecycle positions, so the status route reads realistic rows.
  const seededAt = Date.now();
  const ids: string[] = [];
  const path: Array<"pending" | "submitted" | "success"> = ["pending", "submitted", "success"];
  for (let i = 0; i < SEEDED; i++) {
    const id = hex32();
    await server.store.createRequest(
      benchRequest({ id, orderId: hex32(), user: canonicalAddress(user), recipient: canonicalAddress(user), originChainId: origin!.id, destinationChainId: destination!.id, inTxHashes: [hex32()] }),
    );
    // i % 4: 0 waiting, 1 pending, 2 submitted, 3 success.
    for (const status of path.slice(0, i % 4)) await server.store.transitionRequest(id, status, status === "pending" ? {} : { txHashes: [hex32()] });
    ids.push(id);
  }
  log(`  seeded ${SEEDED} requests in ${((Date.now() - seededAt) / 1000).toFixed(1)} s`);

  const headers = { "x-api-key": apiKey, "content-type": "application/json" };
  const load = { url: server.url, headers, connections: CONNECTIONS, durationSeconds: DURATION, warmupSeconds: WARMUP };

  // The quote route is probed once first: its body must be valid (a 4xx here is a bench bug).
  const body = JSON.stringify(quoteRequestBody({ user, originChainId: origin!.id, destinationChainId: destination!.id }));
  const probe = await fetch(`${server.url}/quote/v2`, { method: "POST", headers, body });
  const quoteRegistered = probe.status !== 404;
  if (quoteRegistered && !probe.ok) {
    throw new Error(`POST /quote/v2 probe answered ${probe.status}: ${(await probe.text()).slice(0, 500)}`);
  }
  await probe.arrayBuffer().catch(() => {});

  const results: Array<{ route: string; openLoop: boolean; result: LoadResult }> = [];
  const measure = async (route: string, spec: Parameters<typeof runLoad>[0]) => {
    log(`  loading ${route}…`);
    const result = await runLoad(spec);
    results.push({ route, openLoop: spec.overallRate !== undefined, result });
    return result;
  };
  // The baseline and the status route alternate for ROUNDS rounds: a burst of other jobs on the shared
  // machine lands on both rather than on one. Their rows add the rounds up (requests ÷ time, errors) and
  // take the median round's p50 and p99; each round's ratio is printed too.
  const statusPaths = ids.map((id) => `/intents/status/v3?requestId=${id}`);
  const rounds: Array<{ health: LoadResult; status: LoadResult; healthCost: Cost; statusCost: Cost }> = [];
  for (let round = 1; round <= ROUNDS; round++) {
    log(`  round ${round}/${ROUNDS}: GET /health, then GET /intents/status/v3…`);
    const health = await costOf(server.url, () => runLoad({ ...load, method: "GET", paths: ["/health"] }));
    const status = await costOf(server.url, () => runLoad({ ...load, method: "GET", paths: statusPaths }));
    rounds.push({ health: health.result, status: status.result, healthCost: health.cost, statusCost: status.cost });
  }
  const healthCost = combinedCost(rounds.map((r) => r.healthCost));
  const statusCost = combinedCost(rounds.map((r) => r.statusCost));
  results.push({ route: "GET /health (baseline)", openLoop: false, result: combine(rounds.map((r) => r.health)) });
  results.push({ route: "GET /intents/status/v3", openLoop: false, result: combine(rounds.map((r) => r.status)) });
  await measure(`GET /intents/status/v3 @ ${STATUS_RATE} req/s`, { ...load, method: "GET", paths: statusPaths, overallRate: STATUS_RATE });
  const quoteRows: QuoteRow[] = [];
  const quoteCosts = new Map<string, Cost>();
  if (quoteRegistered) {
    // Bridges: ETH and fUSD 31337 → 31338. Swaps: ETH 31337 → fUSD 31338 is priced by the destination's
    // Uniswap V2 pool (spot and TWAP); ETH → fUSD on 31337 by the devnet's fixed price (no read).
    const quoted = (args: Partial<Parameters<typeof quoteRequestBody>[0]>) =>
      JSON.stringify(quoteRequestBody({ user, originChainId: origin!.id, destinationChainId: destination!.id, ...args }));
    for (const { route, kind, quoteBody } of [
      { route: "POST /quote/v2 (native bridge)", kind: "bridge", quoteBody: body },
      { route: "POST /quote/v2 (ERC-20 bridge, fUSD)", kind: "bridge", quoteBody: quoted({ currency: stack.stablecoin, amount: 25_000_000n }) },
      { route: "POST /quote/v2 (swap, Uniswap V2 pool)", kind: "swap", quoteBody: quoted({ destinationCurrency: stack.stablecoin }) },
      { route: "POST /quote/v2 (swap, fixed price)", kind: "swap", quoteBody: quoted({ destinationChainId: origin!.id, destinationCurrency: stack.stablecoin }) },
    ] as const) {
      const quoteProbe = await fetch(`${server.url}/quote/v2`, { method: "POST", headers, body: quoteBody });
      if (!quoteProbe.ok) throw new Error(`${route} probe answered ${quoteProbe.status}: ${(await quoteProbe.text()).slice(0, 500)}`);
      await quoteProbe.arrayBuffer();
      const { result, cost } = await costOf(server.url, () => profiled(route, () => measure(route, { ...load, method: "POST", paths: ["/quote/v2"], body: quoteBody })));
      quoteCosts.set(route, cost);
      quoteRows.push({ route, kind, result });
    }
  }
  // POST /execute, one relayed execution at a time (see the header).
  const executeProbe = await fetch(`${server.url}/execute`, { method: "POST", headers, body: "{}" });
  await executeProbe.arrayBuffer().catch(() => {});
  if (executeProbe.status !== 404) {
    const key = await apiKeyStore(server.store).verify(apiKey);
    if (!key) throw new Error("the bench API key does not verify");
    await server.store.appBalances.credit({ apiKeyId: key.id, amountUsd: 10n ** 12n, source: { chainId: origin!.id, txHash: hex32(), logIndex: 0 }, currency: "0x0000000000000000000000000000000000000000", amount: 0n });
    log(`  POST /execute: ${EXECUTIONS} relayed rawCalls executions, one at a time…`);
    results.push({ route: `POST /execute (rawCalls relayed, 1 at a time × ${EXECUTIONS})`, openLoop: true, result: await sequentialExecutions(server.url, headers, origin!.id, EXECUTIONS) });
  } else {
    log("POST /execute: not registered on this build (no relayer key) — not measured");
  }
  // Not a target: the same baseline without x-api-key, i.e. without the per-request key lookup.
  await measure("GET /health, no API key", { ...load, headers: {}, method: "GET", paths: ["/health"] });
  log(`  per round, status req/s ÷ health req/s: ${rounds.map((r) => (r.status.requestsPerSecond / r.health.requestsPerSecond).toFixed(2)).join(", ")}`);

  const base = results[0]!.result;
  log("");
  log(
    table(
      ["route", "req/s", "p50 ms", "p99 ms", "errors", "non-2xx", "req/s ÷ health", "p99 ÷ health"],
      // An open-loop row runs at a set rate, not at the connections' pace: no ratio to the closed-loop baseline.
      results.map(({ route, openLoop, result }) => [
        route,
        result.requestsPerSecond.toFixed(0),
        ms(result.p50Ms),
        ms(result.p99Ms),
        String(result.errors),
        String(result.non2xx),
        openLoop ? "–" : (result.requestsPerSecond / base.requestsPerSecond).toFixed(2),
        openLoop ? "–" : (result.p99Ms / base.p99Ms).toFixed(2),
      ]),
    ),
  );
  log("");
  if (!quoteRegistered) log("POST /quote/v2: not registered on this build (404) — not measured");
  const [status, statusAtRate] = results.filter((r) => r.route.startsWith("GET /intents/status")).map((r) => r.result);
  const verdict = (p99: number) => `${p99 < STATUS_P99_TARGET_MS ? "yes" : "NO"} (${ms(p99)} ms)`;
  const ratio = status!.requestsPerSecond / base.requestsPerSecond;
  log(
    `status req/s ≥ ${STATUS_RATIO_TARGET} × /health's, same run, closed loop: ${ratio >= STATUS_RATIO_TARGET ? "yes" : "NO"} (${ratio.toFixed(2)}: ` +
      `${status!.requestsPerSecond.toFixed(0)} vs ${base.requestsPerSecond.toFixed(0)} req/s)`,
  );
  log(`status p99 < ${STATUS_P99_TARGET_MS} ms at saturation (${CONNECTIONS} connections, closed loop): ${verdict(status!.p99Ms)}; /health's p99 in the same run: ${ms(base.p99Ms)} ms`);
  log(`status p99 < ${STATUS_P99_TARGET_MS} ms at a fixed ${STATUS_RATE} req/s, open loop: ${verdict(statusAtRate!.p99Ms)}`);
  const quoteRow = results.find((r) => r.route === "POST /quote/v2 (native bridge)")?.result;
  const executeRow = results.find((r) => r.route.startsWith("POST /execute"))?.result;
  if (quoteRow && executeRow) {
    log(`execute p50 ÷ native-bridge quote p50 (not a target): ${(executeRow.p50Ms / quoteRow.p50Ms).toFixed(2)} (${ms(executeRow.p50Ms)} vs ${ms(quoteRow.p50Ms)} ms); execute p99 ${ms(executeRow.p99Ms)} ms`);
  }
  if (quoteRows.length > 0) {
    log("");
    log(
      table(
        ["route", "req/s", "p50 ms", "p99 ms", "RPC calls/req", "CPU ms/req", "1 core's req/s", "req/s ÷ health", "req/s ÷ status", "p50 ÷ health", "CPU ÷ health"],
        [
          { route: "GET /health (baseline)", result: base, cost: healthCost },
          { route: "GET /intents/status/v3", result: status!, cost: statusCost },
          ...quoteRows.map(({ route, result }) => ({ route, result, cost: quoteCosts.get(route)! })),
        ].map(({ route, result, cost }) => [
          route,
          result.requestsPerSecond.toFixed(0),
          ms(result.p50Ms),
          ms(result.p99Ms),
          cost.rpcCalls.toFixed(2),
          cost.cpuMs.toFixed(2),
          (1000 / cost.cpuMs).toFixed(0),
          (result.requestsPerSecond / base.requestsPerSecond).toFixed(3),
          (result.requestsPerSecond / status!.requestsPerSecond).toFixed(3),
          (result.p50Ms / base.p50Ms).toFixed(1),
          (cost.cpuMs / healthCost.cpuMs).toFixed(1),
        ]),
      ),
    );
    log("(CPU ms/req: the service thread's CPU time per answered request, warm-up included — service and chains, not the load; 1 core's req/s = 1000 ÷ it)");
    for (const verdict of quoteVerdicts(quoteRows, base)) {
      log(`quote budget ${verdict.ok ? "ok" : "OVER"}: ${verdict.line}`);
      if (!verdict.ok) failed = true;
    }
  }
  log(`after: ${loadLine()}`);
  for (const { route, result } of results) {
    if (result.errors > 0 || result.non2xx > 0) {
      failed = true;
      log(`FAILED: ${route}: ${result.errors} errors (${result.timeouts} timeouts), status codes ${JSON.stringify(result.statusCodes)}`);
    }
  }
} catch (error) {
  failed = true;
  process.stderr.write(`bench:api: ${(error as Error).stack ?? error}\n`);
} finally {
  await stack.close();
}
process.exit(failed ? 1 : 0);

/**
 * Worker-thread body of `runLoad` (./runLoad.ts): runs one load (after its warm-up) and posts back a
 * LoadResult — closed loop through autocannon, or open loop at a fixed, paced rate (./pacedLoad.ts).
 * The load generator lives in its own thread so that it does not share the service's event loop: on
 * a 2-core machine the service keeps one core, the generator the other.
 *
 * Closed-loop latency percentiles come from every response's own timing (autocannon's `response` event, float
 * milliseconds from hrtime), not from autocannon's histogram, which rounds to whole milliseconds —
 * too coarse for routes that answer in about one.
 */
import { createRequire } from "node:module";
import { parentPort, workerData } from "node:worker_threads";
import { percentile } from "./benchEnv.ts";
import type { LoadResult, LoadSpec } from "./loadTypes.ts";
import { pacedLoad } from "./pacedLoad.ts";

type AutocannonRequest = { method?: string; path?: string; headers?: Record<string, string>; body?: string };
// Inside a worker thread autocannon returns its raw per-run result (no aggregated histograms).
type AutocannonResult = {
  duration: number;
  errors: number;
  timeouts: number;
  non2xx: number;
  totalCompletedRequests: number;
  statusCodeStats: Record<string, { count: number }>;
};
type AutocannonInstance = PromiseLike<AutocannonResult> & {
  on(event: "response", listener: (client: unknown, statusCode: number, resBytes: number, responseTime: number) => void): void;
};
type Autocannon = (options: {
  url: string;
  connections: number;
  duration: number;
  method?: string;
  headers?: Record<string, string>;
  body?: string;
  requests?: Array<AutocannonRequest & { setupRequest?: (request: AutocannonRequest) => AutocannonRequest }>;
  warmup?: { connections: number; duration: number };
}) => AutocannonInstance;

// autocannon ships no types; the shape used here is declared above (autocannon@9 README "API").
const autocannon = createRequire(import.meta.url)("autocannon") as Autocannon;

const spec = workerData as LoadSpec;
parentPort!.postMessage(spec.overallRate !== undefined ? await pacedLoad({ ...spec, overallRate: spec.overallRate }) : await closedLoop());

/** As many requests as `spec.connections` keep-alive connections carry, one in flight on each. */
async function closedLoop(): Promise<LoadResult> {
  let next = 0;
  const instance = autocannon({
    url: spec.url,
    connections: spec.connections,
    duration: spec.durationSeconds,
    method: spec.method,
    headers: spec.headers,
    ...(spec.body !== undefined ? { body: spec.body } : {}),
    // One request template whose path rotates through spec.paths (e.g. varied requestIds).
    requests: [
      {
        setupRequest: (request) => {
          const path = spec.paths[next % spec.paths.length]!;
          next += 1;
          return { ...request, path };
        },
      },
    ],
    ...(spec.warmupSeconds > 0 ? { warmup: { connections: spec.connections, duration: spec.warmupSeconds } } : {}),
  });
  const latencies: number[] = [];
  instance.on("response", (_client, _statusCode, _bytes, responseTime) => {
    latencies.push(responseTime);
  });
  const result = await instance;
  latencies.sort((a, b) => a - b);
  const out: LoadResult = {
    durationSeconds: result.duration,
    completed: result.totalCompletedRequests,
    requestsPerSecond: result.totalCompletedRequests / result.duration,
    p50Ms: percentile(latencies, 50),
    p99Ms: percentile(latencies, 99),
    errors: result.errors,
    timeouts: result.timeouts,
    non2xx: result.non2xx,
    statusCodes: Object.fromEntries(Object.entries(result.statusCodeStats).map(([code, { count }]) => [code, Number(count)])),
  };
  return out;
}

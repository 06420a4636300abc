/**
 * An open-loop load at a fixed, evenly paced rate: request i is due at start + i/rate, whatever the
 * answers before it did. (autocannon's `overallRate` is not this: each connection sends its whole
 * per-second quota back to back at the top of every second, so its "fixed rate" is a burst per second
 * and its latencies are queueing behind that burst.) Latency runs from the request's due time, so a
 * slow server cannot hide its backlog (no coordinated omission). Runs inside the load worker.
 */
import { Agent, request } from "node:http";
import { percentile } from "./benchEnv.ts";
import type { LoadResult, LoadSpec } from "./loadTypes.ts";

export async function pacedLoad(spec: LoadSpec & { overallRate: number }): Promise<LoadResult> {
  const agent = new Agent({ keepAlive: true, maxSockets: spec.connections });
  const base = new URL(spec.url);
  const send = (path: string) =>
    new Promise<number>((resolve, reject) => {
      const req = request(
        { agent, host: base.hostname, port: base.port, method: spec.method, path, headers: spec.headers },
        (res) => {
          res.resume();
          res.once("end", () => resolve(res.statusCode ?? 0));
          res.once("error", reject);
        },
      );
      req.once("error", reject);
      req.end(spec.body);
    });

  const run = async (seconds: number, record: boolean) => {
    const latencies: number[] = [];
    const statusCodes: Record<string, number> = {};
    let errors = 0;
    let next = 0;
    const total = Math.round(seconds * spec.overallRate);
    const interval = 1000 / spec.overallRate;
    const start = performance.now();
    const inFlight: Promise<void>[] = [];
    for (let i = 0; i < total; i++) {
      const due = start + i * interval;
      const wait = due - performance.now();
      if (wait > 1) await new Promise((resolve) => setTimeout(resolve, wait));
      const path = spec.paths[next++ % spec.paths.length]!;
      inFlight.push(
        send(path).then(
          (status) => {
            latencies.push(performance.now() - due);
            statusCodes[status] = (statusCodes[status] ?? 0) + 1;
          },
          () => void (errors += 1),
        ),
      );
    }
    await Promise.all(inFlight);
    const elapsed = (performance.now() - start) / 1000;
    if (!record) return undefined;
    latencies.sort((a, b) => a - b);
    const non2xx = Object.entries(statusCodes).reduce((n, [code, count]) => (code.startsWith("2") ? n : n + count), 0);
    return {
      durationSeconds: elapsed,
      completed: latencies.length,
      requestsPerSecond: latencies.length / elapsed,
      p50Ms: percentile(latencies, 50),
      p99Ms: percentile(latencies, 99),
      errors,
      timeouts: 0,
      non2xx,
      statusCodes,
    } satisfies LoadResult;
  };

  try {
    if (spec.warmupSeconds > 0) await run(spec.warmupSeconds, false);
    return (await run(spec.durationSeconds, true))!;
  } finally {
    agent.destroy();
  }
}

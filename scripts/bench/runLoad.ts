/** Runs one autocannon load in a worker thread (./loadWorker.ts) and resolves with its LoadResult. */
import { Worker } from "node:worker_threads";
import type { LoadResult, LoadSpec } from "./loadTypes.ts";

export function runLoad(spec: LoadSpec): Promise<LoadResult> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(new URL("./loadWorker.ts", import.meta.url), { workerData: spec });
    let result: LoadResult | undefined;
    worker.once("message", (message: LoadResult) => (result = message));
    worker.once("error", reject);
    worker.once("exit", (code) => (result ? resolve(result) : reject(new Error(`load worker exited with code ${code} and no result`))));
  });
}

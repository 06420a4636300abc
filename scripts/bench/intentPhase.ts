/**
 * Runs one phase of the e2e benchmark in a worker thread (./intentWorker.ts): `count` intents shared
 * out among `users` (each user sends its own intents one after another, the users run at once). The
 * integrator side — quote requests, signing and sending the deposits, status polls — thus has its own
 * thread, as it would be its own process: it does not queue behind the service and solver it measures.
 */
import { Worker } from "node:worker_threads";
import type { Address, Hex } from "viem";
import type { IntentTiming } from "./intentRunner.ts";

export type IntentPhaseSpec = {
  /** One URL, or several replicas: user i talks to apiUrls[i % n] (a load balancer's spread). */
  apiUrl: string;
  apiUrls?: string[];
  apiKey: string;
  chains: Array<{ chainId: number; rpcUrl: string }>;
  /** Private keys of funded accounts, one per concurrent user. */
  users: Hex[];
  count: number;
  route: { originChainId: number; destinationChainId: number; currency?: Address; amount: string };
  pollMs: number;
  timeoutMs: number;
};

export type IntentPhaseResult = { startedAt: number; timings: IntentTiming[] };

export function runIntentPhase(spec: IntentPhaseSpec): Promise<IntentPhaseResult> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(new URL("./intentWorker.ts", import.meta.url), { workerData: spec });
    let settled = false;
    worker.once("message", (message: { result?: IntentPhaseResult; error?: string }) => {
      settled = true;
      if (message.result) resolve(message.result);
      else reject(new Error(message.error ?? "intent worker failed"));
      // On a failure the other users' intents may still be polling: nothing more is wanted from them.
      void worker.terminate();
    });
    worker.once("error", (error) => {
      settled = true;
      reject(error);
    });
    worker.once("exit", (code) => {
      if (!settled) reject(new Error(`intent worker exited with code ${code} and no result`));
    });
  });
}

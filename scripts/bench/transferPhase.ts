/**
 * The chain's own transaction throughput, measured in the same run as the intents (the physical limit
 * the intents run against): `count` plain native transfers (21,000 gas each) from `senders` funded
 * accounts at once, each sender sending its next transfer once the previous one's receipt is in hand —
 * the same closed loop the intents' users run. In a worker thread (./transferWorker.ts), as the intents'
 * clients are.
 */
import { Worker } from "node:worker_threads";
import type { Hex } from "viem";

export type TransferPhaseSpec = { rpcUrl: string; chainId: number; senders: Hex[]; count: number };
export type TransferPhaseResult = { startedAt: number; endedAt: number; count: number; latenciesMs: number[] };

export function runTransferPhase(spec: TransferPhaseSpec): Promise<TransferPhaseResult> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(new URL("./transferWorker.ts", import.meta.url), { workerData: spec });
    worker.once("message", (message: { result?: TransferPhaseResult; error?: string }) => {
      if (message.result) resolve(message.result);
      else reject(new Error(message.error ?? "transfer worker failed"));
      void worker.terminate();
    });
    worker.once("error", reject);
  });
}

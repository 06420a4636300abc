/** Worker-thread body of `runTransferPhase` (./transferPhase.ts). */
import { parentPort, workerData } from "node:worker_threads";
import { createPublicClient, createWalletClient, defineChain, http, type PublicClient } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import type { TransferPhaseResult, TransferPhaseSpec } from "./transferPhase.ts";

const spec = workerData as TransferPhaseSpec;
const chain = defineChain({ id: spec.chainId, name: `chain ${spec.chainId}`, nativeCurrency: { name: "Ether", symbol: "ETH", decimals: 18 }, rpcUrls: { default: { http: [spec.rpcUrl] } } });
const transport = http(spec.rpcUrl);
const publicClient = createPublicClient({ chain, transport }) as PublicClient;

try {
  let sent = 0;
  const latenciesMs: number[] = [];
  const startedAt = Date.now();
  await Promise.all(
    spec.senders.map(async (key) => {
      const account = privateKeyToAccount(key);
      const wallet = createWalletClient({ account, chain, transport });
      let nonce = await publicClient.getTransactionCount({ address: account.address, blockTag: "pending" });
      while (sent < spec.count) {
        sent += 1;
        const at = performance.now();
        const hash = await wallet.sendTransaction({ to: account.address, value: 0n, nonce: nonce++, gas: 21_000n });
        for (let i = 0; ; i++) {
          const receipt = await publicClient.getTransactionReceipt({ hash }).catch(() => null);
          if (receipt) break;
          if (i > 5000) throw new Error(`no receipt for ${hash}`);
          await new Promise((resolve) => setTimeout(resolve, 2));
        }
        latenciesMs.push(performance.now() - at);
      }
    }),
  );
  const result: TransferPhaseResult = { startedAt, endedAt: Date.now(), count: latenciesMs.length, latenciesMs };
  parentPort!.postMessage({ result });
} catch (error) {
  parentPort!.postMessage({ error: (error as Error).message });
}

/** Worker-thread body of `runIntentPhase` (./intentPhase.ts): builds each user's viem clients and runs the intents. */
import { parentPort, workerData } from "node:worker_threads";
import { createPublicClient, createWalletClient, defineChain, http, type PublicClient } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import type { IntentPhaseSpec } from "./intentPhase.ts";
import { runIntent, type IntentClients, type IntentTiming } from "./intentRunner.ts";
import { quoteRequestBody } from "./quoteRequest.ts";

const spec = workerData as IntentPhaseSpec;
const chains = spec.chains.map(({ chainId, rpcUrl }) => {
  const chain = defineChain({
    id: chainId,
    name: `chain ${chainId}`,
    nativeCurrency: { name: "Ether", symbol: "ETH", decimals: 18 },
    rpcUrls: { default: { http: [rpcUrl] } },
  });
  return { chain, transport: http(rpcUrl), publicClient: createPublicClient({ chain, transport: http(rpcUrl) }) as PublicClient };
});

try {
  const timings: IntentTiming[] = [];
  let started = 0;
  const startedAt = Date.now();
  await Promise.all(
    spec.users.map(async (privateKey, index) => {
      const apiUrl = spec.apiUrls?.length ? spec.apiUrls[index % spec.apiUrls.length]! : spec.apiUrl;
      const account = privateKeyToAccount(privateKey);
      const clients: IntentClients = {
        chains: new Map(
          chains.map(({ chain, transport, publicClient }) => [
            chain.id,
            { publicClient, wallet: createWalletClient({ account, chain, transport }) },
          ]),
        ),
      };
      const body = quoteRequestBody({ user: account.address, ...spec.route, amount: BigInt(spec.route.amount) });
      while (started < spec.count) {
        started += 1;
        timings.push(await runIntent({ apiUrl, apiKey: spec.apiKey, body, clients, pollMs: spec.pollMs, timeoutMs: spec.timeoutMs }));
      }
    }),
  );
  parentPort!.postMessage({ result: { startedAt, timings } });
} catch (error) {
  parentPort!.postMessage({ error: (error as Error).message });
}

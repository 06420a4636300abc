/**
 * Run as a child by chainHead.test.ts: a chain head subscribed over a websocket relay whose connection
 * is then cut, so the head falls back to polling, and closed. Prints "closed" and returns: a process
 * left with nothing to do must then exit by itself (a leaked keep-alive interval kept it alive for
 * good, and with it the test runner). Argument: the chain's HTTP RPC URL. Imported (mocha loads every
 * file under test/), it does nothing.
 */
import { fileURLToPath } from "node:url";
import { createPublicClient, http } from "viem";
import { createChainHead } from "../../../ts/service/chains/chainHead.ts";
import { startTcpRelay } from "./tcpRelay.ts";

async function main(): Promise<void> {
  const rpcUrl = process.argv[2]!;
  const relay = await startTcpRelay(Number(new URL(rpcUrl).port));
  const head = createChainHead(createPublicClient({ transport: http(rpcUrl) }), {
    maxAgeMs: 10,
    wsUrl: relay.wsUrl,
    staleAfterMs: 500,
    resubscribeAfterMs: 60_000,
  });
  await head.latest();
  const deadline = Date.now() + 5_000;
  // Subscribed, on an open connection through the relay.
  while ((head.mode() !== "subscription" || !relay.open()) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
  await new Promise((resolve) => setTimeout(resolve, 200));
  relay.cut();
  while (head.mode() !== "polling" && Date.now() < deadline) {
    await head.latest();
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  head.close();
  relay.close();
  process.stdout.write(`closed ${head.mode()}\n`);
}

if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === process.argv[1]) await main();

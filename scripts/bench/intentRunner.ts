/**
 * Pushes one intent through the public API as an integrator would: POST /quote/v2 → send every
 * transaction step from the user's wallet (approve, then deposit) → poll the quote's check.endpoint
 * until a terminal status. Returns the timings the e2e benchmark aggregates.
 *
 * How the latency is measured (all on this machine's one clock):
 *  - start: the moment the deposit's receipt is in hand. The chains automine, so the receipt exists
 *    as soon as eth_sendRawTransaction returns; it is fetched right away (and re-fetched every 2 ms
 *    if not yet there), so this is the deposit's inclusion time within a few ms.
 *  - end (`observedMs`): the first status poll, through the public API, that answers `success`.
 *    Polls go every `pollMs` (default 20 ms), so this overstates the true time by at most one poll
 *    interval plus one status request.
 *  - `recordedMs`: the status record's own `updatedAt` (unix ms written by the service when it stored
 *    `success`, read from the same public response) minus start: what the service took, without the
 *    polling granularity. The service runs in this process, so both clocks are the same clock.
 */
import type { Address, Hex, PublicClient, WalletClient, Chain, Transport, Account } from "viem";

export type IntentTiming = {
  requestId: string;
  /** Quote request → response. */
  quoteMs: number;
  /** Deposit send → receipt (the user's own transaction: the unit a fill also costs at least). */
  depositMs: number;
  /** Deposit receipt → first poll that saw `success`. */
  observedMs: number;
  /** Deposit receipt → the status record's updatedAt at `success`. */
  recordedMs: number;
  /** Wall-clock time (ms) when the deposit's receipt was in hand: the start. */
  depositAt: number;
  /** Wall-clock time (ms) when `success` was observed. */
  doneAt: number;
  /** The status record's updatedAt at `success` (unix ms). */
  successAt: number;
  /** The block the deposit was mined in (origin chain). */
  depositBlock: bigint;
  polls: number;
};

export type IntentClients = {
  /** viem clients by chain id: a public client and this user's wallet client. */
  chains: ReadonlyMap<number, { publicClient: PublicClient; wallet: WalletClient<Transport, Chain, Account> }>;
};

type QuoteResponse = {
  steps: Array<{
    id: string;
    kind: string;
    requestId: string;
    items: Array<{ data: { to: Address; data: Hex; value: string; chainId: number }; check?: { endpoint: string } }>;
  }>;
};

type StatusResponse = { status: string; updatedAt: number; failReason?: string };

export class IntentFailedError extends Error {
  readonly code = "BENCH_INTENT_FAILED";
}

export async function runIntent(args: {
  apiUrl: string;
  apiKey: string;
  body: Record<string, unknown>;
  clients: IntentClients;
  pollMs: number;
  timeoutMs: number;
}): Promise<IntentTiming> {
  const headers = { "x-api-key": args.apiKey, "content-type": "application/json" };
  const quotedAt = performance.now();
  let response = await fetch(`${args.apiUrl}/quote/v2`, { method: "POST", headers, body: JSON.stringify(args.body) });
  // A 503 says "retry" (a chain read ran out of time on a saturated machine): as a client would, up to 5 times.
  for (let retry = 1; response.status === 503 && retry <= 5; retry++) {
    await response.arrayBuffer();
    await sleep(500 * retry);
    response = await fetch(`${args.apiUrl}/quote/v2`, { method: "POST", headers, body: JSON.stringify(args.body) });
  }
  if (!response.ok) throw new IntentFailedError(`POST /quote/v2 answered ${response.status}: ${(await response.text()).slice(0, 400)}`);
  const quote = (await response.json()) as QuoteResponse;
  const quoteMs = performance.now() - quotedAt;

  const transactions = quote.steps.filter((step) => step.kind === "transaction").flatMap((step) => step.items);
  const requestId = quote.steps[0]?.requestId;
  const endpoint = transactions.at(-1)?.check?.endpoint ?? `/intents/status/v3?requestId=${requestId}`;
  if (!requestId || transactions.length === 0) throw new IntentFailedError("quote has no transaction step");

  let depositMs = 0;
  let start = 0;
  let depositBlock = 0n;
  for (const item of transactions) {
    const chain = args.clients.chains.get(item.data.chainId);
    if (!chain) throw new IntentFailedError(`no client for chain ${item.data.chainId}`);
    const sentAt = performance.now();
    const hash = await chain.wallet.sendTransaction({ to: item.data.to, data: item.data.data, value: BigInt(item.data.value) });
    const receipt = await receiptOf(chain.publicClient, hash);
    if (receipt.status !== "success") throw new IntentFailedError(`step transaction ${hash} reverted`);
    depositMs = performance.now() - sentAt;
    start = Date.now();
    depositBlock = receipt.blockNumber;
  }

  const statusUrl = new URL(endpoint, args.apiUrl).href;
  let polls = 0;
  const deadline = start + args.timeoutMs;
  for (;;) {
    polls += 1;
    const res = await fetch(statusUrl, { headers: { "x-api-key": args.apiKey } });
    if (!res.ok) throw new IntentFailedError(`status ${requestId} answered ${res.status}: ${(await res.text()).slice(0, 200)}`);
    const status = (await res.json()) as StatusResponse;
    const now = Date.now();
    if (status.status === "success") {
      return { requestId, quoteMs, depositMs, observedMs: now - start, recordedMs: status.updatedAt - start, depositAt: start, doneAt: now, successAt: status.updatedAt, depositBlock, polls };
    }
    if (status.status === "failure" || status.status === "refund") {
      throw new IntentFailedError(`request ${requestId} ended in ${status.status} (${status.failReason ?? "?"})`);
    }
    if (now > deadline) throw new IntentFailedError(`request ${requestId} still ${status.status} after ${args.timeoutMs} ms`);
    await sleep(args.pollMs);
  }
}

async function receiptOf(publicClient: PublicClient, hash: Hex) {
  for (let attempt = 0; ; attempt++) {
    try {
      return await publicClient.getTransactionReceipt({ hash });
    } catch (error) {
      if (attempt > 5_000) throw error;
      await sleep(2);
    }
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

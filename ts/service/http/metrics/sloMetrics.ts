/**
 * The service's SLO metrics (docs/operations.md "SLOs"; examples/grafana and examples/prometheus use
 * them), on the app's registry:
 *
 * - `ferry_quote_latency_seconds{outcome}`: POST /quote/v2 answer time, `outcome` quoted (2xx),
 *   refused (4xx) or failed (5xx);
 * - `ferry_fill_latency_seconds{origin_chain_id, destination_chain_id}`: deposit block → fill block,
 *   the fill block's time less the deposit block's (chain clocks, not the service's);
 * - `ferry_fill_latency_blocks{…}`: the same in destination-chain blocks: how many blocks the
 *   destination made from the first one at or after the deposit block's time up to the fill block (0:
 *   filled in the first destination block after the deposit). Found by an exponential then binary
 *   search back from the fill block (2·log2(n) block-header probes, at most `MAX_BLOCK_PROBES`; a fill
 *   further back than that is counted in seconds only); a block the chain's shared head has seen (every
 *   block, with a `newHeads` subscription) is not read again, nor one an earlier search read (the
 *   last BLOCK_TIMES_KEPT per chain, by number: a burst of fills searches the same blocks — at 200
 *   users, 3 header reads per intent before; a block a reorg replaced keeps its old time here, which
 *   moves a metric by a block at most);
 * - `ferry_requests_filled_total{…}` and `ferry_requests_refunded_total{…}`: requests this process
 *   took to `success` (filled) and to `refund` — the fill rate is filled ÷ (filled + refunded);
 * - `ferry_requests_overdue`: requests that should have been filled by now — credited, unfilled, their
 *   deposit block older than `quotes.timeEstimateSeconds` (what the quote promised the user), parked
 *   ones included; database-wide, read at scrape time (../../store/overdueRequests.ts);
 * - `ferry_reclaimable_deposits_unreleased` and `ferry_reclaimable_deposits_at_risk`: credited
 *   reclaimable deposits whose release (the repayment or refund) is not confirmed, and those of them whose
 *   `reclaimAt` is less than `reclaimAlertSeconds` away or past — from then on the depositor may take the
 *   deposit back, after a fill at the solver's loss; database-wide, read at scrape time
 *   (../../store/unreleasedDeposits.ts).
 *
 * The latencies and counters are observed when the status change commits in this process (the
 * store's `onTransition`): the solver's process, which shares the app's store. Sum them across
 * replicas.
 */
import type { FastifyInstance } from "fastify";
import { Counter, Gauge, Histogram, type Registry } from "prom-client";
import { LRUCache } from "lru-cache";
import type { PublicClient } from "viem";
import type { StoredRequest } from "../../model/storedRequest.ts";
import type { ChainHead } from "../../chains/chainHead.ts";
import type { Store } from "../../store/createStore.ts";
import { countOverdueRequests } from "../../store/overdueRequests.ts";
import { countUnreleasedDeposits } from "../../store/unreleasedDeposits.ts";

/** Block times kept per chain from the latency searches' reads (a header's time by number; a few dozen bytes each). */
export const BLOCK_TIMES_KEPT = 4_096;

/** The most block headers one fill's latency in blocks may read. */
export const MAX_BLOCK_PROBES = 24;

export type SloMetricsOptions = {
  store: Pick<Store, "onTransition" | "engine">;
  /** The destination chain's client, for the latency in blocks (absent: not measured). */
  publicClientOf?: (chainId: number) => PublicClient | undefined;
  /** The chain's shared head: the blocks it has seen are not read again (absent: every probe reads). */
  headOf?: (chainId: number) => Pick<ChainHead, "recent"> | undefined;
  /** `quotes.timeEstimateSeconds`: a credited request not filled this long after its deposit block is overdue. */
  expectedFillSeconds: number;
  /** A reclaimable deposit not released this close to its `reclaimAt` (or past it) is at risk (default half of quotes.reclaimWindowSeconds). */
  reclaimAlertSeconds: number;
  /** Unix milliseconds. */
  now?: () => number;
  /** A failed block read of the latency in blocks (the observation is skipped). */
  onError?: (error: unknown) => void;
};

export function installSloMetrics(app: FastifyInstance, registry: Registry, options: SloMetricsOptions): { stop: () => void } {
  const registers = [registry];
  const now = options.now ?? Date.now;
  const quoteLatency = new Histogram({
    name: "ferry_quote_latency_seconds",
    help: "POST /quote/v2 answer time in seconds, by outcome (quoted, refused, failed)",
    labelNames: ["outcome"] as const,
    buckets: [0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers,
  });
  const chains = ["origin_chain_id", "destination_chain_id"] as const;
  const fillSeconds = new Histogram({
    name: "ferry_fill_latency_seconds",
    help: "Deposit block to fill block, in seconds of the chains' block times",
    labelNames: chains,
    buckets: [1, 2, 5, 10, 15, 30, 60, 120, 300, 600, 1800],
    registers,
  });
  const fillBlocks = new Histogram({
    name: "ferry_fill_latency_blocks",
    help: "Deposit block to fill block, in destination-chain blocks made since the deposit block's time",
    labelNames: chains,
    buckets: [0, 1, 2, 3, 5, 10, 20, 50, 100],
    registers,
  });
  const filled = new Counter({ name: "ferry_requests_filled_total", help: "Requests filled (status success) by this process", labelNames: chains, registers });
  const refunded = new Counter({ name: "ferry_requests_refunded_total", help: "Requests refunded (status refund) by this process", labelNames: chains, registers });
  new Gauge({
    name: "ferry_requests_overdue",
    help: "Credited requests not filled although their deposit block is older than the quoted time estimate (quotes.timeEstimateSeconds)",
    registers,
    async collect() {
      this.set(await countOverdueRequests(options.store, Math.floor(now() / 1000) - options.expectedFillSeconds));
    },
  });
  // Both gauges from one query per scrape: a count read less than a second ago is reused.
  let unreleasedRead: { at: number; counts: Promise<{ unreleased: number; atRisk: number }> } | undefined;
  const unreleasedCounts = () => {
    const at = now();
    if (!unreleasedRead || at - unreleasedRead.at >= 1000) {
      unreleasedRead = { at, counts: countUnreleasedDeposits(options.store, Math.floor(at / 1000) + options.reclaimAlertSeconds) };
    }
    return unreleasedRead.counts;
  };
  new Gauge({
    name: "ferry_reclaimable_deposits_unreleased",
    help: "Credited reclaimable deposits whose release (repayment or refund) is not confirmed yet",
    registers,
    async collect() {
      this.set((await unreleasedCounts()).unreleased);
    },
  });
  new Gauge({
    name: "ferry_reclaimable_deposits_at_risk",
    help: "Unreleased reclaimable deposits whose reclaimAt is closer than the alert window or past: their depositor may reclaim them",
    registers,
    async collect() {
      this.set((await unreleasedCounts()).atRisk);
    },
  });

  app.addHook("onResponse", async (request, reply) => {
    if (request.method !== "POST" || request.routeOptions.url !== "/quote/v2") return;
    const outcome = reply.statusCode < 400 ? "quoted" : reply.statusCode < 500 ? "refused" : "failed";
    quoteLatency.observe({ outcome }, reply.elapsedTime / 1000);
  });

  // Per destination chain, the block times the searches read: the fills of a burst search the same blocks.
  const readTimes = new Map<number, LRUCache<bigint, number>>();
  const readTimesOf = (chainId: number) => {
    let memo = readTimes.get(chainId);
    if (!memo) readTimes.set(chainId, (memo = new LRUCache<bigint, number>({ max: BLOCK_TIMES_KEPT })));
    return memo;
  };
  const stop = options.store.onTransition((request) => {
    const labels = { origin_chain_id: String(request.originChainId), destination_chain_id: String(request.destinationChainId) };
    if (request.status === "refund") refunded.inc(labels);
    if (request.status !== "success") return;
    filled.inc(labels);
    const latency = fillLatencyOf(request);
    if (!latency) return;
    fillSeconds.observe(labels, Math.max(0, latency.fillTime - latency.depositTime));
    const client = options.publicClientOf?.(request.destinationChainId);
    if (!client) return;
    blocksSince(client, latency.depositTime, latency.fillBlock, options.headOf?.(request.destinationChainId), readTimesOf(request.destinationChainId)).then(
      (blocks) => {
        if (blocks !== undefined) fillBlocks.observe(labels, blocks);
      },
      (error: unknown) => options.onError?.(error),
    );
  });
  return { stop };
}

/** The deposit block's time and the fill block's time and number of a filled request, when recorded. */
export function fillLatencyOf(request: StoredRequest): { depositTime: number; fillTime: number; fillBlock: bigint } | undefined {
  const deposit = request.solver?.deposit;
  const out = request.data.outTxs?.at(-1);
  if (!deposit || !out || out.block === undefined) return undefined;
  return { depositTime: deposit.blockTimestamp, fillTime: out.timestamp, fillBlock: BigInt(out.block) };
}

/**
 * How many blocks the chain made from the first block at or after `since` (unix seconds) up to
 * `block`, not counting that first one: 0 when `block` is it. Undefined when it takes more than
 * MAX_BLOCK_PROBES header reads to find.
 */
export async function blocksSince(
  client: Pick<PublicClient, "getBlock">,
  since: number,
  block: bigint,
  head?: Pick<ChainHead, "recent">,
  /** Block times read by earlier searches on this chain: each header is read once, not once per fill. */
  read?: LRUCache<bigint, number>,
): Promise<number | undefined> {
  let probes = 0;
  const timeOf = async (n: bigint) => {
    probes += 1;
    const seen = head?.recent(n);
    if (seen) return Number(seen.timestamp);
    const known = read?.get(n);
    if (known !== undefined) return known;
    const time = Number((await client.getBlock({ blockNumber: n })).timestamp);
    read?.set(n, time);
    return time;
  };
  // Exponential search back: `low` is a block before `since` (or block 0), `high` one at or after it.
  let high = block;
  let step = 1n;
  let low = -1n;
  while (low < 0n) {
    if (probes >= MAX_BLOCK_PROBES) return undefined;
    if (high === 0n) return Number(block);
    const candidate = high - step < 0n ? 0n : high - step;
    if ((await timeOf(candidate)) < since) low = candidate;
    else {
      high = candidate;
      step *= 2n;
    }
  }
  // Binary search: the first block at or after `since` lies in (low, high].
  while (high - low > 1n) {
    if (probes >= MAX_BLOCK_PROBES) return undefined;
    const mid: bigint = (low + high) / 2n;
    if ((await timeOf(mid)) < since) low = mid;
    else high = mid;
  }
  return Number(block - high);
}

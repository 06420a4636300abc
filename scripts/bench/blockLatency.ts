/**
 * Latency in blocks (issue 26 item 5), for the benchmarks that run interval-mined chains
 * (FERRY_DEVNET_BLOCK_TIME): deposit block → fill block, in block times, beyond the confirmations.
 * One mechanism, used by bench:intent-cost and bench:e2e.
 *
 * The two chains' block numbers are not comparable, and neither are their clocks: a devnet chain's
 * timestamps run ahead of the wall clock by as much as it was moved (the destination's market moves
 * its clock a TWAP window ahead: ../../ts/devnet/devnetMarket.ts) plus what its automined deployment
 * pushed it (Anvil gives each block a later second than the one before). So the blocks are timed on
 * this machine's one clock: `startBlockClock` follows both chains' heads (`eth_getBlockByNumber
 * latest` every `pollMs`, straight to the node, not through the service's counting proxies) and
 * records when each block was first seen. An intent's latency is the fill block's sighting minus the
 * deposit block's, over the block time, rounded to whole blocks, less the confirmations beyond the
 * first (`confirmations` 0 and 1 both credit a deposit in the head block). Both sightings are late
 * by up to one poll (50 ms against blocks of seconds). What each chain's clock is ahead of the wall
 * clock (the median over the blocks seen) is printed next to it: it is what the chain timestamps
 * would have added.
 */
import type { PublicClient } from "viem";
import { attestedReceiverAbi } from "../../ts/abi/AttestedReceiver.ts";
import { intFromEnv, percentile, table } from "./benchEnv.ts";

/** Issue 26's budgets, in blocks beyond the confirmations. */
export const BLOCK_LATENCY_BUDGETS = { p50: 1, p99: 2 } as const;

/** FERRY_BENCH_CONFIRMATIONS: every chain's confirmations for the service under test (0 allowed); undefined: the devnet's. */
export function benchConfirmations(env: NodeJS.ProcessEnv): number | undefined {
  if (env.FERRY_BENCH_CONFIRMATIONS === "0") return 0;
  return env.FERRY_BENCH_CONFIRMATIONS ? intFromEnv("FERRY_BENCH_CONFIRMATIONS", 1, env) : undefined;
}

export type BlockClock = {
  /** Wall-clock ms at which the chain's block `n` was first seen as its head; undefined if never seen. */
  seenAt(chainId: number, n: bigint): number | undefined;
  /** The chain's timestamps minus the wall clock at their sighting, seconds: the median over the blocks seen. */
  aheadSeconds(chainId: number): number;
  stop(): void;
};

type Followed = { chainId: number; publicClient: Pick<PublicClient, "getBlock"> };

export function startBlockClock(
  chains: readonly Followed[],
  options: { pollMs?: number; now?: () => number; sleep?: (ms: number) => Promise<void> } = {},
): BlockClock {
  const pollMs = options.pollMs ?? 50;
  const now = options.now ?? Date.now;
  const sleep = options.sleep ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)));
  const seen = new Map<number, Map<bigint, number>>();
  const ahead = new Map<number, number[]>();
  let stopped = false;
  for (const chain of chains) {
    const sightings = new Map<bigint, number>();
    const offsets: number[] = [];
    seen.set(chain.chainId, sightings);
    ahead.set(chain.chainId, offsets);
    let last: bigint | undefined;
    void (async () => {
      while (!stopped) {
        try {
          const block = await chain.publicClient.getBlock({ blockTag: "latest" });
          const at = now();
          // The first head read was mined some time before: only the blocks that appear later are timed.
          if (last !== undefined && block.number > last) {
            for (let n = last + 1n; n <= block.number; n++) sightings.set(n, at);
            offsets.push(Number(block.timestamp) - at / 1000);
          }
          if (last === undefined || block.number > last) last = block.number;
        } catch {
          // A read that failed is tried again at the next poll.
        }
        await sleep(pollMs);
      }
    })();
  }
  return {
    seenAt: (chainId, n) => seen.get(chainId)?.get(n),
    aheadSeconds: (chainId) => percentile([...(ahead.get(chainId) ?? [])].sort((a, b) => a - b), 50),
    stop: () => {
      stopped = true;
    },
  };
}

export type Fill = { requestId: string; blockNumber: bigint };

/** Every `Filled` on the chain since `fromBlock`, requestIds lowercased. */
/** Each request's first `pending` and `submitted` times (unix ms) from the service's outbox, requestIds lowercased. */
export async function statusTimes(query: (sql: string, params: unknown[]) => Promise<{ rows: Array<{ request_id: string; status: string; at: string }> }>, ids: readonly string[]) {
  const { rows } = await query(
    `SELECT request_id, status, (extract(epoch FROM min(created_at)) * 1000)::bigint::text AS at FROM request_events WHERE request_id = ANY($1::text[]) AND status IN ('pending', 'submitted') GROUP BY request_id, status`,
    [ids],
  );
  const out = new Map<string, { pending?: number; submitted?: number }>();
  for (const row of rows) {
    const entry = out.get(row.request_id.toLowerCase()) ?? {};
    entry[row.status as "pending" | "submitted"] = Number(row.at);
    out.set(row.request_id.toLowerCase(), entry);
  }
  return out;
}

export async function fillsSince(publicClient: Pick<PublicClient, "getLogs">, fromBlock: bigint): Promise<Fill[]> {
  const filled = attestedReceiverAbi.find((item) => item.type === "event" && item.name === "Filled")!;
  const logs = (await publicClient.getLogs({ event: filled as never, fromBlock, toBlock: "latest" })) as unknown as Array<{ args?: { requestId?: string }; blockNumber: bigint }>;
  return logs.map((entry) => ({ requestId: (entry.args?.requestId ?? "").toLowerCase(), blockNumber: entry.blockNumber }));
}

export type BlockLatency = {
  /** Per intent timed, ascending: deposit block → fill block in blocks beyond the confirmations. */
  blocks: number[];
  /** Intents that could not be timed: no fill found, or a block the clock did not see. */
  untimed: number;
  /**
   * Where the time goes, p50 ms after the deposit block was seen: the request indexed (`pending`), its
   * fill sent (`submitted`), the fill block seen. NaN where the stage times were not given.
   */
  stagesMs: { pending: number; submitted: number; fillBlock: number };
  /**
   * Fills sent per second, from the first `submitted` to the last (NaN without the service's status
   * times): what the service sends at most when the deposits come in one burst — one solver key's
   * fills are signed and stored one at a time (../../ts/service/transactions/nonceManager.ts).
   */
  fillsSentPerSecond: number;
  /** How far each chain's clock ran ahead of the wall clock (./blockLatency.ts BlockClock.aheadSeconds). */
  aheadSeconds: { origin: number; destination: number };
};

/** Deposit block → fill block of each intent, in whole block times beyond `confirmations` (0 counts as 1). */
export function blocksToFill(args: {
  intents: ReadonlyArray<{ requestId: string; depositBlock: bigint }>;
  fills: readonly Fill[];
  clock: BlockClock;
  originChainId: number;
  destinationChainId: number;
  blockTimeSeconds: number;
  confirmations: number;
  /** The service's own status times per request (unix ms, from its `request_events`), for the stage medians. */
  stages?: ReadonlyMap<string, { pending?: number; submitted?: number }>;
}): BlockLatency {
  const fillBlock = new Map(args.fills.map((f) => [f.requestId, f.blockNumber]));
  const depth = Math.max(args.confirmations, 1) - 1;
  const blocks: number[] = [];
  const stages = { pending: [] as number[], submitted: [] as number[], fillBlock: [] as number[] };
  let untimed = 0;
  for (const intent of args.intents) {
    const at = fillBlock.get(intent.requestId.toLowerCase());
    const filledAt = at === undefined ? undefined : args.clock.seenAt(args.destinationChainId, at);
    const depositedAt = args.clock.seenAt(args.originChainId, intent.depositBlock);
    if (filledAt === undefined || depositedAt === undefined) {
      untimed += 1;
      continue;
    }
    blocks.push(Math.round((filledAt - depositedAt) / (args.blockTimeSeconds * 1000)) - depth);
    const times = args.stages?.get(intent.requestId.toLowerCase());
    if (times?.pending !== undefined) stages.pending.push(times.pending - depositedAt);
    if (times?.submitted !== undefined) stages.submitted.push(times.submitted - depositedAt);
    stages.fillBlock.push(filledAt - depositedAt);
  }
  const median = (values: number[]) => percentile(values.sort((a, b) => a - b), 50);
  const sent = args.intents.flatMap((intent) => {
    const at = args.stages?.get(intent.requestId.toLowerCase())?.submitted;
    return at === undefined ? [] : [at];
  });
  const sendSpanMs = sent.length > 1 ? Math.max(...sent) - Math.min(...sent) : 0;
  return {
    blocks: blocks.sort((a, b) => a - b),
    untimed,
    stagesMs: { pending: median(stages.pending), submitted: median(stages.submitted), fillBlock: median(stages.fillBlock) },
    fillsSentPerSecond: sendSpanMs > 0 ? ((sent.length - 1) * 1000) / sendSpanMs : Number.NaN,
    aheadSeconds: { origin: args.clock.aheadSeconds(args.originChainId), destination: args.clock.aheadSeconds(args.destinationChainId) },
  };
}

/** The runs' table (p50, p99, max, untimed, the chains' clocks) and what is over the budgets. */
export function blockLatencyReport(blockTimeSeconds: number, runs: ReadonlyArray<{ label: string; latency: BlockLatency }>): { text: string; over: string[] } {
  const over: string[] = [];
  const { p50: p50Budget, p99: p99Budget } = BLOCK_LATENCY_BUDGETS;
  const msCell = (value: number) => (Number.isFinite(value) ? value.toFixed(0) : "–");
  const rows = runs.map(({ label, latency }) => {
    const p50 = percentile(latency.blocks, 50);
    const p99 = percentile(latency.blocks, 99);
    if (!(p50 <= p50Budget)) over.push(`${label}: deposit block → fill block p50 ${p50} blocks`);
    if (!(p99 <= p99Budget)) over.push(`${label}: deposit block → fill block p99 ${p99} blocks`);
    if (latency.untimed > 0) over.push(`${label}: ${latency.untimed} intents not timed in blocks`);
    return [
      label,
      String(latency.blocks.length),
      `${p50} ${p50 <= p50Budget ? "✓" : "✗"}`,
      `${p99} ${p99 <= p99Budget ? "✓" : "✗"}`,
      String(latency.blocks.at(-1) ?? "–"),
      String(latency.untimed),
      msCell(latency.stagesMs.fillBlock),
      `${latency.aheadSeconds.origin.toFixed(1)} / ${latency.aheadSeconds.destination.toFixed(1)}`,
    ];
  });
  const staged = runs.filter(({ latency }) => Number.isFinite(latency.stagesMs.pending) || Number.isFinite(latency.stagesMs.submitted));
  const text = [
    `deposit block → fill block, in ${blockTimeSeconds} s blocks beyond the confirmations, timed on this machine's clock (budgets p50 ≤ ${p50Budget}, p99 ≤ ${p99Budget}):`,
    table(["run", "intents", "p50 blocks", "p99 blocks", "max", "untimed", "fill block seen, p50 ms", "chain clocks ahead, s (origin / destination)"], rows),
    ...(staged.length === 0
      ? []
      : [
          "where the time goes, p50 ms after the deposit block was seen (the service's status times):",
          table(
            ["run", "indexed (pending)", "fill sent (submitted)", "fills sent per s, first → last"],
            staged.map(({ label, latency }) => [
              label,
              msCell(latency.stagesMs.pending),
              msCell(latency.stagesMs.submitted),
              Number.isFinite(latency.fillsSentPerSecond) ? latency.fillsSentPerSecond.toFixed(1) : "–",
            ]),
          ),
        ]),
  ].join("\n");
  return { text, over };
}

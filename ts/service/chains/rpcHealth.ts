/**
 * Health scoring of one chain's RPC URLs, and the order they are tried in. Pure: the transport
 * (./rpcTransport.ts) records what happened and asks for an order; nothing here does I/O or reads a
 * clock.
 *
 * Order, best first:
 * 1. not cooling down (a URL that just failed — refused, timed out, answered 5xx or "internal
 *    error" — sits out 1 s, 2 s, 4 s … up to 30 s after consecutive failures);
 * 2. not stale: its last known head is within `maxHeadLagBlocks` of the best head any URL reported
 *    recently (a node that answers quickly but lags far behind is worse than a slow fresh one);
 * 3. score = 0.7 × stability (answered share of its last 20 calls) + 0.3 × speed (its latency
 *    against the slowest URL's, both moving averages) — the weights of viem's fallback ranking;
 * 4. the operator's order.
 * A read that needs a given block (`eth_getLogs` up to block n, a block by number) never goes to a
 * URL known to be behind that block: a lagging node answers such a read with nothing rather than an
 * error, and the indexer would take "no deposits" for an answer.
 */

export type EndpointHealth = {
  index: number;
  /** Redacted URL (../config/redactConfig.ts redactRpcUrl), for logs and metric labels. */
  label: string;
  /** Outcomes of the last calls, oldest first: true = the URL answered (even with an RPC error). */
  recent: boolean[];
  /** Moving average of answered calls' latency, ms; null before the first answer. */
  latencyMs: number | null;
  consecutiveFailures: number;
  /** Epoch ms until which the URL is cooling down after a failure (0 = not). */
  coolingUntil: number;
  /** Its last reported head and when (epoch ms). */
  head: bigint | null;
  headAt: number;
};

export const HEALTH_WINDOW = 20;
export const MAX_COOLDOWN_MS = 30_000;
/** A head report older than this does not count towards the best head (a URL that stopped answering). */
export const HEAD_MAX_AGE_MS = 60_000;
const STABILITY_WEIGHT = 0.7;
const LATENCY_WEIGHT = 0.3;
const LATENCY_SMOOTHING = 0.3;

export function newEndpointHealth(index: number, label: string): EndpointHealth {
  return { index, label, recent: [], latencyMs: null, consecutiveFailures: 0, coolingUntil: 0, head: null, headAt: 0 };
}

function pushOutcome(recent: boolean[], ok: boolean): boolean[] {
  return [...recent, ok].slice(-HEALTH_WINDOW);
}

/** The URL answered (a result or an RPC error of the request itself) in `latencyMs`. */
export function recordAnswer(h: EndpointHealth, latencyMs: number): EndpointHealth {
  const latency = h.latencyMs === null ? latencyMs : h.latencyMs + LATENCY_SMOOTHING * (latencyMs - h.latencyMs);
  return { ...h, recent: pushOutcome(h.recent, true), latencyMs: latency, consecutiveFailures: 0, coolingUntil: 0 };
}

/** The URL did not answer usefully (refused, timed out, 5xx, internal error, rate limited): cool it down. */
export function recordFailure(h: EndpointHealth, now: number): EndpointHealth {
  const failures = h.consecutiveFailures + 1;
  const cooldown = Math.min(MAX_COOLDOWN_MS, 1000 * 2 ** (failures - 1));
  return { ...h, recent: pushOutcome(h.recent, false), consecutiveFailures: failures, coolingUntil: now + cooldown };
}

/** The URL reported `head` as its latest block. */
export function recordHead(h: EndpointHealth, head: bigint, now: number): EndpointHealth {
  return { ...h, head, headAt: now };
}

/** The highest head reported within HEAD_MAX_AGE_MS, or null. */
export function bestHead(all: readonly EndpointHealth[], now: number): bigint | null {
  let best: bigint | null = null;
  for (const h of all) if (h.head !== null && now - h.headAt <= HEAD_MAX_AGE_MS && (best === null || h.head > best)) best = h.head;
  return best;
}

/** Whether `h`'s head lags the best head by more than `maxHeadLagBlocks`. A URL without a head report is not stale (yet). */
export function isStale(h: EndpointHealth, best: bigint | null, maxHeadLagBlocks: number): boolean {
  return h.head !== null && best !== null && best - h.head > BigInt(maxHeadLagBlocks);
}

export function isCooling(h: EndpointHealth, now: number): boolean {
  return h.coolingUntil > now;
}

/** Stability and speed, 0–1 each, weighted into one score (higher is better). */
export function score(h: EndpointHealth, slowestLatencyMs: number): number {
  const stability = h.recent.length === 0 ? 1 : h.recent.filter(Boolean).length / h.recent.length;
  const speed = h.latencyMs === null || slowestLatencyMs <= 0 ? 1 : 1 - h.latencyMs / slowestLatencyMs;
  return STABILITY_WEIGHT * stability + LATENCY_WEIGHT * speed;
}

/**
 * The indexes to try, best first, and those left out because they are known to be behind
 * `needsBlock` (only when the read needs a given block).
 */
export function rankEndpoints(
  all: readonly EndpointHealth[],
  now: number,
  options: { maxHeadLagBlocks: number; needsBlock?: bigint },
): { order: number[]; behind: number[] } {
  const best = bestHead(all, now);
  const slowest = Math.max(0, ...all.map((h) => h.latencyMs ?? 0));
  const behind = options.needsBlock === undefined ? [] : all.filter((h) => h.head !== null && h.head < options.needsBlock!).map((h) => h.index);
  const candidates = all.filter((h) => !behind.includes(h.index));
  const key = (h: EndpointHealth) => [isCooling(h, now) ? 1 : 0, isStale(h, best, options.maxHeadLagBlocks) ? 1 : 0, -score(h, slowest), h.index] as const;
  const order = [...candidates]
    .sort((a, b) => {
      const ka = key(a);
      const kb = key(b);
      for (let i = 0; i < ka.length; i++) if (ka[i] !== kb[i]) return ka[i]! - kb[i]!;
      return 0;
    })
    .map((h) => h.index);
  return { order, behind };
}

/** Whether the URL is fit to serve right now (what the per-URL health gauge shows): not cooling, not stale. */
export function isHealthy(h: EndpointHealth, all: readonly EndpointHealth[], now: number, maxHeadLagBlocks: number): boolean {
  return !isCooling(h, now) && !isStale(h, bestHead(all, now), maxHeadLagBlocks);
}

/** Backoff before retry round `round` (1-based): base · 2^(round−1), capped at 5 s, jittered into [½, 1] by `random` ∈ [0, 1). */
export function retryDelayMs(round: number, baseMs: number, random: number): number {
  const full = Math.min(5_000, baseMs * 2 ** (round - 1));
  return Math.round(full * (0.5 + random / 2));
}

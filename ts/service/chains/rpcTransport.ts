/**
 * One chain's viem transport over several RPC URLs: every call bounded by a per-attempt timeout (and
 * by the enclosing deadline, ./rpcDeadline.ts), failed over to the next URL when the URL (not the
 * request) failed, retried in rounds with jittered exponential backoff, the URLs ordered by health
 * (./rpcHealth.ts: cooling down after failures, stale when their head lags the others', stability and
 * latency). Metrics per URL (./chainMetrics.ts), labelled with the redacted URL.
 *
 * Why not viem's `fallback({rank})`: its ranking pings each URL and scores latency and stability
 * only. A node that answers quickly but is hundreds of blocks behind ranks first, and a log read up to
 * block n that such a node serves comes back empty rather than failing — the indexer would record
 * "no deposits" and move its checkpoint past them. Here heads are compared across URLs (a lazy probe
 * of all of them every few seconds, plus every `eth_blockNumber` answer), a read that needs block n
 * goes only to a URL that has it, and a "not found" from a URL behind the others is asked again
 * elsewhere.
 *
 * What is failed over (./rpcErrors.ts isEndpointFault): refused or dropped connections, timeouts,
 * HTTP errors, JSON-RPC internal / rate-limit / unavailable errors, "header not found", a head that
 * is no block number (RpcMalformedAnswerError, counted as kind "malformed"). A request's
 * own answer (a revert, "nonce too low", a log range the provider refuses) is thrown at once. A raw
 * transaction that one URL took before timing out and another calls "already known" is sent: its
 * hash is returned.
 *
 * An attempt that has not answered within the URL's hedge delay (a few times its usual latency) is not
 * waited out: the next URL is asked the same meanwhile and the first answer wins (`firstOf`), for
 * sends and receipts as for reads — a hanging URL costs a call its hedge delay, not `timeoutMs`.
 */
import { createTransport, HttpRequestError, keccak256, RpcRequestError, TimeoutError, type Hex, type Transport } from "viem";
import { getHttpRpcClient, type HttpRpcClient, type HttpRpcClientOptions } from "viem/utils";
import type { RpcSettings } from "../config/configSchema.ts";
import { redactRpcUrl } from "../config/redactConfig.ts";
import { ServiceError } from "../errors/serviceError.ts";
import { alreadySent } from "./alreadySent.ts";
import { nodeFetch } from "./nodeFetch.ts";
import type { ChainMetrics } from "./chainMetrics.ts";
import { faultKind, isEndpointFault, RpcMalformedAnswerError } from "./rpcErrors.ts";
import { currentRpcDeadline, RpcDeadlineExceededError } from "./rpcDeadline.ts";
import {
  bestHead,
  isCooling,
  isHealthy,
  isStale,
  newEndpointHealth,
  rankEndpoints,
  recordAnswer,
  recordFailure,
  recordHead,
  retryDelayMs,
  type EndpointHealth,
} from "./rpcHealth.ts";

export type RpcTransportOptions = {
  chainId: number;
  urls: readonly string[];
  settings: RpcSettings;
  metrics?: ChainMetrics;
  /** How often all URLs' heads are compared, at most (a probe runs only while calls are made). Default max(2 s, timeoutMs). */
  probeIntervalMs?: number;
  now?: () => number;
  random?: () => number;
};

export type RpcEndpoints = {
  /** The viem transport: one instance shared by the chain's public and wallet clients (one health state). */
  transport: Transport;
  /** Each URL's health as now scored (redacted labels). */
  health(): EndpointHealth[];
  /** The URL indexes in the order a plain call would try them now. */
  order(): number[];
};

/** No URL of the chain has the block a read needs: every one that answered is behind it. */
export class RpcBlockNotAvailableError extends ServiceError {
  constructor(chainId: number, block: bigint) {
    super("RPC_BLOCK_NOT_AVAILABLE", `no RPC URL of chain ${chainId} has block ${block} yet`);
  }
}

type Endpoint = { index: number; label: string; client: HttpRpcClient };
/** An attempt's outcome at URL `index`. */
type Settled = { index: number; result: unknown } | { index: number; error: unknown };

/** The hedge delay: HEDGE_LATENCY_FACTOR × a URL's average latency, at least HEDGE_MIN_MS; HEDGE_UNKNOWN_MS before its first answer. */
export const HEDGE_MIN_MS = 250;
export const HEDGE_UNKNOWN_MS = 500;
export const HEDGE_LATENCY_FACTOR = 4;

/** The first of `racing` to settle, or "hedge" after `hedgeMs` (undefined: no limit). */
async function firstOf(racing: ReadonlyMap<number, Promise<Settled>>, hedgeMs: number | undefined): Promise<Settled | "hedge"> {
  if (hedgeMs === undefined) return Promise.race(racing.values());
  let timer: ReturnType<typeof setTimeout> | undefined;
  const hedge = new Promise<"hedge">((resolve) => (timer = setTimeout(() => resolve("hedge"), hedgeMs)));
  try {
    return await Promise.race([...racing.values(), hedge]);
  } finally {
    clearTimeout(timer);
  }
}
type Body = { method: string; params?: unknown };

/** A block number as JSON-RPC quantities write it (hex, at most 64 bits), or undefined. */
function blockQuantity(value: unknown): bigint | undefined {
  return typeof value === "string" && /^0x[0-9a-f]{1,16}$/i.test(value) ? BigInt(value) : undefined;
}

/**
 * Whether a call reads the chain's head: `eth_blockNumber`, or the latest block — what the chain's
 * shared head polls (./chainHead.ts). Either answer records the answering URL's head, and one far
 * behind another URL's is not taken while another URL may answer better.
 */
function isHeadRead({ method, params }: Body): boolean {
  return method === "eth_blockNumber" || (method === "eth_getBlockByNumber" && Array.isArray(params) && params[0] === "latest");
}

/** The head a head read answered: a block number, or a block's `number` (undefined when it is neither). */
function headAnswered(body: Body, result: unknown): bigint | undefined {
  return blockQuantity(body.method === "eth_blockNumber" ? result : (result as { number?: unknown } | null)?.number);
}

/** The block a read needs its node to have, when it names one by number. */
export function blockNeeded(method: string, params: unknown): bigint | undefined {
  const list = Array.isArray(params) ? params : [];
  switch (method) {
    case "eth_getLogs": {
      const filter = list[0] as { toBlock?: unknown; blockHash?: unknown } | undefined;
      return filter && filter.blockHash === undefined ? blockQuantity(filter.toBlock) : undefined;
    }
    case "eth_getBlockByNumber":
    case "eth_getBlockReceipts":
      return blockQuantity(list[0]);
    case "eth_call":
    case "eth_getBalance":
    case "eth_getCode":
    case "eth_getTransactionCount":
      return blockQuantity(list[1]);
    case "eth_getStorageAt":
      return blockQuantity(list[2]);
    default:
      return undefined;
  }
}

/**
 * The HTTP client under every call: node:http with keep-alive sockets (./nodeFetch.ts), not the global
 * fetch. Typed as fetch for viem, which reads only the parts of a Response that `nodeFetch` gives.
 */
const RPC_FETCH = nodeFetch() as unknown as NonNullable<HttpRpcClientOptions["fetchFn"]>;

/** Reads whose `null` may only mean "this node has not seen it yet". */
const NULL_MAY_BE_STALE = new Set(["eth_getTransactionReceipt", "eth_getTransactionByHash", "eth_getBlockByNumber", "eth_getBlockByHash", "eth_getBlockReceipts"]);

export function createRpcEndpoints(options: RpcTransportOptions): RpcEndpoints {
  const { chainId, settings, metrics } = options;
  const now = options.now ?? Date.now;
  const random = options.random ?? Math.random;
  const probeIntervalMs = options.probeIntervalMs ?? Math.max(2_000, settings.timeoutMs);
  const endpoints: Endpoint[] = options.urls.map((url, index) => {
    const label = `${index}:${redactRpcUrl(url)}`;
    return { index, label, client: getHttpRpcClient(url, { fetchFn: RPC_FETCH }) };
  });
  let health: EndpointHealth[] = endpoints.map((e) => newEndpointHealth(e.index, e.label));
  let lastProbe = Number.NEGATIVE_INFINITY;
  const labels = (e: Endpoint) => ({ chain_id: String(chainId), rpc: e.label });

  const update = (index: number, next: EndpointHealth) => {
    health = health.map((h) => (h.index === index ? next : h));
    if (metrics) {
      const at = now();
      for (const e of endpoints) {
        const h = health[e.index]!;
        metrics.rpcUp.set(labels(e), isHealthy(h, health, at, settings.maxHeadLagBlocks) ? 1 : 0);
        if (h.head !== null) metrics.rpcHead.set(labels(e), Number(h.head));
      }
    }
  };

  /** One attempt at one URL, its errors carrying the redacted URL only. */
  const attempt = async (e: Endpoint, body: Body, timeout: number): Promise<unknown> => {
    let response;
    try {
      response = await e.client.request({ body: { method: body.method, params: body.params as unknown[] | undefined }, timeout });
    } catch (error) {
      if (error instanceof TimeoutError) throw new TimeoutError({ body, url: e.label });
      if (error instanceof RpcRequestError) throw new RpcRequestError({ body, error: { code: error.code, message: error.details, data: error.data }, url: e.label });
      if (error instanceof HttpRequestError) {
        throw new HttpRequestError({ body, url: e.label, ...(error.status !== undefined && { status: error.status }), ...(error.details && { details: error.details }), ...(error.cause instanceof Error && { cause: error.cause }) });
      }
      throw new HttpRequestError({ body, url: e.label, ...(error instanceof Error && { cause: error }) });
    }
    if (response.error) throw new RpcRequestError({ body, error: response.error, url: e.label });
    return response.result;
  };

  /** Calls one URL, recording the outcome in its health and metrics. */
  const call = async (e: Endpoint, body: Body, timeout: number): Promise<unknown> => {
    const started = now();
    try {
      const result = await attempt(e, body, timeout);
      // The head drives every URL's ranking: a head read whose answer holds no block number is the URL's fault.
      const head = isHeadRead(body) ? headAnswered(body, result) : undefined;
      if (isHeadRead(body) && head === undefined) throw new RpcMalformedAnswerError(body.method, e.label, result);
      update(e.index, recordAnswer(health[e.index]!, now() - started));
      metrics?.rpcRequests.inc({ ...labels(e), outcome: "ok" });
      if (head !== undefined) {
        update(e.index, recordHead(health[e.index]!, head, now()));
        // A head far behind the others' (probes included): counted against the URL.
        if (isStale(health[e.index]!, bestHead(health, now()), settings.maxHeadLagBlocks)) metrics?.rpcErrors.inc({ ...labels(e), kind: "stale" });
      }
      return result;
    } catch (error) {
      if (isEndpointFault(error)) {
        update(e.index, recordFailure(health[e.index]!, now()));
        metrics?.rpcRequests.inc({ ...labels(e), outcome: "error" });
        metrics?.rpcErrors.inc({ ...labels(e), kind: faultKind(error) });
      } else {
        update(e.index, recordAnswer(health[e.index]!, now() - started));
        metrics?.rpcRequests.inc({ ...labels(e), outcome: "answered_error" });
      }
      throw error;
    }
  };

  /** Compares every URL's head (not awaited by the call that triggers it; errors count against the URL). */
  const maybeProbe = () => {
    if (endpoints.length < 2 || now() - lastProbe < probeIntervalMs) return;
    lastProbe = now();
    for (const e of endpoints) void call(e, { method: "eth_blockNumber", params: [] }, settings.timeoutMs).catch(() => {});
  };

  const remainingMs = (method: string, cause?: unknown): number => {
    const scope = currentRpcDeadline();
    if (!scope) return Number.POSITIVE_INFINITY;
    const left = scope.deadline - now();
    if (left <= 0) throw new RpcDeadlineExceededError(scope.what, method, { cause });
    return left;
  };

  const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

  /**
   * How long an attempt at URL `index` may go unanswered before the next URL is asked too: a few
   * times its usual latency, at least HEDGE_MIN_MS, at most the attempt's timeout. A hanging URL then
   * costs a call this long, not a whole `timeoutMs` — for sends and receipts as for reads.
   */
  const hedgeAfterMs = (index: number): number => {
    const latency = health[index]!.latencyMs;
    return Math.min(settings.timeoutMs, Math.max(HEDGE_MIN_MS, latency === null ? HEDGE_UNKNOWN_MS : HEDGE_LATENCY_FACTOR * latency));
  };

  /** Whether URL `index` reported a head beyond every URL in `than`'s. */
  const isAhead = (index: number, than: ReadonlySet<number>): boolean => {
    const head = health[index]!.head;
    if (head === null || isCooling(health[index]!, now())) return false;
    for (const other of than) if ((health[other]!.head ?? -1n) >= head) return false;
    return true;
  };
  /** Whether some URL other than `index` (and those tried) is known to be ahead of it. */
  const aheadOf = (index: number, tried: ReadonlySet<number>): boolean => {
    const seen = new Set([...tried, index]);
    return endpoints.some((e) => !seen.has(e.index) && isAhead(e.index, seen));
  };

  const request = async ({ method, params }: Body): Promise<unknown> => {
    maybeProbe();
    const needs = blockNeeded(method, params);
    let lastError: unknown;
    let staleAnswer: { result: unknown } | undefined;
    for (let round = 0; round <= settings.retryCount; round++) {
      if (round > 0) {
        const left = remainingMs(method, lastError);
        await sleep(Math.min(left, retryDelayMs(round, settings.retryDelayMs, random())));
      }
      const ranked = rankEndpoints(health, now(), { maxHeadLagBlocks: settings.maxHeadLagBlocks, ...(needs !== undefined && { needsBlock: needs }) });
      const candidates = [...ranked.order, ...ranked.behind];
      const tried = new Set<number>();
      // Attempts under way, by URL: one that has not answered within its hedge delay keeps running
      // while the next URL is asked too; whichever answers first is taken.
      const racing = new Map<number, Promise<Settled>>();
      /** What an attempt's outcome means: the answer, or undefined to go on (throws when it ends the call). */
      const judge = (settled: Settled): { result: unknown } | undefined => {
        const { index } = settled;
        if ("error" in settled) {
          const error = settled.error;
          if (error instanceof RpcDeadlineExceededError) throw error;
          if (method === "eth_sendRawTransaction" && alreadySent(error) === "known") {
            // Another URL already took this very transaction (the first attempt timed out after sending it).
            return { result: keccak256((params as Hex[])[0]!) };
          }
          if (!isEndpointFault(error)) throw error;
          lastError = error;
          return undefined;
        }
        const result = settled.result;
        const best = bestHead(health, now());
        if (isHeadRead({ method, params }) && isStale(health[index]!, best, settings.maxHeadLagBlocks)) {
          // A head far behind the others': ask another URL, keep this answer as the last resort.
          staleAnswer ??= { result };
          return undefined;
        }
        if (result === null && NULL_MAY_BE_STALE.has(method) && aheadOf(index, tried)) {
          // "Not found" from a URL behind another one's head: that one may have it.
          staleAnswer ??= { result };
          tried.add(index);
          return undefined;
        }
        return { result };
      };
      for (const [position, index] of candidates.entries()) {
        const e = endpoints[index]!;
        // After a "not found", only a URL known to be further ahead is worth asking.
        if (staleAnswer && !isHeadRead({ method, params }) && !isAhead(index, tried)) continue;
        const timeout = Math.min(settings.timeoutMs, remainingMs(method, lastError));
        if (needs !== undefined) {
          const h = health[index]!;
          // Learn (or refresh) the head of a URL before giving it a read up to a block it may not have.
          if ((h.head === null || h.head < needs) && endpoints.length > 1) {
            let head: bigint;
            try {
              head = BigInt((await call(e, { method: "eth_blockNumber", params: [] }, Math.min(timeout, hedgeAfterMs(index)))) as string);
            } catch (error) {
              const verdict = judge({ index, error });
              if (verdict) return verdict.result;
              continue;
            }
            if (head < needs) {
              metrics?.rpcErrors.inc({ ...labels(e), kind: "stale" });
              continue;
            }
          }
        }
        racing.set(
          index,
          call(e, { method, params }, Math.min(settings.timeoutMs, remainingMs(method, lastError))).then(
            (result): Settled => ({ index, result }),
            (error: unknown): Settled => ({ index, error }),
          ),
        );
        const last = position === candidates.length - 1;
        const settled = await firstOf(racing, last ? undefined : hedgeAfterMs(index));
        if (settled === "hedge") {
          // No answer within the hedge delay: the URL is treated as failing (it ranks last while it
          // cools down) until it answers; the next URL is asked meanwhile.
          update(index, recordFailure(health[index]!, now()));
          continue;
        }
        racing.delete(settled.index);
        const verdict = judge(settled);
        if (verdict) return verdict.result;
      }
      // Every URL asked: the first of those still under way to answer.
      while (racing.size > 0) {
        const settled = (await firstOf(racing, undefined)) as Settled;
        racing.delete(settled.index);
        const verdict = judge(settled);
        if (verdict) return verdict.result;
      }
      if (staleAnswer) return staleAnswer.result;
    }
    if (needs !== undefined && lastError === undefined) throw new RpcBlockNotAvailableError(chainId, needs);
    throw lastError;
  };

  const transport: Transport = () =>
    createTransport({
      key: "ferry",
      name: "Ferry RPC",
      type: "ferry",
      retryCount: 0,
      timeout: settings.timeoutMs,
      request: request as Parameters<typeof createTransport>[0]["request"],
    });

  return {
    transport,
    health: () => health,
    order: () => rankEndpoints(health, now(), { maxHeadLagBlocks: settings.maxHeadLagBlocks }).order,
  };
}

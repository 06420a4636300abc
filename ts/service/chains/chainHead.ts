/**
 * The process's one view of a chain's head, shared by everything that needs "the latest block": the
 * chain watch (and through it the quote's per-block read cache, `known()`), the indexer's finality, the
 * solver's checks and the fee oracle. Without it each of them read `eth_getBlockByNumber("latest")` (or
 * `eth_blockNumber`) per tick, per pass and per step, for a block that changes once per block time. Its
 * polls go through the chain's transport, which records the answering URL's head from them
 * (./rpcTransport.ts): the transport's per-URL heads and this head are fed by the same reads.
 *
 * How the head is followed (`mode()`):
 *  - `subscription`: when the chain is configured with a `wsUrl`, `eth_subscribe("newHeads")` over a
 *    websocket pushes each new header; `latest()` answers from it without a call. A subscription that
 *    drops, errors or goes silent for `staleAfterMs` falls back to polling (and is retried after
 *    `resubscribeAfterMs`).
 *  - `polling` (no ws URL, EDR, or after a failure): `latest()` reads the latest block through the
 *    chain's transport (./rpcTransport.ts: its failover applies) at most once per `maxAgeMs`; callers
 *    in between share the answer, and concurrent callers share one read in flight.
 *
 * `latest({atLeast: n})`: a caller that knows block n exists (a receipt in block n) never gets an older
 * head: a cached head below n is read again, so finality is never judged on a head older than the
 * evidence in hand. While subscribed, the push of block n is waited for first (up to `pushWaitMs`): a
 * node answers a receipt a moment before its newHeads notification arrives, and reading the head then
 * cost ~3 calls per intent at 200 users (issue 26) for a block about to be pushed anyway.
 *
 * `onNewHead(listener)`: told of each head above the last one known, as it is pushed or read — the
 * solver's work list wakes on it for the requests waiting for a block (../solver/blockWait.ts). It
 * reads nothing of its own: while polling, a new head is told when some reader reads it.
 */
import { createPublicClient, webSocket, type Block, type PublicClient } from "viem";
import { canonicalFields, type Bytes32 } from "../model/values.ts";

/** The latest block as the service uses it: number, canonical hashes, timestamp, base fee (null before London). */
export type HeadBlock = { number: bigint; hash: Bytes32; parentHash: Bytes32; timestamp: bigint; baseFeePerGas: bigint | null };

export type ChainHead = {
  latest(options?: { atLeast?: bigint }): Promise<HeadBlock>;
  /**
   * The last head seen — pushed, or read by any caller of `latest()` — without a read: what keys the
   * quote's per-block reads (./blockReadCache.ts via ./chainWatch.ts). Undefined before the first.
   */
  known(): HeadBlock | undefined;
  /**
   * A block this head has seen (pushed, or read as the latest) among the last RECENT_HEADS numbers, by
   * number, without a read; undefined when it was not seen. A subscription sees every block; polling
   * only the ones that were the latest when it read.
   */
  recent(number: bigint): HeadBlock | undefined;
  mode(): "subscription" | "polling";
  /** Calls `listener` with each head above the last one known (pushed or read); returns the unsubscribe. */
  onNewHead(listener: (head: HeadBlock) => void): () => void;
  close(): void;
};

export const DEFAULT_HEAD_MAX_AGE_MS = 250;

/** A pushed head trails the receipts of its block by milliseconds; a second covers a slow socket. */
export const DEFAULT_HEAD_PUSH_WAIT_MS = 1_000;

/** How many of the newest block numbers `recent` remembers. */
export const RECENT_HEADS = 512;

export type ChainHeadOptions = {
  /** How old a polled head may be before `latest()` reads again (default DEFAULT_HEAD_MAX_AGE_MS). */
  maxAgeMs?: number;
  /** A websocket URL of the chain: heads by `eth_subscribe("newHeads")`. */
  wsUrl?: string;
  /** A subscription silent this long is not trusted (default 3 × expected block time, else 60 s). */
  staleAfterMs?: number;
  /** While subscribed, how long `latest({atLeast})` waits for that block's push before reading (default DEFAULT_HEAD_PUSH_WAIT_MS). */
  pushWaitMs?: number;
  /** After a failed or dropped subscription, polling for this long before subscribing again (default 30 s). */
  resubscribeAfterMs?: number;
  now?: () => number;
  /** Told when the mode changes (logged by the caller). */
  onModeChange?: (mode: "subscription" | "polling", reason: string) => void;
};

export function headBlockOf(block: Pick<Block, "number" | "hash" | "parentHash" | "timestamp" | "baseFeePerGas">): HeadBlock {
  if (block.number === null || block.hash === null) throw new Error("a pending block is no head");
  return { number: block.number, ...canonicalFields({ hash: block.hash, parentHash: block.parentHash }), timestamp: block.timestamp, baseFeePerGas: block.baseFeePerGas ?? null };
}

export function createChainHead(publicClient: Pick<PublicClient, "getBlock">, options: ChainHeadOptions = {}): ChainHead {
  const now = options.now ?? Date.now;
  const maxAgeMs = options.maxAgeMs ?? DEFAULT_HEAD_MAX_AGE_MS;
  const staleAfterMs = options.staleAfterMs ?? 60_000;
  const resubscribeAfterMs = options.resubscribeAfterMs ?? 30_000;
  const pushWaitMs = options.pushWaitMs ?? DEFAULT_HEAD_PUSH_WAIT_MS;
  let cached: { at: number; block: HeadBlock } | undefined;
  let inFlight: Promise<HeadBlock> | undefined;
  let subscription: { unwatch: () => void; closeSocket: () => void; lastAt: number } | undefined;
  let retryAt = 0;
  let closed = false;
  const listeners = new Set<(head: HeadBlock) => void>();

  const seen = new Map<bigint, HeadBlock>();
  const remember = (block: HeadBlock, at: number) => {
    seen.delete(block.number);
    seen.set(block.number, block);
    if (seen.size > RECENT_HEADS) seen.delete(seen.keys().next().value!);
    const before = cached?.block.number;
    if (!cached || block.number >= cached.block.number || at - cached.at > maxAgeMs) cached = { at, block };
    if (before !== undefined && cached.block.number <= before) return;
    for (const listener of listeners) {
      try {
        listener(cached.block);
      } catch {
        // A listener's failure is its own: the head is remembered, the other listeners told.
      }
    }
  };

  const unsubscribe = (reason: string) => {
    if (!subscription) return;
    try {
      subscription.unwatch();
    } catch {
      // The socket is already gone.
    }
    subscription.closeSocket();
    subscription = undefined;
    retryAt = now() + resubscribeAfterMs;
    options.onModeChange?.("polling", reason);
  };

  const subscribe = () => {
    if (closed || !options.wsUrl || subscription || now() < retryAt) return;
    retryAt = now() + resubscribeAfterMs;
    try {
      // No keep-alive ping (a silent subscription is caught by staleAfterMs) and the socket closed with
      // the subscription: viem caches one socket client per URL, and one whose server went away would
      // otherwise stay cached — the next subscribe would get the dead socket back — with its keep-alive
      // interval running for good.
      const transport = webSocket(options.wsUrl, { retryCount: 0, reconnect: false, keepAlive: false });
      const client = createPublicClient({ transport });
      const closeSocket = () => {
        void client.transport
          .getRpcClient()
          .then((socket) => socket.close())
          .catch(() => {
            // It never opened: nothing to close.
          });
      };
      const state = { unwatch: () => {}, closeSocket, lastAt: now() };
      subscription = state;
      state.unwatch = client.watchBlocks({
        emitOnBegin: true,
        onBlock: (block) => {
          if (subscription !== state) return;
          state.lastAt = now();
          remember(headBlockOf(block), state.lastAt);
        },
        onError: (error) => {
          if (subscription === state) unsubscribe(`subscription failed: ${error.message}`);
        },
      });
      options.onModeChange?.("subscription", "subscribed to newHeads");
    } catch (error) {
      subscription = undefined;
      options.onModeChange?.("polling", `could not subscribe: ${(error as Error).message}`);
    }
  };

  const read = (): Promise<HeadBlock> => {
    inFlight ??= publicClient
      .getBlock({ blockTag: "latest" })
      .then((block) => {
        const head = headBlockOf(block);
        remember(head, now());
        return cached!.block;
      })
      .finally(() => {
        inFlight = undefined;
      });
    return inFlight;
  };

  /** The first head at or above `atLeast` pushed within pushWaitMs, or undefined. */
  const pushOf = (atLeast: bigint) =>
    new Promise<HeadBlock | undefined>((resolve) => {
      const done = (head: HeadBlock | undefined) => {
        clearTimeout(timer);
        listeners.delete(listener);
        resolve(head);
      };
      const listener = (head: HeadBlock) => {
        if (head.number >= atLeast) done(head);
      };
      const timer = setTimeout(() => done(undefined), pushWaitMs);
      listeners.add(listener);
    });

  return {
    async latest({ atLeast } = {}) {
      subscribe();
      const at = now();
      if (subscription && cached && at - subscription.lastAt > staleAfterMs) unsubscribe(`no head for ${at - subscription.lastAt} ms`);
      const fresh = cached && (subscription ? true : at - cached.at < maxAgeMs);
      if (cached && fresh && (atLeast === undefined || cached.block.number >= atLeast)) return cached.block;
      if (subscription && cached && atLeast !== undefined && pushWaitMs > 0) {
        const pushed = await pushOf(atLeast);
        if (pushed) return pushed;
      }
      return read();
    },
    known: () => cached?.block,
    recent: (number) => seen.get(number),
    mode: () => (subscription ? "subscription" : "polling"),
    onNewHead(listener) {
      listeners.add(listener);
      return () => void listeners.delete(listener);
    },
    close() {
      closed = true;
      unsubscribe("closed");
    },
  };
}

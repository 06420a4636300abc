/**
 * Chain reads cached per block: a quote's reads of a chain (gas price, the head block's time, the
 * user's balance and allowance, a price source's reading) are made once per chain head and reused by
 * every quote until the head moves. The head is not read per quote: it is the chain's shared head as
 * last seen (`ChainWatch.head`: ../chains/chainHead.ts, pushed by subscription or read by any reader
 * in the process, the watch's tick at least once a second; ../chains/chainWatch.ts), so the cache
 * is keyed by a block number and any head source can drive it.
 *
 * `read(chainId, key, load)`: while the head of `chainId` is N, the first call for `key` runs
 * `load(N)` (the loader reads at block N where the RPC method takes a block) and later calls for the
 * same key get the same promise — concurrent callers share one read. A new head (higher, lower after
 * a reorg, or any other number) starts a new generation: nothing read at another block is returned
 * again. A generation also ends after `maxAgeMs` (a head that stopped moving because its watch stopped
 * reading is not trusted for ever), and holds at most `maxEntries` keys (past that, reads are made and
 * not kept: a flood of distinct users cannot grow it). A failed read is dropped, so the next call reads
 * again. Without a head (before the watch's first read, or while the RPC is unreachable) every call
 * reads, at the latest block (`load(undefined)`), as without a cache.
 *
 * What this is not: the solver's capacity, which ../chains/solverInventory.ts caches for its own TTL,
 * and the prices' safety, which does not depend on it (the reading is one the source made at a block;
 * docs/performance.md "The quote route: per-block reads" says what a stale read can and cannot do).
 */

export type HeadOf = (chainId: number) => bigint | undefined;

export type BlockReadCache = {
  /** `load(head)` once per (chain head, key); `load(undefined)` every call when the chain's head is unknown. */
  read<T>(chainId: number, key: string, load: (blockNumber: bigint | undefined) => Promise<T>): Promise<T>;
};

/** A generation outlives its head by at most this much (the chain watch reads every ≥ 1 s). */
export const DEFAULT_BLOCK_READ_MAX_AGE_MS = 5_000;
/** Keys kept per chain and block (each a few hundred bytes). */
export const DEFAULT_BLOCK_READ_MAX_ENTRIES = 10_000;

type Generation = { block: bigint; startedAt: number; entries: Map<string, Promise<unknown>> };

export function createBlockReadCache(options: { head: HeadOf; maxAgeMs?: number; maxEntries?: number; now?: () => number }): BlockReadCache {
  const maxAgeMs = options.maxAgeMs ?? DEFAULT_BLOCK_READ_MAX_AGE_MS;
  const maxEntries = options.maxEntries ?? DEFAULT_BLOCK_READ_MAX_ENTRIES;
  const now = options.now ?? Date.now;
  const generations = new Map<number, Generation>();

  const generationOf = (chainId: number, block: bigint): Generation => {
    const at = now();
    const current = generations.get(chainId);
    if (current && current.block === block && at - current.startedAt < maxAgeMs) return current;
    const fresh: Generation = { block, startedAt: at, entries: new Map() };
    generations.set(chainId, fresh);
    return fresh;
  };

  return {
    read<T>(chainId: number, key: string, load: (blockNumber: bigint | undefined) => Promise<T>): Promise<T> {
      const block = options.head(chainId);
      if (block === undefined) return load(undefined);
      const generation = generationOf(chainId, block);
      const hit = generation.entries.get(key);
      if (hit) return hit as Promise<T>;
      const fresh = load(block);
      if (generation.entries.size >= maxEntries) return fresh;
      generation.entries.set(key, fresh);
      fresh.catch(() => {
        if (generation.entries.get(key) === fresh) generation.entries.delete(key);
      });
      return fresh;
    },
  };
}

/**
 * The status route's cache: the serialized Status record of each requestId polled recently, so a poll
 * costs no database read (on PGlite a read is ~0.5–1.5 ms of a single-threaded engine: the status
 * route's throughput was 0.05× a trivial route's).
 *
 * Correct across processes, with a stated bound:
 * - **This process's writes** (the solver, `POST /transactions/index`, … through this store) evict the
 *   request's entry as they commit (`store.onRequestsChanged`); a read of a request that such a write
 *   (or a refresh's eviction) touched while the read was in flight is served but not cached, so a stale
 *   row never replaces a fresh eviction. Writes of *other* requests do not stop a read being cached: at
 *   200 users the solver writes some request every few milliseconds, and a process-wide write counter
 *   kept almost no read (every status poll was a store read).
 * - **Other processes' writes** (replicas on one PostgreSQL, the solver in another process) are found
 *   by a refresh every `refreshMs` (default 250 ms): one indexed query for the requests whose
 *   `updated_at` is at most `lookbackMs` (5 s) old. An entry is evicted when it was built from an older
 *   `updatedAt`, or from the same one but by a read that started before the first refresh that saw
 *   that write had finished (two writes in one millisecond share an `updated_at`). Every write of a
 *   request's public fields sets `updated_at`, so another process's change is served at most about
 *   `refreshMs` + one query late (two refresh intervals in the worst interleaving), provided the
 *   writer's clock is within `lookbackMs` of ours and its transaction committed within `lookbackMs` of
 *   its timestamp. Whatever happens, no entry is served older than `maxAgeMs` (30 s): the bound when
 *   those conditions fail.
 * - A quoted requestId without a request row yet is cached as `waiting` (from the quote) the same way:
 *   the row's creation is a write like any other. Unknown ids are not cached (404 reads the database).
 */
import { LRUCache } from "lru-cache";
import type { Store } from "../store/createStore.ts";
import { quoteStatusRecord, toStatusRecord } from "../model/publicRecords.ts";
import { SILENT_LOG, errorFields, type Logger } from "../logging/logger.ts";
import type { Bytes32 } from "../model/values.ts";

export type StatusRecordCacheOptions = {
  store: Pick<Store, "getRequest" | "getQuote" | "listRequestsUpdatedSince" | "onRequestsChanged"> & Partial<Pick<Store, "getSupersedingRequestId">>;
  /** How often other processes' writes are looked up; 0 disables the cache (every read goes to the store). */
  refreshMs: number;
  /** How far back each refresh looks (writers' clock skew and commit lag it absorbs). Default 5 s. */
  lookbackMs?: number;
  /** No entry is served older than this. Default 30 s. */
  maxAgeMs?: number;
  maxEntries?: number;
  log?: Logger;
  /** Called once per store statement a status read issues (a miss: the request, then its quote): `ferry_status_store_reads_total`. */
  onStoreRead?: () => void;
  /** Unix ms. Default: the system clock. */
  now?: () => number;
};

export type StatusRecordCache = {
  /** The Status record of `requestId` (lowercase) as JSON text, or undefined for an id never quoted. */
  read(requestId: Bytes32): Promise<string | undefined>;
  /** Starts the refresh loop (idempotent). */
  start(): void;
  /** Stops the refresh loop and waits for a refresh in flight. */
  stop(): Promise<void>;
};

/**
 * An entry: the record's JSON, the `updatedAt` (ms) of the row it was built from (null when built from
 * a quote: no row yet) and when the read that built it started (this process's clock, ms).
 */
type Entry = { body: string; updatedAt: number | null; readAt: number };

export const STATUS_CACHE_DEFAULTS = { lookbackMs: 5_000, maxAgeMs: 30_000, maxEntries: 50_000 } as const;

export function createStatusRecordCache(options: StatusRecordCacheOptions): StatusRecordCache {
  const { store, refreshMs } = options;
  const countStoreRead = options.onStoreRead ?? (() => {});
  const readRecord = async (requestId: Bytes32): Promise<{ body: string; updatedAt: number | null } | undefined> => {
    countStoreRead();
    const stored = await store.getRequest(requestId);
    if (stored) return { body: JSON.stringify(toStatusRecord(stored)), updatedAt: Date.parse(stored.updatedAt) };
    countStoreRead();
    const quote = await store.getQuote(requestId);
    if (!quote) return undefined;
    // An open deposit address's quote: a placeholder, superseded by the request of the first payment after it.
    let supersededBy = null;
    if (quote.intent.depositAddress?.mode === "open" && store.getSupersedingRequestId) {
      countStoreRead();
      supersededBy = await store.getSupersedingRequestId(requestId);
    }
    return { body: JSON.stringify(quoteStatusRecord(quote, supersededBy ?? null)), updatedAt: null };
  };
  if (refreshMs <= 0) {
    return { read: async (requestId) => (await readRecord(requestId))?.body, start: () => {}, stop: async () => {} };
  }

  const lookbackMs = options.lookbackMs ?? STATUS_CACHE_DEFAULTS.lookbackMs;
  const now = options.now ?? Date.now;
  const log = options.log ?? SILENT_LOG;
  const entries = new LRUCache<string, Entry>({
    max: options.maxEntries ?? STATUS_CACHE_DEFAULTS.maxEntries,
    ttl: options.maxAgeMs ?? STATUS_CACHE_DEFAULTS.maxAgeMs,
    // Ages are read from `now` on every get (no debounce): a test's clock may jump.
    ttlResolution: 0,
    perf: { now },
  });
  /** Writes other processes made, by request: their `updated_at` and when a refresh that saw them finished. */
  const seen = new Map<string, { updatedAt: number; seenAt: number }>();
  /** Concurrent misses of one id share one read. */
  const reading = new Map<string, Promise<string | undefined>>();
  /** Requests written (or evicted) while a read of theirs was in flight: that read is served but not kept. */
  const overlapped = new Set<string>();
  /** Counts the whole cache's clears: a read overlapping one is served but not kept. */
  let clears = 0;
  const evict = (ids: readonly string[]) => {
    for (const id of ids) {
      entries.delete(id);
      if (reading.has(id)) overlapped.add(id);
    }
  };
  const clear = () => {
    entries.clear();
    clears++;
  };
  let stopListening: (() => void) | undefined;
  let timer: NodeJS.Timeout | undefined;
  let refreshing: Promise<void> | undefined;

  const refresh = async () => {
    const started = now();
    try {
      const { changes, truncated } = await store.listRequestsUpdatedSince(new Date(started - lookbackMs));
      const finished = now();
      if (truncated) {
        clear();
        return;
      }
      for (const [id, write] of seen) if (write.seenAt < started - 2 * lookbackMs) seen.delete(id);
      for (const { id, updatedAt } of changes) {
        const known = seen.get(id);
        // A read that starts after this refresh finished sees this write (it had committed before the query).
        const write = known && known.updatedAt === updatedAt ? known : { updatedAt, seenAt: finished };
        seen.set(id, write);
        const entry = entries.peek(id);
        if (!entry) continue;
        const stale = entry.updatedAt === null || entry.updatedAt < updatedAt || (entry.updatedAt === updatedAt && entry.readAt < write.seenAt);
        if (stale) evict([id]);
      }
    } catch (error) {
      // Nothing is known about other processes' writes meanwhile: serve nothing from before.
      clear();
      log.warn({ err: errorFields(error) }, "status cache: refresh failed; cache cleared");
    }
  };
  const schedule = () => {
    timer = setTimeout(() => {
      refreshing = refresh().finally(() => {
        refreshing = undefined;
        if (timer !== undefined) schedule();
      });
    }, refreshMs);
    timer.unref();
  };

  return {
    async read(requestId) {
      const hit = entries.get(requestId);
      if (hit) return hit.body;
      const pending = reading.get(requestId);
      if (pending) return pending;
      const clearsBefore = clears;
      const readAt = now();
      const read = readRecord(requestId)
        .then((record) => {
          if (record && !overlapped.has(requestId) && clears === clearsBefore && timer !== undefined) entries.set(requestId, { ...record, readAt });
          return record?.body;
        })
        .finally(() => {
          reading.delete(requestId);
          overlapped.delete(requestId);
        });
      reading.set(requestId, read);
      return read;
    },
    start() {
      if (timer !== undefined) return;
      stopListening = store.onRequestsChanged(evict);
      schedule();
    },
    async stop() {
      clearTimeout(timer);
      timer = undefined;
      stopListening?.();
      stopListening = undefined;
      entries.clear();
      seen.clear();
      await refreshing;
    },
  };
}

/**
 * A short-lived cache in front of an ApiKeyVerifier. Without it every request carrying `x-api-key`
 * costs a database round trip before the rate limiter can even count it; with it, a busy integrator's
 * key is looked up once per `ttlMs`.
 *
 * - Entries are keyed by the key's SHA-256 (the same hash the store keeps), never by the plaintext.
 * - Unknown keys are cached too (as misses), so a client repeating a bad key does not reach the
 *   database on every request; the cache is an LRU bounded by `maxEntries`, so random keys cannot
 *   grow it without bound.
 * - A revoked key keeps working for at most `ttlMs` in a process that verified it just before; a
 *   key created in another process (the `ferry` CLI) is seen at once, since misses expire the same way.
 * - Concurrent verifications of one key share one lookup.
 * - A verifier that throws is not cached: the next request tries again.
 * - `ttlMs` 0 disables the cache (every request is verified).
 */
import { createHash } from "node:crypto";
import { LRUCache } from "lru-cache";
import type { ApiKey, ApiKeyVerifier } from "../store/apiKeys.ts";

export type ApiKeyCacheOptions = { ttlMs: number; maxEntries?: number };

/** What the cache holds per key hash: the key's identity, or `null` for an unknown key. */
type Entry = { apiKey: ApiKey | null };

export const DEFAULT_API_KEY_CACHE_ENTRIES = 10_000;

export function cachedApiKeyVerifier(verifier: ApiKeyVerifier, { ttlMs, maxEntries = DEFAULT_API_KEY_CACHE_ENTRIES }: ApiKeyCacheOptions): ApiKeyVerifier {
  if (ttlMs <= 0) return verifier;
  const cache = new LRUCache<string, Entry, string>({
    max: maxEntries,
    ttl: ttlMs,
    // fetchMethod dedupes concurrent lookups of one key; the plaintext travels as the fetch context.
    fetchMethod: async (_hash, _stale, { context }) => ({ apiKey: (await verifier.verify(context)) ?? null }),
  });
  return {
    async verify(key: string) {
      const hash = createHash("sha256").update(key, "utf8").digest("hex");
      const entry = await cache.fetch(hash, { context: key });
      return entry?.apiKey ?? undefined;
    },
  };
}

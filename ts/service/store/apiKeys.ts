/**
 * API keys. The plaintext key is returned once by `createApiKey` and never stored: the table holds
 * its SHA-256 hash (hex), so verifying a key is one indexed lookup by hash. Revoked keys fail
 * verification but stay listed (with `revokedAt`), so requests keep their `api_key_id`.
 *
 * Keys look like `ferry_<43 base64url chars>` (32 random bytes); ids like `key_<16 hex>`.
 *
 * A key may carry a `referrer` (unique, migration 0010): an anonymous quote whose body's `referrer`
 * is that string is attributed to the key (its webhooks fire for the request). Attribution only: a
 * referrer authenticates nothing and raises no rate limit.
 */
import { createHash, randomBytes } from "node:crypto";
import { ServiceError } from "../errors/serviceError.ts";
import { isoColumn, type Queryable } from "./engine.ts";
import type { Address } from "../model/values.ts";

/** A verified key as the HTTP layer and the websocket see it; `rateLimit` (per minute) overrides `rateLimits.apiKeyPerMinute` when set. */
export type ApiKey = { id: string; rateLimit?: number | null };

/** Verifies API keys: the store (below), or a cache in front of it (../http/apiKeyCache.ts). */
export type ApiKeyVerifier = {
  /** The key's identity when `key` is a valid API key, otherwise undefined. */
  verify(key: string): Promise<ApiKey | undefined>;
};

export type VerifiedApiKey = { id: string; name: string; rateLimit: number | null };

export type ApiKeyRecord = VerifiedApiKey & { createdAt: string; revokedAt: string | null; referrer: string | null };

/** Another key already has this referrer. */
export class ReferrerTakenError extends ServiceError {
  constructor(referrer: string) {
    super("REFERRER_TAKEN", `the referrer ${JSON.stringify(referrer)} is already tied to another API key`);
  }
}

export type ApiKeyStore = {
  /**
   * Creates a key; `key` is the plaintext, shown once. `rateLimit` (per minute) overrides the config's
   * apiKeyPerMinute; one that is not a positive integer is INVALID_INPUT. `options.key` stores a key
   * the caller chose (the devnet's pinned FERRY_DEVNET_API_KEY; 16–256 of A–Z a–z 0–9 _ -) instead of
   * a random one.
   */
  createApiKey(name: string, rateLimit?: number, options?: { key?: string }): Promise<{ id: string; key: string; name: string; rateLimit: number | null }>;
  /** The key's identity when `plaintext` is a known, unrevoked key. */
  verifyApiKey(plaintext: string): Promise<VerifiedApiKey | undefined>;
  /** Revokes the key; false when no such (unrevoked) key. */
  revokeApiKey(id: string): Promise<boolean>;
  listApiKeys(): Promise<ApiKeyRecord[]>;
  /** `verifyApiKey` under the name ApiKeyVerifier expects. */
  verify(plaintext: string): Promise<VerifiedApiKey | undefined>;
  /** Ties `referrer` to the unrevoked key `id` (null unties); false when no such key; REFERRER_TAKEN when another key has it. */
  setReferrer(id: string, referrer: string | null): Promise<boolean>;
  /** The id of the unrevoked key a referrer is tied to. */
  keyIdForReferrer(referrer: string): Promise<string | undefined>;
  /** Sets where the key's app-balance withdrawals are paid (canonical address; null clears); false when no such unrevoked key. */
  setFundingAddress(id: string, address: Address | null): Promise<boolean>;
};

/** What a caller-chosen key may look like: long enough not to be guessed, safe in a header. */
const CHOSEN_KEY = /^[A-Za-z0-9_-]{16,256}$/;

export function hashApiKey(plaintext: string): string {
  return createHash("sha256").update(plaintext, "utf8").digest("hex");
}

type Row = { id: string; name: string; rate_limit: number | null; created_at: string; revoked_at: string | null; referrer: string | null };

/** API keys on a store's engine (`store.engine`); `now` stamps created_at / revoked_at. */
export function apiKeyStore(store: { engine: Queryable }, now: () => Date = () => new Date()): ApiKeyStore {
  const db = store.engine;
  const verifyApiKey = async (plaintext: string): Promise<VerifiedApiKey | undefined> => {
    if (typeof plaintext !== "string" || plaintext.length === 0) return undefined;
    const { rows } = await db.query<Row>("SELECT id, name, rate_limit FROM api_keys WHERE key_hash = $1 AND revoked_at IS NULL", [
      hashApiKey(plaintext),
    ]);
    const row = rows[0];
    return row ? { id: row.id, name: row.name, rateLimit: row.rate_limit } : undefined;
  };
  return {
    async createApiKey(name, rateLimit, options = {}) {
      if (rateLimit !== undefined && (!Number.isSafeInteger(rateLimit) || rateLimit < 1)) throw new ServiceError("INVALID_INPUT", "rateLimit must be a positive integer");
      if (options.key !== undefined && !CHOSEN_KEY.test(options.key)) throw new ServiceError("INVALID_INPUT", "a chosen API key must be 16 to 256 of A-Z a-z 0-9 _ -");
      const id = `key_${randomBytes(8).toString("hex")}`;
      const key = options.key ?? `ferry_${randomBytes(32).toString("base64url")}`;
      await db.query(
        "INSERT INTO api_keys (id, key_hash, name, rate_limit, created_at) VALUES ($1, $2, $3, $4, $5::timestamptz)",
        [id, hashApiKey(key), name, rateLimit ?? null, now().toISOString()],
      );
      return { id, key, name, rateLimit: rateLimit ?? null };
    },
    verifyApiKey,
    verify: verifyApiKey,
    async revokeApiKey(id) {
      const { rowCount } = await db.query("UPDATE api_keys SET revoked_at = $2::timestamptz WHERE id = $1 AND revoked_at IS NULL", [
        id,
        now().toISOString(),
      ]);
      return rowCount > 0;
    },
    async listApiKeys() {
      const { rows } = await db.query<Row>(
        `SELECT id, name, rate_limit, ${isoColumn("created_at")}, ${isoColumn("revoked_at")}, referrer FROM api_keys ORDER BY created_at, id`,
      );
      return rows.map((r) => ({ id: r.id, name: r.name, rateLimit: r.rate_limit, createdAt: r.created_at, revokedAt: r.revoked_at, referrer: r.referrer }));
    },
    async setReferrer(id, referrer) {
      if (referrer !== null && (referrer.length === 0 || referrer.length > 256)) throw new ServiceError("INVALID_INPUT", "a referrer is 1–256 characters");
      try {
        const { rowCount } = await db.query("UPDATE api_keys SET referrer = $2 WHERE id = $1 AND revoked_at IS NULL", [id, referrer]);
        return rowCount > 0;
      } catch (error) {
        // 23505: unique_violation (api_keys_referrer).
        if ((error as { code?: unknown }).code === "23505" && referrer !== null) throw new ReferrerTakenError(referrer);
        throw error;
      }
    },
    async setFundingAddress(id, address) {
      const { rowCount } = await db.query("UPDATE api_keys SET funding_address = $2 WHERE id = $1 AND revoked_at IS NULL", [id, address]);
      return rowCount > 0;
    },
    async keyIdForReferrer(referrer) {
      const { rows } = await db.query<{ id: string }>("SELECT id FROM api_keys WHERE referrer = $1 AND revoked_at IS NULL", [referrer]);
      return rows[0]?.id;
    },
  };
}

/**
 * The operator's API-key operations (create, list, revoke), the same whether they arrive through the
 * admin API (../http/routes/adminKeys*.ts) or the `ferry keys` CLI opening the store directly. The
 * plaintext key exists only in `createApiKey`'s result: the store keeps its SHA-256 hash.
 */
import { ServiceError } from "../errors/serviceError.ts";
import { apiKeyStore, type ApiKeyRecord } from "../store/apiKeys.ts";
import type { Queryable } from "../store/engine.ts";

export const MAX_API_KEY_NAME_LENGTH = 100;
export const MAX_API_KEY_RATE_LIMIT = 2_147_483_647;

export type CreatedApiKey = { id: string; name: string; rateLimit: number | null; key: string };

/** A revoke is idempotent: revoking a revoked key says when it was revoked. */
export type RevokedApiKey = { id: string; revoked: true; alreadyRevoked: boolean; revokedAt: string | null };

export type ApiKeyAdmin = {
  createApiKey(input: { name: string; rateLimit?: number }): Promise<CreatedApiKey>;
  listApiKeys(): Promise<ApiKeyRecord[]>;
  /** UNKNOWN_API_KEY when no key has the id. */
  revokeApiKey(id: string): Promise<RevokedApiKey>;
  /**
   * Ties a quote body's `referrer` to the key (null unties): anonymous quotes with it are attributed to
   * the key. UNKNOWN_API_KEY for an unknown or revoked key, REFERRER_TAKEN when another key has it.
   */
  setApiKeyReferrer(id: string, referrer: string | null): Promise<{ id: string; referrer: string | null }>;
};

/** A key's name: trimmed, 1–100 characters, no control characters (INVALID_INPUT otherwise). */
export function apiKeyName(value: string): string {
  const name = value.trim();
  if (name === "") throw new ServiceError("INVALID_INPUT", "the key's name must not be empty");
  if (name.length > MAX_API_KEY_NAME_LENGTH) throw new ServiceError("INVALID_INPUT", `the key's name is longer than ${MAX_API_KEY_NAME_LENGTH} characters`);
  if (/\p{Cc}/u.test(name)) throw new ServiceError("INVALID_INPUT", "the key's name must not contain control characters");
  return name;
}

export function unknownApiKey(id: string): ServiceError {
  return new ServiceError("UNKNOWN_API_KEY", `no API key with id ${JSON.stringify(id.slice(0, 100))} (see ferry keys list)`);
}

export function apiKeyAdmin(store: { engine: Queryable }, now?: () => Date): ApiKeyAdmin {
  const keys = apiKeyStore(store, now);
  return {
    async createApiKey({ name, rateLimit }) {
      if (rateLimit !== undefined && (!Number.isSafeInteger(rateLimit) || rateLimit < 1 || rateLimit > MAX_API_KEY_RATE_LIMIT)) {
        throw new ServiceError("INVALID_INPUT", "rateLimit must be a positive integer (requests per minute)");
      }
      const created = await keys.createApiKey(apiKeyName(name), rateLimit);
      return { id: created.id, name: created.name, rateLimit: created.rateLimit, key: created.key };
    },
    listApiKeys: () => keys.listApiKeys(),
    async revokeApiKey(id) {
      if (await keys.revokeApiKey(id)) {
        const revokedAt = (await keys.listApiKeys()).find((key) => key.id === id)?.revokedAt ?? null;
        return { id, revoked: true, alreadyRevoked: false, revokedAt };
      }
      // Not revoked now: already revoked (fine, revoking is idempotent) or unknown (a typo, say so).
      const existing = (await keys.listApiKeys()).find((key) => key.id === id);
      if (existing?.revokedAt) return { id, revoked: true, alreadyRevoked: true, revokedAt: existing.revokedAt };
      throw unknownApiKey(id);
    },
    async setApiKeyReferrer(id, referrer) {
      const value = referrer === null ? null : referrer.trim();
      if (value !== null && (value === "" || value.length > 256 || /\p{Cc}/u.test(value))) {
        throw new ServiceError("INVALID_INPUT", "a referrer is 1–256 characters without control characters");
      }
      if (!(await keys.setReferrer(id, value))) throw unknownApiKey(id);
      return { id, referrer: value };
    },
  };
}

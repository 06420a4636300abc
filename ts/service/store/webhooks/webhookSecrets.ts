/**
 * The webhook secrets at rest (`api_keys.webhook_secret`): each API key with a webhook stores the
 * plaintext key (the HMAC secret of its deliveries) encrypted with AES-256-GCM under the 32-byte
 * FERRY_WEBHOOK_SECRET_KEY, the key id as associated data (a ciphertext cannot be moved to another
 * key's row).
 *
 * The key must stay the same for as long as the secrets exist, so:
 * - **At start** the service reads every stored secret of a live key (`requireReadableWebhookSecrets`)
 *   and refuses to start (WEBHOOK_SECRET_KEY_MISMATCH, naming the key ids) when one cannot be opened —
 *   else every delivery of those keys would fail with WEBHOOK_SECRET_UNREADABLE.
 * - **Rotation**: FERRY_WEBHOOK_SECRET_KEY_PREVIOUS is accepted for reading (`openWebhookSecret`
 *   tries the current key, then the previous one) while `rotateWebhookSecrets` re-encrypts each
 *   secret under the current key, one transaction per secret (the row locked, read, rewritten): a
 *   crash leaves every secret under one key or the other, both readable, and a re-run picks up where
 *   it stopped.
 */
import { createCipheriv, createDecipheriv, randomBytes } from "node:crypto";
import type { WebhookSettings } from "../../config/configSchema.ts";
import { ServiceError } from "../../errors/serviceError.ts";
import type { Queryable } from "../engine.ts";

export const WEBHOOK_SECRET_KEY_ENV = "FERRY_WEBHOOK_SECRET_KEY";
export const WEBHOOK_SECRET_KEY_PREVIOUS_ENV = "FERRY_WEBHOOK_SECRET_KEY_PREVIOUS";

/** The key secrets are written under, and the one they may still be under while a rotation runs. */
export type WebhookSecretKeys = { current: Uint8Array; previous?: Uint8Array };

/** A 64-hex-character key (optional 0x) → its 32 bytes; WEBHOOK_SECRET_KEY_INVALID naming `name` otherwise (value not quoted). */
export function parseWebhookSecretKey(hex: string, name: string = WEBHOOK_SECRET_KEY_ENV): Uint8Array {
  const text = hex.startsWith("0x") ? hex.slice(2) : hex;
  if (!/^[0-9a-fA-F]{64}$/.test(text)) throw new ServiceError("WEBHOOK_SECRET_KEY_INVALID", `${name} must be 32 bytes as 64 hex characters`);
  return Uint8Array.from(Buffer.from(text, "hex"));
}

const SECRET_FORMAT = "v1:";
const secretAad = (keyId: string) => Buffer.from(`ferry-webhook-secret:${keyId}`, "utf8");

/** AES-256-GCM: `v1:` + base64(iv(12) ‖ tag(16) ‖ ciphertext), the key id as associated data. */
export function encryptWebhookSecret(secretKey: Uint8Array, keyId: string, plaintext: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", secretKey, iv);
  cipher.setAAD(secretAad(keyId));
  const ciphertext = Buffer.concat([cipher.update(plaintext, "utf8"), cipher.final()]);
  return SECRET_FORMAT + Buffer.concat([iv, cipher.getAuthTag(), ciphertext]).toString("base64");
}

/** The plaintext API key, or undefined when the ciphertext was made under another key (or for another key id) or is malformed. */
export function decryptWebhookSecret(secretKey: Uint8Array, keyId: string, stored: string): string | undefined {
  if (!stored.startsWith(SECRET_FORMAT)) return undefined;
  const raw = Buffer.from(stored.slice(SECRET_FORMAT.length), "base64");
  if (raw.length < 12 + 16 + 1) return undefined;
  try {
    const decipher = createDecipheriv("aes-256-gcm", secretKey, raw.subarray(0, 12));
    decipher.setAAD(secretAad(keyId));
    decipher.setAuthTag(raw.subarray(12, 28));
    return Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString("utf8");
  } catch {
    return undefined;
  }
}

/** A stored secret opened with the current key, else the previous one; undefined when neither opens it. */
export function openWebhookSecret(keys: WebhookSecretKeys, keyId: string, stored: string): { plaintext: string; under: "current" | "previous" } | undefined {
  const current = decryptWebhookSecret(keys.current, keyId, stored);
  if (current !== undefined) return { plaintext: current, under: "current" };
  const previous = keys.previous ? decryptWebhookSecret(keys.previous, keyId, stored) : undefined;
  return previous === undefined ? undefined : { plaintext: previous, under: "previous" };
}

/** How the stored secrets of live (unrevoked) API keys stand against the keys. */
export type WebhookSecretAudit = { current: number; previous: number; unreadable: string[] };

/** The secrets that matter: those of unrevoked keys (a revoked key's webhook never fires). */
const LIVE_SECRETS = "SELECT id, webhook_secret FROM api_keys WHERE webhook_secret IS NOT NULL AND revoked_at IS NULL ORDER BY id";

export async function auditWebhookSecrets(db: Queryable, keys: WebhookSecretKeys): Promise<WebhookSecretAudit> {
  const { rows } = await db.query<{ id: string; webhook_secret: string }>(LIVE_SECRETS);
  const audit: WebhookSecretAudit = { current: 0, previous: 0, unreadable: [] };
  for (const row of rows) {
    const opened = openWebhookSecret(keys, row.id, row.webhook_secret);
    if (opened === undefined) audit.unreadable.push(row.id);
    else audit[opened.under] += 1;
  }
  return audit;
}

/** WEBHOOK_SECRET_KEY_MISMATCH naming the keys whose secrets neither key opens, and the fixes. */
export function secretKeyMismatch(unreadable: readonly string[]): ServiceError {
  const shown = unreadable.slice(0, 5).join(", ") + (unreadable.length > 5 ? `, … (${unreadable.length - 5} more)` : "");
  return new ServiceError(
    "WEBHOOK_SECRET_KEY_MISMATCH",
    `${WEBHOOK_SECRET_KEY_ENV} cannot read the stored webhook secret of ${unreadable.length} API key${unreadable.length === 1 ? "" : "s"} (${shown}): ` +
      `start with the key they were stored under; to change keys, set the old one as ${WEBHOOK_SECRET_KEY_PREVIOUS_ENV} and run ferry webhooks rotate-secret-key; ` +
      `or set those webhooks again (ferry webhooks set)`,
  );
}

/** The start-up check: every live secret opens with the current or the previous key, else WEBHOOK_SECRET_KEY_MISMATCH. */
export async function requireReadableWebhookSecrets(db: Queryable, keys: WebhookSecretKeys): Promise<WebhookSecretAudit> {
  const audit = await auditWebhookSecrets(db, keys);
  if (audit.unreadable.length > 0) throw secretKeyMismatch(audit.unreadable);
  return audit;
}

export type WebhookSecretRotation = { reencrypted: number; alreadyCurrent: number; unreadable: string[] };

/**
 * Re-encrypts every live secret that is under the previous key under the current one, one
 * transaction per secret (row locked, read, rewritten), so it is safe to interrupt and to re-run;
 * secrets neither key opens are left as they are and listed.
 */
export async function rotateWebhookSecrets(db: Pick<Queryable, "query"> & { transaction<T>(fn: (tx: Queryable) => Promise<T>): Promise<T> }, keys: WebhookSecretKeys): Promise<WebhookSecretRotation> {
  const { rows } = await db.query<{ id: string }>(LIVE_SECRETS);
  const result: WebhookSecretRotation = { reencrypted: 0, alreadyCurrent: 0, unreadable: [] };
  for (const { id } of rows) {
    const outcome = await db.transaction(async (tx) => {
      const { rows: locked } = await tx.query<{ webhook_secret: string | null }>("SELECT webhook_secret FROM api_keys WHERE id = $1 AND revoked_at IS NULL FOR UPDATE", [id]);
      const stored = locked[0]?.webhook_secret;
      if (stored == null) return "gone" as const;
      const opened = openWebhookSecret(keys, id, stored);
      if (opened === undefined) return "unreadable" as const;
      if (opened.under === "current") return "current" as const;
      await tx.query("UPDATE api_keys SET webhook_secret = $2 WHERE id = $1", [id, encryptWebhookSecret(keys.current, id, opened.plaintext)]);
      return "reencrypted" as const;
    });
    if (outcome === "reencrypted") result.reencrypted += 1;
    else if (outcome === "current") result.alreadyCurrent += 1;
    else if (outcome === "unreadable") result.unreadable.push(id);
  }
  return result;
}

/** The configured keys decoded (config `webhooks.secretKey`, `webhooks.previousSecretKey`); undefined without FERRY_WEBHOOK_SECRET_KEY. */
export function configuredWebhookSecretKeys(settings: Pick<WebhookSettings, "secretKey" | "previousSecretKey">): WebhookSecretKeys | undefined {
  if (!settings.secretKey) return undefined;
  const current = parseWebhookSecretKey(settings.secretKey.reveal());
  return settings.previousSecretKey ? { current, previous: parseWebhookSecretKey(settings.previousSecretKey.reveal(), WEBHOOK_SECRET_KEY_PREVIOUS_ENV) } : { current };
}

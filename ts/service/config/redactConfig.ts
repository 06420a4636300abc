/**
 * The configuration as it may be logged or shown: keys reduced to whether they are set (and their
 * public address), the database URL without its password.
 */
import { REDACTED } from "./secret.ts";
import type { FerryConfig } from "./configSchema.ts";

/** `postgres://user:pw@host/db` → `postgres://user:[redacted]@host/db`. */
export function redactUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = REDACTED;
    return parsed.toString().replace(encodeURIComponent(REDACTED), REDACTED);
  } catch {
    return REDACTED;
  }
}

export type RedactedConfig = Omit<FerryConfig, "keys" | "database" | "webhooks"> & {
  database: Omit<FerryConfig["database"], "url"> & { url?: string };
  keys: Record<string, string>;
  webhooks: Omit<FerryConfig["webhooks"], "secretKey"> & { secretKey?: string };
};

export function redactConfig(config: FerryConfig): RedactedConfig {
  const { secretKey, ...webhooks } = config.webhooks;
  const { url, ...database } = config.database;
  return {
    ...config,
    database: { ...database, ...(url ? { url: redactUrl(url.reveal()) } : {}) },
    keys: Object.fromEntries(Object.keys(config.keys).map((role) => [role, REDACTED])),
    webhooks: { ...webhooks, ...(secretKey ? { secretKey: REDACTED } : {}) },
  };
}

/** Every secret value of the configuration, for scrubbing free text (error messages) before logging. */
export function secretValues(config: Pick<FerryConfig, "keys" | "database"> & { webhooks?: Pick<FerryConfig["webhooks"], "secretKey"> }): string[] {
  const values: string[] = [];
  const webhookKey = config.webhooks?.secretKey?.reveal();
  if (webhookKey) values.push(webhookKey, webhookKey.replace(/^0x/, ""));
  for (const key of Object.values(config.keys)) {
    if (!key) continue;
    values.push(key.reveal(), key.reveal().slice(2));
  }
  if (config.database.url) {
    values.push(config.database.url.reveal());
    try {
      const password = new URL(config.database.url.reveal()).password;
      if (password) values.push(password, decodeURIComponent(password));
    } catch {
      // Not a URL: the whole value is already listed.
    }
  }
  return values.filter((value) => value.length >= 4);
}

/** `text` with every secret value replaced by `[redacted]`. */
export function scrubSecrets(text: string, secrets: readonly string[]): string {
  let result = text;
  for (const secret of secrets) result = result.split(secret).join(REDACTED);
  return result;
}

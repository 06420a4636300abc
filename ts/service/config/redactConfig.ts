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

/**
 * An RPC URL as it may be logged or used as a metric label: scheme, host and port only. RPC URLs often
 * carry an API key in the path (`/v2/<key>`), the query (`?apikey=`) or the userinfo, so anything past
 * the host becomes `[redacted]`: `https://eth-mainnet.example/v2/abc` → `https://eth-mainnet.example/[redacted]`.
 */
export function redactRpcUrl(url: string): string {
  try {
    const parsed = new URL(url);
    const hidden = parsed.username !== "" || parsed.password !== "" || (parsed.pathname !== "/" && parsed.pathname !== "") || parsed.search !== "";
    return `${parsed.protocol}//${parsed.host}${hidden ? `/${REDACTED}` : ""}`;
  } catch {
    return REDACTED;
  }
}

/** The parts of an RPC URL that may be a credential: userinfo, path segments and query values of 8+ characters. */
function rpcUrlSecrets(url: string): string[] {
  try {
    const parsed = new URL(url);
    const parts = [parsed.username, parsed.password, decodeURIComponent(parsed.password), ...parsed.pathname.split("/"), ...[...parsed.searchParams.values()]];
    const hidden = parsed.username !== "" || parsed.password !== "" || (parsed.pathname !== "/" && parsed.pathname !== "") || parsed.search !== "";
    return [...(hidden ? [url] : []), ...parts.filter((part) => part.length >= 8)];
  } catch {
    return [url];
  }
}

export type RedactedConfig = Omit<FerryConfig, "keys" | "database" | "webhooks" | "admin"> & {
  admin: { token?: string };
  database: Omit<FerryConfig["database"], "url"> & { url?: string };
  keys: Record<string, string>;
  webhooks: Omit<FerryConfig["webhooks"], "secretKey" | "previousSecretKey"> & { secretKey?: string; previousSecretKey?: string };
};

export function redactConfig(config: FerryConfig): RedactedConfig {
  const { secretKey, previousSecretKey, ...webhooks } = config.webhooks;
  const { url, ...database } = config.database;
  return {
    ...config,
    chains: config.chains.map((chain) => ({ ...chain, rpcUrls: chain.rpcUrls.map(redactRpcUrl) })),
    database: { ...database, ...(url ? { url: redactUrl(url.reveal()) } : {}) },
    keys: Object.fromEntries(Object.keys(config.keys).map((role) => [role, REDACTED])),
    webhooks: { ...webhooks, ...(secretKey ? { secretKey: REDACTED } : {}), ...(previousSecretKey ? { previousSecretKey: REDACTED } : {}) },
    admin: config.admin.token ? { token: REDACTED } : {},
  };
}

/** Every secret value of the configuration, for scrubbing free text (error messages) before logging. */
export function secretValues(
  config: Pick<FerryConfig, "keys" | "database"> & { webhooks?: Pick<FerryConfig["webhooks"], "secretKey" | "previousSecretKey">; admin?: FerryConfig["admin"]; chains?: readonly Pick<FerryConfig["chains"][number], "rpcUrls" | "rpcUrl">[] },
): string[] {
  const values: string[] = [];
  const adminToken = config.admin?.token?.reveal();
  if (adminToken) values.push(adminToken);
  // The service's RPC URLs (not the public rpcUrl, which /chains serves anyway).
  for (const chain of config.chains ?? []) for (const url of chain.rpcUrls) if (url !== chain.rpcUrl) values.push(...rpcUrlSecrets(url));
  for (const webhookKey of [config.webhooks?.secretKey?.reveal(), config.webhooks?.previousSecretKey?.reveal()]) {
    if (webhookKey) values.push(webhookKey, webhookKey.replace(/^0x/, ""));
  }
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

/**
 * Webhook configuration and the delivery log, for the operator (the `ferry webhooks` CLI) and tests.
 * One endpoint and optional custom headers per API key (`api_keys.webhook_url`, `webhook_headers`).
 *
 * Signing a delivery needs the plaintext API key, and api_keys only stores its SHA-256: `setWebhook`
 * receives the plaintext, checks it against the stored hash (unknown or revoked → UNKNOWN_API_KEY) and
 * stores it encrypted under the 32-byte FERRY_WEBHOOK_SECRET_KEY (./webhookSecrets.ts: the format, the
 * start-up check and key rotation). Without that key, setWebhook throws WEBHOOK_SECRET_KEY_MISSING.
 *
 * Delivery state is on the outbox rows (`request_events.webhook_*`, migration 0004); the worker's
 * claim/record functions are in ./webhookOutbox.ts.
 */
import { addressFilter, type AddressFilter } from "../config/addressFilter.ts";
import { CONFIG_DEFAULTS } from "../config/configSchema.ts";
import type { RequestStatus } from "../model/requestStatus.ts";
import { hashApiKey } from "./apiKeys.ts";
import { encryptWebhookSecret, WEBHOOK_SECRET_KEY_ENV } from "./webhookSecrets.ts";
import { isoColumn, type Queryable } from "./engine.ts";
import { ServiceError, type ServiceErrorOptions } from "../errors/serviceError.ts";
import { isLocalhostName, resolveWebhookDestination, systemResolver, type HostResolver } from "./webhookDestination.ts";

export type WebhookConfig = { keyId: string; keyName: string; url: string; headers: Record<string, string>; updatedAt: string };
export type WebhookDeliveryState = "pending" | "delivered" | "failed" | "skipped";
export type WebhookDelivery = {
  eventId: number;
  requestId: string;
  status: RequestStatus;
  keyId: string | null;
  state: WebhookDeliveryState;
  attempts: number;
  nextAttemptAt: string | null;
  lastStatusCode: number | null;
  lastError: string | null;
  deliveredAt: string | null;
  createdAt: string;
};
export type WebhookAttempt = { eventId: number; attempt: number; at: string; statusCode: number | null; error: string | null; durationMs: number };
export type WebhookStore = {
  setWebhook(input: { apiKey: string; url: string; headers?: Record<string, string> }): Promise<WebhookConfig>;
  clearWebhook(keyId: string): Promise<boolean>;
  listWebhooks(): Promise<WebhookConfig[]>;
  /** Newest event first; `limit` defaults to 100 (at most 1000). An unknown `state` is INVALID_INPUT. */
  listDeliveries(filter?: {
    eventId?: number;
    requestId?: string;
    keyId?: string;
    since?: Date;
    state?: WebhookDeliveryState;
    limit?: number;
  }): Promise<WebhookDelivery[]>;
  /** Every attempt of the event, oldest first (earlier redelivery rounds included). */
  listAttempts(eventId: number): Promise<WebhookAttempt[]>;
  /** Makes events pending again (attempts back to 0, log kept); returns how many. */
  redeliver(target: { eventId: number } | { since: Date }): Promise<number>;
};

export const WebhookErrorCode = {
  UNKNOWN_API_KEY: "UNKNOWN_API_KEY",
  INVALID_WEBHOOK_URL: "INVALID_WEBHOOK_URL",
  INVALID_WEBHOOK_HEADER: "INVALID_WEBHOOK_HEADER",
  WEBHOOK_SECRET_KEY_MISSING: "WEBHOOK_SECRET_KEY_MISSING",
  WEBHOOK_SECRET_KEY_INVALID: "WEBHOOK_SECRET_KEY_INVALID",
  UNKNOWN_EVENT: "UNKNOWN_EVENT",
} as const;
export type WebhookErrorCode = (typeof WebhookErrorCode)[keyof typeof WebhookErrorCode];

/**
 * A webhook configuration or log request that cannot be honoured. `field` names the offending input
 * (`url`, `headers.X-Foo`, `FERRY_WEBHOOK_SECRET_KEY`); messages never quote the API key or a header value.
 */
export class WebhookError extends ServiceError {
  declare readonly code: WebhookErrorCode;
  readonly field: string | undefined;
  constructor(code: WebhookErrorCode, message: string, options: ServiceErrorOptions & { field?: string } = {}) {
    super(code, message, options);
    this.field = options.field;
  }
}

const LOOPBACK_HOSTS = new Set(["localhost", "127.0.0.1", "[::1]"]);

/** Whether `hostname` (as URL.hostname gives it) is a loopback host: localhost, 127.0.0.0/8, [::1]. */
export function isLoopbackHost(hostname: string): boolean {
  return LOOPBACK_HOSTS.has(hostname) || /^127(\.\d{1,3}){3}$/.test(hostname) || hostname.endsWith(".localhost");
}

/**
 * The endpoint rule: an absolute https:// URL (http:// only to a loopback host, unless `allowHttp`),
 * no credentials, no fragment, at most 2048 characters, not an IP address in a `denied` range (in any
 * spelling: the URL parser turns `0`, `127.1`, `2130706433`, `0x7f.1` into dotted IPv4, and the filter
 * reads IPv4 carried in IPv6), nor a `localhost` name when loopback is denied. Throws
 * INVALID_WEBHOOK_URL; returns the URL as given. Names are resolved by `checkWebhookDestination`.
 */
export function validateWebhookUrl(url: string, options: { allowHttp?: boolean; denied?: AddressFilter } = {}): string {
  const invalid = (why: string) => new WebhookError(WebhookErrorCode.INVALID_WEBHOOK_URL, `webhook url ${why}`, { field: "url" });
  if (typeof url !== "string" || url.length === 0 || url.length > 2048) throw invalid("must be 1 to 2048 characters");
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw invalid("is not an absolute URL");
  }
  if (parsed.protocol !== "https:" && parsed.protocol !== "http:") throw invalid("must be https://");
  if (parsed.protocol === "http:" && !options.allowHttp && !isLoopbackHost(parsed.hostname)) {
    throw invalid("must be https:// (http:// only to a loopback host, or with webhooks.allowHttp)");
  }
  if (parsed.username || parsed.password) throw invalid("must not carry credentials (use a custom header)");
  if (parsed.hash) throw invalid("must not have a fragment");
  // An IP-literal host is checked here; a name is checked on every address it resolves to, at delivery.
  const denied = options.denied;
  if (denied && (denied.denies(parsed.hostname) || (denied.deniesLoopback && isLocalhostName(parsed.hostname)))) {
    throw invalid(`points into a denied address range (webhooks.denyNetworks: ${denied.ranges.join(", ")})`);
  }
  return url;
}

/** How long setting a webhook waits for its name to resolve. */
export const SET_RESOLVE_TIMEOUT_MS = 5_000;

/**
 * When a webhook is set: its host's name resolved now, and refused (INVALID_WEBHOOK_URL) when any
 * address it resolves to is in a denied range. A name that does not resolve now (or not within
 * `SET_RESOLVE_TIMEOUT_MS`) is accepted — every delivery attempt resolves it again and connects only to
 * addresses outside the denied ranges.
 */
export async function checkWebhookDestination(url: string, denied: AddressFilter, resolve: HostResolver = systemResolver): Promise<void> {
  const destination = await resolveWebhookDestination(new URL(url).hostname, denied, resolve, AbortSignal.timeout(SET_RESOLVE_TIMEOUT_MS)).catch(() => undefined);
  if (destination && destination.denied.length > 0) {
    throw new WebhookError(WebhookErrorCode.INVALID_WEBHOOK_URL, `webhook url resolves into a denied address range (webhooks.denyNetworks: ${denied.ranges.join(", ")})`, { field: "url" });
  }
}

/** Headers Ferry sets itself (or that HTTP owns): a custom header may not name them. */
const RESERVED_HEADERS = new Set([
  "content-type",
  "content-length",
  "host",
  "x-ferry-event-id",
  "connection",
  "keep-alive",
  "transfer-encoding",
  "te",
  "trailer",
  "upgrade",
  "expect",
]);
const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
/** Visible ASCII, space and tab (obs-text excluded): no CR, LF or NUL can get in. */
const FIELD_VALUE = /^[\t\x20-\x7e]*$/;
export const MAX_WEBHOOK_HEADERS = 20;

/** Checks custom headers; throws INVALID_WEBHOOK_HEADER naming the header (never its value). Returns a copy. */
export function validateWebhookHeaders(headers: Record<string, string> | undefined): Record<string, string> {
  if (headers === undefined) return {};
  const invalid = (name: string, why: string) =>
    new WebhookError(WebhookErrorCode.INVALID_WEBHOOK_HEADER, `header ${JSON.stringify(name.slice(0, 64))} ${why}`, { field: `headers.${name.slice(0, 64)}` });
  if (typeof headers !== "object" || headers === null || Array.isArray(headers)) {
    throw new WebhookError(WebhookErrorCode.INVALID_WEBHOOK_HEADER, "headers must be an object of strings", { field: "headers" });
  }
  const entries = Object.entries(headers);
  if (entries.length > MAX_WEBHOOK_HEADERS) {
    throw new WebhookError(WebhookErrorCode.INVALID_WEBHOOK_HEADER, `at most ${MAX_WEBHOOK_HEADERS} custom headers`, { field: "headers" });
  }
  const seen = new Set<string>();
  const copy: Record<string, string> = {};
  for (const [name, value] of entries) {
    if (!TOKEN.test(name) || name.length > 256) throw invalid(name, "is not a valid header name");
    const lower = name.toLowerCase();
    if (RESERVED_HEADERS.has(lower) || lower.startsWith("x-signature-")) throw invalid(name, "is set by Ferry and cannot be overridden");
    if (seen.has(lower)) throw invalid(name, "is given twice");
    seen.add(lower);
    if (typeof value !== "string" || value.length > 4096 || !FIELD_VALUE.test(value)) {
      throw invalid(name, "must have a printable value (no CR, LF or control characters, at most 4096 characters)");
    }
    copy[name] = value;
  }
  return copy;
}

type ConfigRow = { id: string; name: string; webhook_url: string; webhook_headers: Record<string, string>; webhook_updated_at: string };
const configFromRow = (r: ConfigRow): WebhookConfig => ({
  keyId: r.id,
  keyName: r.name,
  url: r.webhook_url,
  headers: r.webhook_headers ?? {},
  updatedAt: r.webhook_updated_at,
});
const CONFIG_COLUMNS = `id, name, webhook_url, webhook_headers, ${isoColumn("webhook_updated_at")}`;

type DeliveryRow = {
  id: number;
  request_id: string;
  status: RequestStatus;
  api_key_id: string | null;
  webhook_state: WebhookDeliveryState;
  webhook_attempts: number;
  webhook_next_attempt_at: string | null;
  webhook_last_status_code: number | null;
  webhook_last_error: string | null;
  webhook_delivered_at: string | null;
  created_at: string;
};
const DELIVERY_COLUMNS = [
  "e.id",
  "e.request_id",
  "e.status",
  "r.api_key_id",
  "e.webhook_state",
  "e.webhook_attempts",
  isoColumn("e.webhook_next_attempt_at", "webhook_next_attempt_at"),
  "e.webhook_last_status_code",
  "e.webhook_last_error",
  isoColumn("e.webhook_delivered_at", "webhook_delivered_at"),
  isoColumn("e.created_at", "created_at"),
].join(", ");
const deliveryFromRow = (r: DeliveryRow): WebhookDelivery => ({
  eventId: r.id,
  requestId: r.request_id,
  status: r.status,
  keyId: r.api_key_id,
  state: r.webhook_state,
  attempts: r.webhook_attempts,
  nextAttemptAt: r.webhook_state === "pending" ? r.webhook_next_attempt_at : null,
  lastStatusCode: r.webhook_last_status_code,
  lastError: r.webhook_last_error,
  deliveredAt: r.webhook_delivered_at,
  createdAt: r.created_at,
});

const STATES: readonly WebhookDeliveryState[] = ["pending", "delivered", "failed", "skipped"];

/**
 * The operator's side of webhooks on a store's engine. `allowHttp` lifts the https rule for non-loopback
 * hosts (config `webhooks.allowHttp`); `resolve` resolves a webhook's name when it is set (default: the
 * system resolver).
 */
export function webhookStore(
  store: { engine: Queryable },
  options: { secretKey?: Uint8Array; now?: () => Date; allowHttp?: boolean; denyNetworks?: readonly string[]; resolve?: HostResolver },
): WebhookStore {
  const db = store.engine;
  const denied = addressFilter(options.denyNetworks ?? CONFIG_DEFAULTS.webhooks.denyNetworks);
  const now = options.now ?? (() => new Date());
  return {
    async setWebhook(input) {
      const secretKey = options.secretKey;
      if (!secretKey) {
        throw new WebhookError(WebhookErrorCode.WEBHOOK_SECRET_KEY_MISSING, `${WEBHOOK_SECRET_KEY_ENV} is not set: webhooks cannot be configured without it`, {
          field: WEBHOOK_SECRET_KEY_ENV,
        });
      }
      if (secretKey.length !== 32) {
        throw new WebhookError(WebhookErrorCode.WEBHOOK_SECRET_KEY_INVALID, `${WEBHOOK_SECRET_KEY_ENV} must be 32 bytes`, { field: WEBHOOK_SECRET_KEY_ENV });
      }
      const url = validateWebhookUrl(input.url, { allowHttp: options.allowHttp, denied });
      const headers = validateWebhookHeaders(input.headers);
      await checkWebhookDestination(url, denied, options.resolve);
      const unknownKey = () => new WebhookError(WebhookErrorCode.UNKNOWN_API_KEY, "unknown or revoked API key", { field: "apiKey" });
      if (typeof input.apiKey !== "string" || input.apiKey.length === 0) throw unknownKey();
      const { rows: keys } = await db.query<{ id: string }>("SELECT id FROM api_keys WHERE key_hash = $1 AND revoked_at IS NULL", [hashApiKey(input.apiKey)]);
      const keyId = keys[0]?.id;
      if (!keyId) throw unknownKey();
      const { rows } = await db.query<ConfigRow>(
        `UPDATE api_keys SET webhook_url = $2, webhook_headers = $3::jsonb, webhook_secret = $4, webhook_updated_at = $5::timestamptz,
           webhook_failures = 0, webhook_paused_until = NULL
         WHERE id = $1 AND revoked_at IS NULL RETURNING ${CONFIG_COLUMNS}`,
        [keyId, url, JSON.stringify(headers), encryptWebhookSecret(secretKey, keyId, input.apiKey), now().toISOString()],
      );
      if (!rows[0]) throw unknownKey();
      return configFromRow(rows[0]);
    },

    async clearWebhook(keyId) {
      const { rowCount } = await db.query(
        `UPDATE api_keys SET webhook_url = NULL, webhook_headers = '{}'::jsonb, webhook_secret = NULL, webhook_updated_at = $2::timestamptz
         WHERE id = $1 AND webhook_url IS NOT NULL`,
        [keyId, now().toISOString()],
      );
      return rowCount > 0;
    },

    async listWebhooks() {
      const { rows } = await db.query<ConfigRow>(
        `SELECT ${CONFIG_COLUMNS} FROM api_keys WHERE webhook_url IS NOT NULL AND revoked_at IS NULL ORDER BY name, id`,
      );
      return rows.map(configFromRow);
    },

    async listDeliveries(filter = {}) {
      const where: string[] = [];
      const params: unknown[] = [];
      const add = (sql: string, value: unknown) => {
        params.push(value);
        where.push(sql.replace("?", `$${params.length}`));
      };
      if (filter.eventId !== undefined) add("e.id = ?", filter.eventId);
      if (filter.requestId !== undefined) add("e.request_id = ?", filter.requestId);
      if (filter.keyId !== undefined) add("r.api_key_id = ?", filter.keyId);
      if (filter.since !== undefined) add("e.created_at >= ?::timestamptz", filter.since.toISOString());
      if (filter.state !== undefined) {
        if (!STATES.includes(filter.state)) throw new ServiceError("INVALID_INPUT", `state must be one of ${STATES.join(", ")}`);
        add("e.webhook_state = ?", filter.state);
      }
      const limit = Number.isFinite(filter.limit) ? Math.min(Math.max(Math.trunc(filter.limit!), 1), 1000) : 100;
      params.push(limit);
      const { rows } = await db.query<DeliveryRow>(
        `SELECT ${DELIVERY_COLUMNS} FROM request_events e JOIN requests r ON r.id = e.request_id
         ${where.length ? `WHERE ${where.join(" AND ")}` : ""} ORDER BY e.id DESC LIMIT $${params.length}`,
        params,
      );
      return rows.map(deliveryFromRow);
    },

    async listAttempts(eventId) {
      const { rows } = await db.query<{ event_id: number; attempt: number; at: string; status_code: number | null; error: string | null; duration_ms: number }>(
        `SELECT event_id, attempt, ${isoColumn("at")}, status_code, error, duration_ms FROM webhook_attempts
         WHERE event_id = $1 ORDER BY round, attempt`,
        [eventId],
      );
      return rows.map((r) => ({ eventId: r.event_id, attempt: r.attempt, at: r.at, statusCode: r.status_code, error: r.error, durationMs: r.duration_ms }));
    },

    async redeliver(target) {
      // An attempt in flight (lease running) is left alone: resetting it would let a second copy go out
      // while the first is still being sent. Everything else starts a new round at attempt 0.
      const at = now().toISOString();
      const reset = `UPDATE request_events SET webhook_state = 'pending', webhook_round = webhook_round + 1, webhook_attempts = 0,
          webhook_next_attempt_at = NULL, webhook_lease_owner = NULL, webhook_lease_expires_at = NULL,
          webhook_last_status_code = NULL, webhook_last_error = NULL, webhook_delivered_at = NULL
        WHERE (webhook_lease_expires_at IS NULL OR webhook_lease_expires_at <= $2::timestamptz)`;
      if ("eventId" in target) {
        const { rows } = await db.query("SELECT id FROM request_events WHERE id = $1", [target.eventId]);
        if (rows.length === 0) throw new WebhookError(WebhookErrorCode.UNKNOWN_EVENT, `unknown event: ${target.eventId}`, { field: "eventId" });
        return (await db.query(`${reset} AND id = $1`, [target.eventId, at])).rowCount;
      }
      return (await db.query(`${reset} AND created_at >= $1::timestamptz`, [target.since.toISOString(), at])).rowCount;
    },
  };
}

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
 * claim/record functions are in ./webhookOutbox.ts; the URL and header rules, and WebhookError, in
 * ./webhookRules.ts.
 */
import { addressFilter } from "../../config/addressFilter.ts";
import { CONFIG_DEFAULTS } from "../../config/configSchema.ts";
import type { RequestStatus } from "../../model/requestStatus.ts";
import { hashApiKey } from "../apiKeys.ts";
import { encryptWebhookSecret, WEBHOOK_SECRET_KEY_ENV } from "./webhookSecrets.ts";
import { ServiceError } from "../../errors/serviceError.ts";
import { isoColumn, type Queryable } from "../engine.ts";
import type { HostResolver } from "./webhookDestination.ts";
import { checkWebhookDestination, validateWebhookHeaders, validateWebhookUrl, WebhookError } from "./webhookRules.ts";

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
        throw new WebhookError("WEBHOOK_SECRET_KEY_MISSING", `${WEBHOOK_SECRET_KEY_ENV} is not set: webhooks cannot be configured without it`, {
          field: WEBHOOK_SECRET_KEY_ENV,
        });
      }
      if (secretKey.length !== 32) {
        throw new WebhookError("WEBHOOK_SECRET_KEY_INVALID", `${WEBHOOK_SECRET_KEY_ENV} must be 32 bytes`, { field: WEBHOOK_SECRET_KEY_ENV });
      }
      const url = validateWebhookUrl(input.url, { allowHttp: options.allowHttp, denied });
      const headers = validateWebhookHeaders(input.headers);
      await checkWebhookDestination(url, denied, options.resolve);
      const unknownKey = () => new WebhookError("UNKNOWN_API_KEY", "unknown or revoked API key", { field: "apiKey" });
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
        if (rows.length === 0) throw new WebhookError("UNKNOWN_EVENT", `unknown event: ${target.eventId}`, { field: "eventId" });
        return (await db.query(`${reset} AND id = $1`, [target.eventId, at])).rowCount;
      }
      return (await db.query(`${reset} AND created_at >= $1::timestamptz`, [target.since.toISOString(), at])).rowCount;
    },
  };
}

/**
 * The operator's webhook operations (spec "Events → Configuration": one endpoint and custom headers per
 * API key), the same through the admin API (../http/routes/adminWebhook*.ts) and the `ferry webhooks`
 * CLI on the store. Header values are stored as given but never come back out: every result shows
 * them as [redacted]. The API key passed to `setWebhook` (the deliveries' HMAC secret) is stored
 * encrypted under FERRY_WEBHOOK_SECRET_KEY and never returned.
 */
import { REDACTED } from "../config/secret.ts";
import { ServiceError } from "../errors/serviceError.ts";
import type { Queryable } from "../store/engine.ts";
import { RequestNotFoundError } from "../store/errors.ts";
import { WebhookError } from "../store/webhooks/webhookRules.ts";
import { webhookStore, type WebhookAttempt, type WebhookConfig, type WebhookDelivery } from "../store/webhooks/webhooks.ts";
import type { Bytes32 } from "../model/values.ts";

/** A delivery with every attempt of it, oldest first. */
export type DeliveryLog = WebhookDelivery & { attemptLog: WebhookAttempt[] };

export type WebhookAdmin = {
  /** UNKNOWN_API_KEY, INVALID_WEBHOOK_URL, INVALID_WEBHOOK_HEADER, WEBHOOK_SECRET_KEY_MISSING. */
  setWebhook(input: { apiKey: string; url: string; headers?: Record<string, string> }): Promise<WebhookConfig>;
  /** WEBHOOK_NOT_CONFIGURED when the key has no endpoint. */
  clearWebhook(keyId: string): Promise<void>;
  /** Every configured endpoint, or the one of `keyId` (WEBHOOK_NOT_CONFIGURED when it has none). */
  listWebhooks(keyId?: string): Promise<WebhookConfig[]>;
  /** One event's delivery (UNKNOWN_EVENT), or every event of a request, oldest first (REQUEST_NOT_FOUND). */
  /** `requestId` canonical (the route's schema, the CLI). */
  deliveryLog(target: { eventId: number } | { requestId: Bytes32 }): Promise<DeliveryLog[]>;
  /** Starts a new delivery round (attempts back to 0, log kept); returns how many events. UNKNOWN_EVENT. */
  redeliver(target: { eventId: number } | { since: Date }): Promise<number>;
};

export type WebhookAdminSettings = { secretKey?: Uint8Array; allowHttp: boolean; denyNetworks?: readonly string[]; now?: () => Date };

export function webhookNotConfigured(keyId: string): ServiceError {
  return new ServiceError("WEBHOOK_NOT_CONFIGURED", `no webhook configured for ${JSON.stringify(keyId.slice(0, 100))} (see ferry webhooks show)`);
}

/** The configuration with header values replaced by [redacted]. */
export function maskedWebhook(webhook: WebhookConfig): WebhookConfig {
  return { ...webhook, headers: Object.fromEntries(Object.keys(webhook.headers).map((name) => [name, REDACTED])) };
}

/** A request's events are a handful (one per status change); more than this is not a log to read. */
const MAX_EVENTS_PER_REQUEST = 1000;

export function webhookAdmin(store: { engine: Queryable }, settings: WebhookAdminSettings): WebhookAdmin {
  const webhooks = webhookStore(store, {
    ...(settings.secretKey ? { secretKey: settings.secretKey } : {}),
    allowHttp: settings.allowHttp,
    ...(settings.denyNetworks ? { denyNetworks: settings.denyNetworks } : {}),
    ...(settings.now ? { now: settings.now } : {}),
  });
  const withAttempts = async (deliveries: WebhookDelivery[]): Promise<DeliveryLog[]> => {
    const result: DeliveryLog[] = [];
    for (const delivery of deliveries) result.push({ ...delivery, attemptLog: await webhooks.listAttempts(delivery.eventId) });
    return result;
  };
  return {
    setWebhook: async (input) => maskedWebhook(await webhooks.setWebhook(input)),
    async clearWebhook(keyId) {
      if (!(await webhooks.clearWebhook(keyId))) throw webhookNotConfigured(keyId);
    },
    async listWebhooks(keyId) {
      const all = (await webhooks.listWebhooks()).map(maskedWebhook);
      if (keyId === undefined) return all;
      const shown = all.filter((webhook) => webhook.keyId === keyId);
      if (shown.length === 0) throw webhookNotConfigured(keyId);
      return shown;
    },
    async deliveryLog(target) {
      if ("eventId" in target) {
        const deliveries = await webhooks.listDeliveries({ eventId: target.eventId });
        if (deliveries.length === 0) throw new WebhookError("UNKNOWN_EVENT", `unknown event: ${target.eventId}`, { field: "eventId" });
        return withAttempts(deliveries);
      }
      const requestId = target.requestId;
      const { rows } = await store.engine.query("SELECT 1 FROM requests WHERE id = $1", [requestId]);
      if (rows.length === 0) throw new RequestNotFoundError(requestId);
      // Oldest first reads as a story.
      return withAttempts((await webhooks.listDeliveries({ requestId, limit: MAX_EVENTS_PER_REQUEST })).reverse());
    },
    redeliver: (target) => webhooks.redeliver(target),
  };
}

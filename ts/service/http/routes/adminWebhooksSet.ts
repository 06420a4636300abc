/**
 * PUT /admin/webhooks {apiKey, url, headers?} — sets (or replaces) the webhook endpoint of the API key
 * given in the body (the key itself: deliveries are signed with it, so the service stores it
 * encrypted under FERRY_WEBHOOK_SECRET_KEY; it is never returned or logged). 404 UNKNOWN_API_KEY,
 * 400 INVALID_WEBHOOK_URL / INVALID_WEBHOOK_HEADER (naming the header, never its value), 503
 * WEBHOOK_SECRET_KEY_MISSING when the service runs without FERRY_WEBHOOK_SECRET_KEY.
 */
import { Type } from "typebox";
import type { WebhookAdmin } from "../../admin/webhookAdmin.ts";
import { MAX_WEBHOOK_HEADERS } from "../../store/webhooks/webhookRules.ts";
import { NoQuery, type FerryApp } from "../ferryApp.ts";
import { bodyErrorResponses, ErrorBody } from "../httpErrors.ts";
import { ADMIN_SECURITY, adminErrorResponses, WebhookConfigSchema } from "../admin/adminRecords.ts";

export const AdminWebhooksSetBody = Type.Object(
  {
    apiKey: Type.String({ minLength: 1, maxLength: 256, description: "The API key whose requests' events are delivered (its plaintext: the HMAC secret)" }),
    url: Type.String({ minLength: 1, maxLength: 2048, description: "https:// (http:// only to a loopback host unless webhooks.allowHttp)" }),
    headers: Type.Optional(
      Type.Record(Type.String({ maxLength: 256 }), Type.String({ maxLength: 4096 }), {
        maxProperties: MAX_WEBHOOK_HEADERS,
        description: "Custom headers sent with each delivery",
      }),
    ),
  },
  { additionalProperties: false },
);

export const adminWebhooksSetSchema = {
  summary: "Set a webhook endpoint",
  description: "One endpoint (and custom headers) per API key; replaces the previous one. Admin token required.",
  tags: ["Admin"],
  security: ADMIN_SECURITY,
  querystring: NoQuery,
  body: AdminWebhooksSetBody,
  response: { 200: WebhookConfigSchema, 404: ErrorBody, 503: ErrorBody, ...bodyErrorResponses, ...adminErrorResponses },
};

export function registerAdminWebhooksSetRoute(app: FerryApp, options: { admin: WebhookAdmin }): void {
  app.put("/admin/webhooks", { schema: adminWebhooksSetSchema }, async (request) =>
    options.admin.setWebhook({ apiKey: request.body.apiKey, url: request.body.url, ...(request.body.headers ? { headers: request.body.headers } : {}) }),
  );
}

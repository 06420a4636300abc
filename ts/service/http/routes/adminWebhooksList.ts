/**
 * GET /admin/webhooks[?keyId=] — the configured webhook endpoints: key id and name, URL, custom header
 * names (values always [redacted]), last change. With `keyId`, that key's only (404
 * WEBHOOK_NOT_CONFIGURED when it has none).
 */
import { Type } from "typebox";
import type { WebhookAdmin } from "../../admin/webhookAdmin.ts";
import type { FerryApp } from "../ferryApp.ts";
import { ErrorBody } from "../httpErrors.ts";
import { ADMIN_SECURITY, adminErrorResponses, ApiKeyId, WebhookConfigSchema } from "../admin/adminRecords.ts";

export const adminWebhooksListSchema = {
  summary: "List webhook endpoints",
  description: "Header values are never returned. Admin token required.",
  tags: ["Admin"],
  security: ADMIN_SECURITY,
  querystring: Type.Object({ keyId: Type.Optional(ApiKeyId) }, { additionalProperties: false }),
  response: { 200: Type.Object({ webhooks: Type.Array(WebhookConfigSchema) }, { additionalProperties: false }), 404: ErrorBody, ...adminErrorResponses },
};

export function registerAdminWebhooksListRoute(app: FerryApp, options: { admin: WebhookAdmin }): void {
  app.get("/admin/webhooks", { schema: adminWebhooksListSchema }, async (request) => ({ webhooks: await options.admin.listWebhooks(request.query.keyId) }));
}

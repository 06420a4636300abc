/** DELETE /admin/webhooks/{keyId} — removes a key's webhook endpoint; 404 WEBHOOK_NOT_CONFIGURED when it has none. */
import { Type } from "typebox";
import type { WebhookAdmin } from "../../admin/webhookAdmin.ts";
import { NoQuery, type FerryApp } from "../ferryApp.ts";
import { ErrorBody } from "../httpErrors.ts";
import { ADMIN_SECURITY, adminErrorResponses, ApiKeyId } from "../admin/adminRecords.ts";

export const adminWebhooksClearSchema = {
  summary: "Clear a webhook endpoint",
  description: "Later events of the key's requests are not delivered (they are marked skipped). Admin token required.",
  tags: ["Admin"],
  security: ADMIN_SECURITY,
  params: Type.Object({ keyId: ApiKeyId }, { additionalProperties: false }),
  querystring: NoQuery,
  response: {
    200: Type.Object({ keyId: Type.String(), cleared: Type.Literal(true) }, { additionalProperties: false }),
    404: ErrorBody,
    ...adminErrorResponses,
  },
};

export function registerAdminWebhooksClearRoute(app: FerryApp, options: { admin: WebhookAdmin }): void {
  app.delete("/admin/webhooks/:keyId", { schema: adminWebhooksClearSchema }, async (request) => {
    await options.admin.clearWebhook(request.params.keyId);
    return { keyId: request.params.keyId, cleared: true as const };
  });
}

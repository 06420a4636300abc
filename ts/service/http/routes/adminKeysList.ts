/** GET /admin/keys — every API key (id, name, rate limit, created, revoked); never a key itself. */
import { Type } from "typebox";
import type { ApiKeyAdmin } from "../../admin/apiKeyAdmin.ts";
import { NoQuery, type FerryApp } from "../ferryApp.ts";
import { ADMIN_SECURITY, adminErrorResponses, ApiKeyRecordSchema } from "../admin/adminRecords.ts";

export const adminKeysListSchema = {
  summary: "List API keys",
  description: "Every API key, revoked ones included (with revokedAt). Admin token required.",
  tags: ["Admin"],
  security: ADMIN_SECURITY,
  querystring: NoQuery,
  response: { 200: Type.Object({ keys: Type.Array(ApiKeyRecordSchema) }, { additionalProperties: false }), ...adminErrorResponses },
};

export function registerAdminKeysListRoute(app: FerryApp, options: { admin: ApiKeyAdmin }): void {
  app.get("/admin/keys", { schema: adminKeysListSchema }, async () => ({ keys: await options.admin.listApiKeys() }));
}

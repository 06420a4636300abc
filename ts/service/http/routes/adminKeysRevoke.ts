/**
 * DELETE /admin/keys/{keyId} — revokes an API key (it stays listed). Idempotent: revoking a revoked
 * key answers 200 with `alreadyRevoked: true`; an unknown id is 404 UNKNOWN_API_KEY. A process that
 * verified the key just before may accept it for up to server.apiKeyCacheSeconds more.
 */
import { Type } from "typebox";
import type { ApiKeyAdmin } from "../../admin/apiKeyAdmin.ts";
import { NoQuery, type FerryApp } from "../ferryApp.ts";
import { ErrorBody } from "../httpErrors.ts";
import { ADMIN_SECURITY, adminErrorResponses, ApiKeyId, RevokedApiKeySchema } from "../admin/adminRecords.ts";

export const adminKeysRevokeSchema = {
  summary: "Revoke an API key",
  description: "Idempotent; 404 UNKNOWN_API_KEY for an unknown id. Admin token required.",
  tags: ["Admin"],
  security: ADMIN_SECURITY,
  params: Type.Object({ keyId: ApiKeyId }, { additionalProperties: false }),
  querystring: NoQuery,
  response: { 200: RevokedApiKeySchema, 404: ErrorBody, ...adminErrorResponses },
};

export function registerAdminKeysRevokeRoute(app: FerryApp, options: { admin: ApiKeyAdmin }): void {
  app.delete("/admin/keys/:keyId", { schema: adminKeysRevokeSchema }, async (request) => options.admin.revokeApiKey(request.params.keyId));
}

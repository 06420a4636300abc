/**
 * PUT /admin/keys/{keyId}/referrer {referrer} — ties a quote body's `referrer` to the key (null unties
 * it): anonymous quotes carrying it are attributed to the key, so its webhooks fire for requests made
 * through a client that sends `x-api-key` only to other hosts. 404 UNKNOWN_API_KEY for an unknown or
 * revoked key; 409 REFERRER_TAKEN when another key has it.
 */
import { Type } from "typebox";
import type { ApiKeyAdmin } from "../../admin/apiKeyAdmin.ts";
import { NoQuery, type FerryApp } from "../ferryApp.ts";
import { ErrorBody } from "../httpErrors.ts";
import { ADMIN_SECURITY, adminErrorResponses, ApiKeyId, ApiKeyReferrerSchema } from "../admin/adminRecords.ts";

export const adminKeysReferrerSchema = {
  summary: "Tie a referrer to an API key",
  description: "Attribution only (no rate limit, no privilege); one key per referrer. Admin token required.",
  tags: ["Admin"],
  security: ADMIN_SECURITY,
  params: Type.Object({ keyId: ApiKeyId }, { additionalProperties: false }),
  querystring: NoQuery,
  body: Type.Object({ referrer: Type.Union([Type.String({ minLength: 1, maxLength: 256 }), Type.Null()]) }, { additionalProperties: false }),
  response: { 200: ApiKeyReferrerSchema, 404: ErrorBody, 409: ErrorBody, ...adminErrorResponses },
};

export function registerAdminKeysReferrerRoute(app: FerryApp, options: { admin: ApiKeyAdmin }): void {
  app.put("/admin/keys/:keyId/referrer", { schema: adminKeysReferrerSchema }, async (request) => options.admin.setApiKeyReferrer(request.params.keyId, request.body.referrer));
}

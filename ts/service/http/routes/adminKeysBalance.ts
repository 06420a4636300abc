/**
 * GET /admin/keys/{keyId}/balance?limit=20 — an app's balance (USD micro-units, decimal strings) with
 * its latest ledger lines, for the operator (`ferry balances show <keyId>`). 404 UNKNOWN_API_KEY.
 */
import { Type } from "typebox";
import type { AppBalanceAdmin } from "../../admin/appBalanceAdmin.ts";
import type { FerryApp } from "../ferryApp.ts";
import { ErrorBody } from "../httpErrors.ts";
import { AppBalanceSchema } from "../appBalanceRecord.ts";
import { ADMIN_SECURITY, adminErrorResponses, ApiKeyId } from "../admin/adminRecords.ts";

export const adminKeysBalanceSchema = {
  summary: "An app's balance",
  description: "What the API key's app funded, holds, was debited and has available (USD micro-units), with its latest ledger lines. Admin token required.",
  tags: ["Admin"],
  security: ADMIN_SECURITY,
  params: Type.Object({ keyId: ApiKeyId }, { additionalProperties: false }),
  querystring: Type.Object({ limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 500, default: 20 })) }, { additionalProperties: false }),
  response: { 200: AppBalanceSchema, 404: ErrorBody, ...adminErrorResponses },
};

export function registerAdminKeysBalanceRoute(app: FerryApp, options: { admin: AppBalanceAdmin }): void {
  app.get("/admin/keys/:keyId/balance", { schema: adminKeysBalanceSchema }, async (request) => options.admin.appBalance(request.params.keyId, request.query.limit ?? 20));
}

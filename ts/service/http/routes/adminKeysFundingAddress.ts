/**
 * PUT /admin/keys/{keyId}/funding-address {fundingAddress} — where the app's balance withdrawals are
 * paid (null clears it: withdrawals are then refused with 409 APP_FUNDING_ADDRESS_MISSING). Only the
 * operator sets it; POST /app-balance/withdrawals never takes a recipient. 404 UNKNOWN_API_KEY.
 */
import { Type } from "typebox";
import type { AppBalanceAdmin } from "../../admin/appBalanceAdmin.ts";
import { Address } from "../../model/values.ts";
import { NoQuery, type FerryApp } from "../ferryApp.ts";
import { ErrorBody } from "../httpErrors.ts";
import { ADMIN_SECURITY, adminErrorResponses, ApiKeyId } from "../admin/adminRecords.ts";

export const adminKeysFundingAddressSchema = {
  summary: "Set an API key's funding address",
  description: "The address the app's balance withdrawals are paid to (null clears it). Admin token required.",
  tags: ["Admin"],
  security: ADMIN_SECURITY,
  params: Type.Object({ keyId: ApiKeyId }, { additionalProperties: false }),
  querystring: NoQuery,
  body: Type.Object({ fundingAddress: Type.Union([Address, Type.Null()]) }, { additionalProperties: false }),
  response: {
    200: Type.Object({ id: Type.String(), fundingAddress: Type.Union([Type.String(), Type.Null()]) }, { additionalProperties: false }),
    404: ErrorBody,
    ...adminErrorResponses,
  },
};

export function registerAdminKeysFundingAddressRoute(app: FerryApp, options: { admin: AppBalanceAdmin }): void {
  app.put("/admin/keys/:keyId/funding-address", { schema: adminKeysFundingAddressSchema }, async (request) =>
    options.admin.setApiKeyFundingAddress(request.params.keyId, request.body.fundingAddress),
  );
}

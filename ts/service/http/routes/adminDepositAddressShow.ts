/**
 * GET /admin/deposit-addresses/{address} — one deposit address on every chain where the service handed
 * it out: what it is bound to and each payment it saw with its outcome (forwarded, or a refund and its
 * state, reason and transaction). 404 DEPOSIT_ADDRESS_NOT_FOUND for an address the service never
 * handed out. `ferry deposit-addresses show` prints it.
 */
import { Type } from "typebox";
import type { DepositAddressAdmin } from "../../admin/depositAddressAdmin.ts";
import { CanonicalHexOf } from "../../model/values.ts";
import { NoQuery, type FerryApp } from "../ferryApp.ts";
import { ErrorBody } from "../httpErrors.ts";
import { ADMIN_SECURITY, adminErrorResponses, DepositAddressViewSchema } from "../admin/adminRecords.ts";

export const adminDepositAddressShowSchema = {
  summary: "Show a deposit address and its payments",
  description: "Admin token required.",
  tags: ["Admin"],
  security: ADMIN_SECURITY,
  params: Type.Object({ address: CanonicalHexOf(Type.String({ pattern: "^0x[0-9a-fA-F]{40}$", description: "The deposit address" })) }, { additionalProperties: false }),
  querystring: NoQuery,
  response: { 200: Type.Object({ depositAddresses: Type.Array(DepositAddressViewSchema) }, { additionalProperties: false }), 404: ErrorBody, ...adminErrorResponses },
};

export function registerAdminDepositAddressShowRoute(app: FerryApp, options: { admin: DepositAddressAdmin }): void {
  app.get("/admin/deposit-addresses/:address", { schema: adminDepositAddressShowSchema }, async (request) => ({
    depositAddresses: await options.admin.showDepositAddress(request.params.address),
  }));
}

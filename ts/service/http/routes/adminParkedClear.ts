/**
 * DELETE /admin/requests/parked/{requestId} — unparks a request once its cause is fixed: the solver
 * takes it up again at its next tick. Answers the request as it was parked; 404 REQUEST_NOT_FOUND,
 * 409 REQUEST_NOT_PARKED, 409 REQUEST_DEPOSIT_GONE (a request whose deposit a deep reorg removed stays parked).
 */
import { Type } from "typebox";
import type { ParkedAdmin } from "../../admin/parkedAdmin.ts";
import { CanonicalHexOf } from "../../model/values.ts";
import { NoQuery, type FerryApp } from "../ferryApp.ts";
import { ErrorBody } from "../httpErrors.ts";
import { ADMIN_SECURITY, adminErrorResponses, ParkedRequestSchema, RequestIdParam } from "../admin/adminRecords.ts";

export const adminParkedClearSchema = {
  summary: "Unpark a request",
  description: "Admin token required.",
  tags: ["Admin"],
  security: ADMIN_SECURITY,
  params: Type.Object({ requestId: CanonicalHexOf(RequestIdParam) }, { additionalProperties: false }),
  querystring: NoQuery,
  response: { 200: Type.Object({ request: ParkedRequestSchema }, { additionalProperties: false }), 404: ErrorBody, 409: ErrorBody, ...adminErrorResponses },
};

export function registerAdminParkedClearRoute(app: FerryApp, options: { admin: ParkedAdmin }): void {
  app.delete("/admin/requests/parked/:requestId", { schema: adminParkedClearSchema }, async (request) => ({
    request: await options.admin.unparkRequest(request.params.requestId),
  }));
}

/**
 * GET /admin/requests/parked[?limit=] — requests the solver parked on a non-retryable error (the
 * error's code and message, when), most recent first; `ferry_solver_parked_requests` in /metrics
 * counts them.
 */
import { Type } from "typebox";
import type { ParkedAdmin } from "../../admin/parkedAdmin.ts";
import type { FerryApp } from "../ferryApp.ts";
import { ADMIN_SECURITY, adminErrorResponses, ParkedRequestSchema } from "../admin/adminRecords.ts";

export const adminParkedListSchema = {
  summary: "List parked requests",
  description: "Admin token required.",
  tags: ["Admin"],
  security: ADMIN_SECURITY,
  querystring: Type.Object({ limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 1000, default: 100 })) }, { additionalProperties: false }),
  response: { 200: Type.Object({ requests: Type.Array(ParkedRequestSchema) }, { additionalProperties: false }), ...adminErrorResponses },
};

export function registerAdminParkedListRoute(app: FerryApp, options: { admin: ParkedAdmin }): void {
  app.get("/admin/requests/parked", { schema: adminParkedListSchema }, async (request) => ({
    requests: await options.admin.listParkedRequests(request.query.limit),
  }));
}

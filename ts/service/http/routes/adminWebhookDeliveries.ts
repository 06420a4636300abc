/**
 * GET /admin/webhooks/deliveries?eventId= | ?requestId= — the delivery log: state, attempts in the
 * current round, next attempt, last status code or error, and every attempt (time, status code,
 * error, duration). Exactly one of the two parameters (else 400 INVALID_REQUEST); 404 UNKNOWN_EVENT /
 * REQUEST_NOT_FOUND.
 */
import { Type } from "typebox";
import type { WebhookAdmin } from "../../admin/webhookAdmin.ts";
import { ServiceError } from "../../errors/serviceError.ts";
import { CanonicalHexOf } from "../../model/values.ts";
import type { FerryApp } from "../ferryApp.ts";
import { ErrorBody } from "../httpErrors.ts";
import { ADMIN_SECURITY, adminErrorResponses, DeliveryLogSchema, RequestIdParam } from "../admin/adminRecords.ts";

export const adminWebhookDeliveriesSchema = {
  summary: "Webhook delivery log",
  description: "One event's deliveries (eventId) or every event of a request, oldest first (requestId). Admin token required.",
  tags: ["Admin"],
  security: ADMIN_SECURITY,
  querystring: Type.Object(
    {
      eventId: Type.Optional(Type.Integer({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER, description: "An outbox event id" })),
      requestId: Type.Optional(CanonicalHexOf(RequestIdParam)),
    },
    { additionalProperties: false },
  ),
  response: { 200: Type.Object({ deliveries: Type.Array(DeliveryLogSchema) }, { additionalProperties: false }), 404: ErrorBody, ...adminErrorResponses },
};

export function registerAdminWebhookDeliveriesRoute(app: FerryApp, options: { admin: WebhookAdmin }): void {
  app.get("/admin/webhooks/deliveries", { schema: adminWebhookDeliveriesSchema }, async (request) => {
    const { eventId, requestId } = request.query;
    if ((eventId === undefined) === (requestId === undefined)) throw new ServiceError("INVALID_REQUEST", "querystring: give exactly one of eventId and requestId");
    return { deliveries: await options.admin.deliveryLog(eventId !== undefined ? { eventId } : { requestId: requestId! }) };
  });
}

/**
 * POST /admin/webhooks/redeliver {eventId} | {since} — starts a new delivery round for one event, or
 * for every event created since an ISO 8601 time (attempts back to 0, the attempt log kept); an event
 * whose attempt is in flight is left alone. Exactly one of the two fields (else 400); 404 UNKNOWN_EVENT.
 */
import { Type } from "typebox";
import type { WebhookAdmin } from "../../admin/webhookAdmin.ts";
import { ServiceError } from "../../errors/serviceError.ts";
import { NoQuery, type FerryApp } from "../ferryApp.ts";
import { bodyErrorResponses, ErrorBody } from "../httpErrors.ts";
import { ADMIN_SECURITY, adminErrorResponses } from "../admin/adminRecords.ts";

export const AdminWebhooksRedeliverBody = Type.Object(
  {
    eventId: Type.Optional(Type.Integer({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER })),
    since: Type.Optional(Type.String({ format: "date-time", maxLength: 40, description: "ISO 8601 with a time zone" })),
  },
  { additionalProperties: false },
);

export const adminWebhooksRedeliverSchema = {
  summary: "Redeliver webhook events",
  description: "Admin token required.",
  tags: ["Admin"],
  security: ADMIN_SECURITY,
  querystring: NoQuery,
  body: AdminWebhooksRedeliverBody,
  response: {
    200: Type.Object(
      {
        eventId: Type.Optional(Type.Integer()),
        since: Type.Optional(Type.String()),
        redelivered: Type.Integer({ description: "Events queued again (0: the event's attempt is in flight; try later)" }),
      },
      { additionalProperties: false },
    ),
    404: ErrorBody,
    ...bodyErrorResponses,
    ...adminErrorResponses,
  },
};

export function registerAdminWebhooksRedeliverRoute(app: FerryApp, options: { admin: WebhookAdmin }): void {
  app.post("/admin/webhooks/redeliver", { schema: adminWebhooksRedeliverSchema }, async (request) => {
    const { eventId, since } = request.body;
    if ((eventId === undefined) === (since === undefined)) throw new ServiceError("INVALID_REQUEST", "body: give exactly one of eventId and since");
    if (eventId !== undefined) return { eventId, redelivered: await options.admin.redeliver({ eventId }) };
    const time = new Date(since!);
    if (Number.isNaN(time.getTime())) throw new ServiceError("INVALID_REQUEST", "body/since is not a valid date-time");
    return { since: time.toISOString(), redelivered: await options.admin.redeliver({ since: time }) };
  });
}

/**
 * GET /requests/{requestId}/webhook-deliveries — the caller's own webhook delivery log of one request
 * (x-api-key required): every event of the request sent to the caller key's endpoint, oldest first,
 * with each attempt (time, status code or error, duration). Only the events of requests that belong
 * to the caller's key: another key's request, or one quoted without a key, has none (`[]`), so the
 * answer says nothing about who else a request belongs to. The explorer page shows it when the visitor
 * types their key (kept in the page's memory only; the header is redacted from the request log).
 *
 * 401 API_KEY_REQUIRED without a key, 401 INVALID_API_KEY with a wrong one, 404 REQUEST_NOT_FOUND.
 */
import { Type } from "typebox";
import { RequestId } from "../../model/publicRecords.ts";
import { CanonicalHexOf } from "../../model/values.ts";
import { ServiceError } from "../../errors/serviceError.ts";
import type { Store } from "../../store/createStore.ts";
import { RequestNotFoundError } from "../../store/errors.ts";
import { webhookStore } from "../../store/webhooks/webhooks.ts";
import { DeliveryLogSchema } from "../admin/adminRecords.ts";
import type { FerryApp } from "../ferryApp.ts";
import { NoQuery } from "../ferryApp.ts";
import { commonErrorResponses, ErrorBody } from "../httpErrors.ts";

/** A request's events are a handful (one per public status change). */
const MAX_EVENTS = 100;

export const requestWebhookDeliveriesSchema = {
  summary: "The caller's webhook deliveries of a request",
  description:
    "Every event of the request delivered (or being delivered) to the endpoint of the API key in x-api-key, oldest first, with each attempt. " +
    "Only requests of the caller's key have any: another key's request answers `deliveries: []`. 401 API_KEY_REQUIRED without a key; 404 REQUEST_NOT_FOUND.",
  tags: ["Requests"],
  params: Type.Object({ requestId: CanonicalHexOf(RequestId) }, { additionalProperties: false }),
  querystring: NoQuery,
  response: { 200: Type.Object({ deliveries: Type.Array(DeliveryLogSchema) }, { additionalProperties: false }), 404: ErrorBody, ...commonErrorResponses },
};

export function registerRequestWebhookDeliveriesRoute(app: FerryApp, options: { store: Store }): void {
  // Reading deliveries needs no webhook secret: the store is opened without one.
  const webhooks = webhookStore(options.store, { allowHttp: false });
  app.get("/requests/:requestId/webhook-deliveries", { schema: requestWebhookDeliveriesSchema }, async (request) => {
    if (!request.apiKey) throw new ServiceError("API_KEY_REQUIRED", "the webhook delivery log is the caller's own: send the API key in x-api-key");
    const { requestId } = request.params;
    if ((await options.store.getRequest(requestId)) === null) throw new RequestNotFoundError(requestId);
    const deliveries = (await webhooks.listDeliveries({ requestId, keyId: request.apiKey.id, limit: MAX_EVENTS })).reverse();
    const withAttempts = [];
    for (const delivery of deliveries) withAttempts.push({ ...delivery, attemptLog: await webhooks.listAttempts(delivery.eventId) });
    return { deliveries: withAttempts };
  });
}

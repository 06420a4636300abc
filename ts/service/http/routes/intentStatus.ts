/**
 * GET /intents/status/v3?requestId= — the spec's Status record of a stored request. The relative form
 * `GET /intents/status?requestId=` (a quote's `check.endpoint` may use it) is the same handler.
 */
import { Type } from "typebox";
import type { Store } from "../../store/createStore.ts";
import type { FerryApp } from "../ferryApp.ts";
import { commonErrorResponses, ErrorBody, HttpError, HttpErrorCode } from "../httpErrors.ts";
import { RequestId, StatusRecord, toStatusRecord } from "../requestRecord.ts";

export const intentStatusSchema = {
  summary: "Intent status",
  description:
    "The status of a request. 404 REQUEST_NOT_FOUND for an unknown requestId; 400 for a malformed one. Poll about once per second.",
  tags: ["Status"],
  querystring: Type.Object({ requestId: RequestId }, { additionalProperties: false }),
  response: { 200: StatusRecord, 404: ErrorBody, ...commonErrorResponses },
};

export function registerIntentStatusRoutes(app: FerryApp, options: { store: Store }): void {
  for (const url of ["/intents/status/v3", "/intents/status"]) {
    app.get(url, { schema: intentStatusSchema }, async (request) => {
      const requestId = request.query.requestId.toLowerCase();
      const stored = await options.store.getRequest(requestId);
      if (!stored) throw new HttpError(404, HttpErrorCode.REQUEST_NOT_FOUND, `request not found: ${requestId}`);
      return toStatusRecord(stored);
    });
  }
}

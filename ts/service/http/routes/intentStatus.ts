/**
 * GET /intents/status/v3?requestId= — the spec's Status record of a stored request. The relative form
 * `GET /intents/status?requestId=` (a quote's `check.endpoint` may use it) is the same handler.
 * A requestId that was quoted but whose deposit is not indexed yet (no request row) is `waiting`,
 * built from the quote (chain ids, no hashes, `updatedAt` = quote time) — also after the quote
 * expired, until a deposit shows up (the solver then refunds it). Never quoted: 404.
 * Records come from the status cache (../statusRecordCache.ts: this process's writes show at once,
 * other processes' within `server.statusCacheRefreshMs`).
 * With the chain watch, an open request on a chain that is disabled or lagging carries
 * `details.chainIncident` (../statusChainIncident.ts); only then is the cached record parsed again.
 */
import { Type } from "typebox";
import type { FerryApp } from "../ferryApp.ts";
import { commonErrorResponses, ErrorBody } from "../httpErrors.ts";
import { RequestId, StatusRecord } from "../../model/publicRecords.ts";
import { ServiceError } from "../../errors/serviceError.ts";
import type { StatusRecordCache } from "../statusRecordCache.ts";
import { CanonicalHexOf } from "../../model/values.ts";
import type { ChainWatch } from "../../chains/chainWatch.ts";
import { withChainIncident } from "../statusChainIncident.ts";

export const intentStatusSchema = {
  summary: "Intent status",
  description:
    "The status of a request. A quoted requestId whose deposit is not indexed yet is `waiting`. " +
    "404 REQUEST_NOT_FOUND for a requestId never quoted; 400 for a malformed one. Poll about once per second.",
  tags: ["Status"],
  // `referrer`: @relayprotocol/relay-sdk appends `&referrer=<source>` to check.endpoint; accepted and ignored.
  querystring: Type.Object({ requestId: CanonicalHexOf(RequestId), referrer: Type.Optional(Type.String({ maxLength: 256 })) }, { additionalProperties: false }),
  response: { 200: StatusRecord, 404: ErrorBody, ...commonErrorResponses },
};

export function registerIntentStatusRoutes(app: FerryApp, options: { statusRecords: StatusRecordCache; watch?: { chainIds: readonly number[]; health: ChainWatch["health"] } }): void {
  const watch = options.watch;
  const anyIncident = () => watch !== undefined && watch.chainIds.some((chainId) => watch.health(chainId)?.reason);
  for (const url of ["/intents/status/v3", "/intents/status"]) {
    app.get(url, { schema: intentStatusSchema }, async (request, reply) => {
      const requestId = request.query.requestId;
      // The record arrives serialized (../statusRecordCache.ts): Fastify sends a string with a JSON
      // content type as is, without running the response serializer again (hence the cast).
      const body = await options.statusRecords.read(requestId);
      if (body === undefined) throw new ServiceError("REQUEST_NOT_FOUND", `request not found: ${requestId}`);
      if (watch && anyIncident()) return withChainIncident(JSON.parse(body) as StatusRecord, watch.health);
      return reply.type("application/json; charset=utf-8").send(body as unknown as StatusRecord);
    });
  }
}

/**
 * GET /explorer and GET /explorer/requests/{requestId} — the explorer page (../../../explorer): one
 * HTML document for both; its script reads the path. `/explorer?q=` searches by request id,
 * transaction hash or user address (GET /requests/v2); `/explorer/requests/{id}` shows a request.
 *
 * The document may load nothing but this origin's files, and its script may call nothing but this
 * origin (the Content-Security-Policy below), so it works offline and no record leaks to a third
 * party. A malformed requestId is the API's 400 INVALID_REQUEST, like every route's.
 */
import { Type } from "typebox";
import { RequestId } from "../../model/publicRecords.ts";
import { CanonicalHexOf } from "../../model/values.ts";
import type { ExplorerFiles } from "../explorerAssets.ts";
import type { FerryApp } from "../ferryApp.ts";
import { NoQuery } from "../ferryApp.ts";
import { commonErrorResponses, ErrorBody } from "../httpErrors.ts";

/** Only this origin: scripts, styles, fetches, forms; no frames around it, no base URL, no plugins. */
export const EXPLORER_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "connect-src 'self'",
  "img-src 'self'",
  "form-action 'self'",
  "base-uri 'none'",
  "frame-ancestors 'none'",
].join("; ");

/** Headers of every explorer answer (the page and its assets). */
export const EXPLORER_HEADERS = {
  "content-security-policy": EXPLORER_CSP,
  "x-content-type-options": "nosniff",
  "referrer-policy": "no-referrer",
  "cache-control": "no-cache",
} as const;

const Html = { description: "The explorer page (HTML)", content: { "text/html": { schema: Type.String() } } };
const strict = { additionalProperties: false } as const;

export const explorerSearchSchema = {
  summary: "Explorer: search",
  description:
    "The explorer's HTML page. With `q` (a request id, a transaction hash or a user address) its script lists the matching requests from GET /requests/v2. " +
    "Everything it loads and calls is on this origin (Content-Security-Policy).",
  tags: ["Explorer"],
  produces: ["text/html"],
  querystring: Type.Object({ q: Type.Optional(Type.String({ maxLength: 200, description: "request id, transaction hash or user address" })) }, strict),
  response: { 200: Html, ...commonErrorResponses },
};

export const explorerRequestSchema = {
  summary: "Explorer: a request",
  description:
    "The explorer's HTML page of one request: the lifecycle as a timeline, the deposit, fill, refund and repayment transactions, the solver's decision and its reason, a decoded revert, " +
    "the receipt's attestation verified in the browser by ferry/core verifyReceipt, and the visitor's webhook delivery log when they type their API key. Reads the JSON routes of this origin only.",
  tags: ["Explorer"],
  produces: ["text/html"],
  params: Type.Object({ requestId: CanonicalHexOf(RequestId) }, strict),
  querystring: NoQuery,
  response: { 200: Html, 503: ErrorBody, ...commonErrorResponses },
};

export function registerExplorerPageRoutes(app: FerryApp, options: { files: ExplorerFiles }): void {
  const page = () => options.files.html();
  app.get("/explorer", { schema: explorerSearchSchema }, async (_request, reply) => reply.headers(EXPLORER_HEADERS).type("text/html; charset=utf-8").send(await page()));
  app.get("/explorer/requests/:requestId", { schema: explorerRequestSchema }, async (_request, reply) =>
    reply.headers(EXPLORER_HEADERS).type("text/html; charset=utf-8").send(await page()),
  );
}

/**
 * GET /llms.txt — the API described for a language model (the llms.txt convention: a title, a
 * one-paragraph summary, then sections of links and notes), in text/plain. Nothing in it is written
 * by hand twice: the routes are the OpenAPI document's operations (method, path, summary — what
 * GET /openapi.json serves, so a route added, hidden or removed changes this file with it) and the
 * error codes are the error registry's, each with its HTTP status and whether retrying can help.
 * Rendered once, at the first request (the document is complete once the app is ready).
 */
import { Type } from "typebox";
import { ERROR_REGISTRY } from "../../errors/errorRegistry.ts";
import type { FerryApp } from "../ferryApp.ts";
import { NoQuery } from "../ferryApp.ts";
import { commonErrorResponses } from "../httpErrors.ts";

export const llmsTxtSchema = {
  summary: "The API for language models (llms.txt)",
  description: "What the API does, every route, the error codes and links to the OpenAPI document, as plain text.",
  tags: ["Operations"],
  querystring: NoQuery,
  produces: ["text/plain"],
  response: {
    200: { description: "llms.txt (Markdown)", content: { "text/plain": { schema: Type.String() } } },
    ...commonErrorResponses,
  },
};

type OpenApiOperation = { summary?: string };
type OpenApiDocument = { info: { title: string; version: string; description?: string }; paths: Record<string, Record<string, OpenApiOperation>> };

const METHODS = ["get", "post", "put", "patch", "delete"] as const;

const INTRO = [
  "Ferry is a self-hostable cross-chain intent execution service. A user states an intent (a bridge,",
  "a swap or a call on another chain); Ferry quotes it; the user deposits into the Depository contract",
  "on the origin chain; Ferry's solver fills on the destination chain and is repaid from the deposit,",
  "or the deposit is refunded when the fill cannot happen.",
].join(" ");

const HOW_TO = [
  "1. `GET /chains`: the chains, their currencies and contract addresses.",
  "2. `POST /quote/v2` with user, recipient, originChainId, destinationChainId, originCurrency, destinationCurrency, amount (base units, decimal string) and tradeType (EXACT_INPUT or EXACT_OUTPUT): the answer's `steps` are the transactions (or signatures) the user's wallet sends, in order.",
  "3. Follow the request: each step item's `check.endpoint` (`GET /intents/status/v3?requestId=…`) until `success`, `failure` or `refund`; the websocket at `/ws` and signed webhooks carry the same status changes.",
  "4. `GET /requests/v2` lists requests (filters: user, id, chain, time; `continuation` pages on). A failed or refunded request's `data.failReason` (and `refundFailReason`, `details`) says why.",
];

/**
 * The text, from the app's OpenAPI document and the error registry. Pure given its arguments.
 * `websocketPath`: the websocket's path when it is served (it is not an OpenAPI operation).
 */
export function renderLlmsTxt(document: OpenApiDocument, options: { websocketPath?: string } = {}): string {
  const lines: string[] = [`# ${document.info.title} API ${document.info.version}`, "", `> ${INTRO}`, ""];
  if (document.info.description) lines.push(document.info.description, "");
  lines.push(
    "## Docs",
    "",
    "- [OpenAPI document](/openapi.json): every route with its request and response schemas (OpenAPI 3)",
    "- [API reference](/docs): the same document rendered",
    "- Errors are JSON `{message, errorCode}` with the HTTP status below; tests and clients should branch on `errorCode`, never on `message`.",
    "",
    "## How to bridge",
    "",
    ...HOW_TO,
    "",
    "## Routes",
    "",
  );
  const admin: string[] = [];
  for (const [path, operations] of Object.entries(document.paths)) {
    for (const method of METHODS) {
      const operation = operations[method];
      if (!operation) continue;
      const line = `- \`${method.toUpperCase()} ${path.replace(/\{([^}]+)\}/g, ":$1")}\`${operation.summary ? `: ${oneLine(operation.summary)}` : ""}`;
      (path.startsWith("/admin/") ? admin : lines).push(line);
    }
  }
  if (options.websocketPath) lines.push(`- \`GET ${options.websocketPath}\` (websocket): request status changes as they happen; subscribe to a request id (the same events as the webhooks)`);
  lines.push("");
  if (admin.length > 0) lines.push("## Operator routes (Authorization: Bearer <admin token>)", "", ...admin, "");
  lines.push("## Error codes", "", "`errorCode` — HTTP status — whether the same call may succeed later unchanged:", "");
  for (const [code, policy] of Object.entries(ERROR_REGISTRY)) {
    lines.push(`- \`${code}\` — ${policy.status} — ${policy.retryable ? "retryable" : "not retryable"}`);
  }
  lines.push("");
  return lines.join("\n");
}

const oneLine = (text: string) => text.replace(/\s+/g, " ").trim();

export function registerLlmsTxtRoute(app: FerryApp, options: { websocketPath?: string } = {}): void {
  let rendered: string | undefined;
  app.get("/llms.txt", { schema: llmsTxtSchema }, async (_request, reply) => {
    rendered ??= renderLlmsTxt(app.swagger() as unknown as OpenApiDocument, options);
    return reply.type("text/plain; charset=utf-8").send(rendered);
  });
}

/**
 * GET /explorer/assets/explorer.js and GET /explorer/assets/explorer.css — the explorer page's script
 * (the browser bundle of ts/explorer with the ts/core code that verifies receipts, built ahead: ../explorerAssets.ts)
 * and stylesheet, served by the service itself: no CDN, nothing from another origin.
 */
import { Type } from "typebox";
import type { ExplorerFiles } from "../explorerAssets.ts";
import type { FerryApp } from "../ferryApp.ts";
import { NoQuery } from "../ferryApp.ts";
import { commonErrorResponses, ErrorBody } from "../httpErrors.ts";
import { EXPLORER_HEADERS } from "./explorerPage.ts";

const asset = (summary: string, type: string, description: string) => ({
  summary,
  description,
  tags: ["Explorer"],
  produces: [type],
  querystring: NoQuery,
  response: { 200: { description: summary, content: { [type]: { schema: Type.String() } } }, 503: ErrorBody, ...commonErrorResponses },
});

export const explorerScriptSchema = asset(
  "Explorer: the page's script",
  "text/javascript",
  "One ES module: the page's code with ferry/core's verifyReceipt, bundled for the browser. 503 EXPLORER_UNAVAILABLE in a source checkout where it was never bundled (npm run build:explorer).",
);
export const explorerStyleSchema = asset("Explorer: the page's stylesheet", "text/css", "The page's CSS.");

export function registerExplorerAssetRoutes(app: FerryApp, options: { files: ExplorerFiles }): void {
  app.get("/explorer/assets/explorer.js", { schema: explorerScriptSchema }, async (_request, reply) =>
    reply.headers(EXPLORER_HEADERS).type("text/javascript; charset=utf-8").send(await options.files.script()),
  );
  app.get("/explorer/assets/explorer.css", { schema: explorerStyleSchema }, async (_request, reply) =>
    reply.headers(EXPLORER_HEADERS).type("text/css; charset=utf-8").send(await options.files.css()),
  );
}

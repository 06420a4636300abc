/**
 * CORS for browser dApps (@fastify/cors): the API is made to be called from pages on other origins
 * (a wallet UI quoting and polling), so by default every origin may call it (`server.corsOrigins`
 * `["*"]`). That is safe because Ferry takes no ambient credentials: no cookies, no HTTP auth — an API
 * key travels only in `x-api-key`, which a page must add itself — so a page on any origin can do
 * nothing its own server could not; credentials are never allowed (`Access-Control-Allow-Credentials`
 * is not sent). An operator narrows it to a list of exact origins, or turns it off with `[]`.
 *
 * - Preflights (OPTIONS with `Access-Control-Request-Method`) of any path: 204, methods GET/POST,
 *   headers `content-type` and `x-api-key`, cached by the browser for 10 minutes.
 * - The headers are set in `onRequest`, before anything can fail, so errors (400, 401, 404, 429, …)
 *   carry them too and a page can read their `{message, errorCode}`; `Retry-After` and the rate-limit
 *   headers are exposed.
 */
import cors from "@fastify/cors";
import type { FastifyInstance } from "fastify";

export const CORS_MAX_AGE_SECONDS = 600;

export async function installCors(app: FastifyInstance, origins: readonly string[]): Promise<void> {
  if (origins.length === 0) return;
  await app.register(cors, {
    origin: origins.includes("*") ? "*" : [...origins],
    methods: ["GET", "POST"],
    allowedHeaders: ["content-type", "x-api-key"],
    exposedHeaders: ["retry-after", "x-ratelimit-limit", "x-ratelimit-remaining", "x-ratelimit-reset"],
    credentials: false,
    maxAge: CORS_MAX_AGE_SECONDS,
    // The preflight route stays out of /openapi.json.
    hideOptionsRoute: true,
    // A bare OPTIONS (no Origin / Access-Control-Request-Method) is answered 204 like a preflight
    // rather than with the plugin's text/plain 400: OPTIONS changes nothing, and every error is JSON.
    strictPreflight: false,
  });
}

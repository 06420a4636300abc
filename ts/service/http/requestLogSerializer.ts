/**
 * Fastify's request log serializer, with the URL's `apiKey` query parameter redacted. Browsers cannot
 * set headers on a websocket, so the websocket (../websocket/websocketRoute.ts) takes its API key as
 * the `apiKey` query parameter — which would otherwise reach the request log with the URL. `redactApiKeyQuery` blanks
 * it out of a URL, and `requestLogSerializer` is Fastify's request serializer with the URL so
 * redacted (the app installs it for every request, not only the websocket's).
 */
import type { FastifyRequest } from "fastify";

const API_KEY_PARAM = /([?&]apikey=)[^&#]*/gi;

export function redactApiKeyQuery(url: string): string {
  return url.replace(API_KEY_PARAM, "$1[redacted]");
}

/** The fields Fastify's default `req` serializer logs, with the URL's `apiKey` redacted. */
export function requestLogSerializer(request: FastifyRequest): Record<string, unknown> {
  return {
    method: request.method,
    url: redactApiKeyQuery(request.url),
    version: request.headers?.["accept-version"],
    host: request.host,
    remoteAddress: request.ip,
    remotePort: request.socket?.remotePort,
  };
}

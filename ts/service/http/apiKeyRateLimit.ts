/**
 * API keys and rate limits. A request without `x-api-key` is limited per client IP
 * (`rateLimits.anonymousPerMinute`); with a valid key, per key (`rateLimits.apiKeyPerMinute`); with an
 * unknown key it is answered 401 INVALID_API_KEY — after being counted against its IP's anonymous
 * budget, so guessing keys is rate-limited too. Over the limit: 429 RATE_LIMITED with `Retry-After`
 * (seconds). Keys are verified by an injected `ApiKeyVerifier` (the store holds them as hashes).
 */
import rateLimit from "@fastify/rate-limit";
import type { FastifyInstance, FastifyRequest } from "fastify";
import { ServiceError } from "../errors/serviceError.ts";
import type { ApiKey, ApiKeyVerifier } from "../store/apiKeys.ts";

/** No API keys: every key is unknown. */
export const NO_API_KEYS: ApiKeyVerifier = { verify: async () => undefined };

declare module "fastify" {
  interface FastifyRequest {
    /** Set when the request carries a valid `x-api-key`. */
    apiKey: ApiKey | undefined;
    apiKeyRejected: boolean;
  }
}

const MAX_API_KEY_LENGTH = 256;

export async function installApiKeyRateLimit(
  app: FastifyInstance,
  options: { apiKeys: ApiKeyVerifier; anonymousPerMinute: number; apiKeyPerMinute: number },
): Promise<void> {
  app.decorateRequest("apiKey", undefined);
  app.decorateRequest("apiKeyRejected", false);

  // Global onRequest hooks run before the route-level hook the rate limiter adds.
  app.addHook("onRequest", async (request) => {
    const header = request.headers["x-api-key"];
    if (header === undefined) return;
    const key = Array.isArray(header) ? header[0] : header;
    const apiKey = key && key.length <= MAX_API_KEY_LENGTH ? await options.apiKeys.verify(key) : undefined;
    if (apiKey) request.apiKey = apiKey;
    else request.apiKeyRejected = true;
  });

  await app.register(rateLimit, {
    global: true,
    timeWindow: 60_000,
    max: async (request: FastifyRequest) =>
      request.apiKey ? (request.apiKey.rateLimit ?? options.apiKeyPerMinute) : options.anonymousPerMinute,
    keyGenerator: (request: FastifyRequest) => (request.apiKey ? `key:${request.apiKey.id}` : `ip:${request.ip}`),
    errorResponseBuilder: (_request, context) =>
      new ServiceError("RATE_LIMITED", `rate limit exceeded: retry in ${context.after}`),
  });

  app.addHook("preParsing", async (request) => {
    if (request.apiKeyRejected) throw new ServiceError("INVALID_API_KEY", "x-api-key is not a valid API key");
  });
}

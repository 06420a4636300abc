/**
 * Text a request carries must be text the service can keep: the query string is valid percent-encoded
 * UTF-8 (the parser would otherwise turn a bad escape or an invalid byte sequence into U+FFFD without
 * a word), and every string of the query, the path params and the body — object keys included — is
 * storable (../model/values.ts `isStorableText`: no NUL, no unpaired surrogate). Anything else is a 400
 * INVALID_REQUEST naming the field, for every route, so no such string reaches a store (where
 * PostgreSQL answers 22P05 and PGlite may not) or a log.
 *
 * The walk runs after schema validation (a preHandler): bodies are then bounded by their schemas, so a
 * body that fails its schema is never walked.
 */
import type { FastifyRequest } from "fastify";
import { ServiceError } from "../errors/serviceError.ts";
import { isStorableText } from "../model/values.ts";
import type { FerryApp } from "./ferryApp.ts";

/** The path (`body/referrer`, `querystring/user`, `body/appFees/0/recipient`) of the first string that is not storable text, or undefined. */
export function firstUnstorableText(value: unknown, path: string): string | undefined {
  if (typeof value === "string") return isStorableText(value) ? undefined : path;
  if (typeof value !== "object" || value === null) return undefined;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const found = firstUnstorableText(value[i], `${path}/${i}`);
      if (found) return found;
    }
    return undefined;
  }
  for (const key of Object.keys(value)) {
    if (!isStorableText(key)) return `${path} (a field name)`;
    const found = firstUnstorableText((value as Record<string, unknown>)[key], `${path}/${key}`);
    if (found) return found;
  }
  return undefined;
}

/** Whether the query part of a URL decodes as percent-encoded UTF-8. */
export function isWellEncodedQuery(url: string): boolean {
  const start = url.indexOf("?");
  if (start < 0) return true;
  try {
    decodeURIComponent(url.slice(start + 1));
    return true;
  } catch {
    return false;
  }
}

export function installWellFormedText(app: FerryApp): void {
  app.addHook("preValidation", async (request: FastifyRequest) => {
    if (!isWellEncodedQuery(request.url)) throw new ServiceError("INVALID_REQUEST", "querystring is not valid percent-encoded UTF-8");
  });
  app.addHook("preHandler", async (request: FastifyRequest) => {
    const bad =
      firstUnstorableText(request.query, "querystring") ?? firstUnstorableText(request.params, "params") ?? firstUnstorableText(request.body, "body");
    if (bad) throw new ServiceError("INVALID_REQUEST", `${bad} must be text without NUL or unpaired surrogate characters`);
  });
}

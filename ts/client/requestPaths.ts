/**
 * Pure path builders of the client: the GET /requests/v2 query string and the status path of a
 * quote item's `check.endpoint`.
 */
import type { RequestFilters } from "./apiTypes.ts";

/** `?k=v&…` for the defined filters (booleans and numbers as strings), or "" when there are none. */
export function requestsQueryString(filters: RequestFilters): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(filters)) {
    if (value === undefined || value === null) continue;
    params.set(key, String(value));
  }
  const qs = params.toString();
  return qs === "" ? "" : `?${qs}`;
}

const STATUS_PATHS = new Set(["/intents/status", "/intents/status/v3"]);

/**
 * The v3 status path of a `check.endpoint` (relative; `/intents/status?requestId=…` or
 * `/intents/status/v3?requestId=…`). Anything else — an absolute URL to another host, another
 * path, no requestId — is refused, so a quote cannot make the client call elsewhere.
 */
export function statusPathOf(checkEndpoint: string): string {
  return `/intents/status/v3?requestId=${encodeURIComponent(statusRequestIdOf(checkEndpoint))}`;
}

/** The requestId of a `check.endpoint` (see statusPathOf). */
export function statusRequestIdOf(checkEndpoint: string): string {
  if (!checkEndpoint.startsWith("/") || checkEndpoint.startsWith("//")) {
    throw new TypeError(`check.endpoint must be a relative path: ${checkEndpoint}`);
  }
  const url = new URL(checkEndpoint, "http://relative.invalid");
  if (!STATUS_PATHS.has(url.pathname.replace(/\/+$/, ""))) throw new TypeError(`check.endpoint is not a status path: ${checkEndpoint}`);
  const requestId = url.searchParams.get("requestId");
  if (requestId === null || requestId === "") throw new TypeError(`check.endpoint has no requestId: ${checkEndpoint}`);
  return requestId;
}

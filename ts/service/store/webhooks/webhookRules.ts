/**
 * The rules a webhook configuration must meet, checked when it is set and again at every delivery
 * attempt: the endpoint URL (https, no credentials or fragment, not into a denied address range — its
 * name resolved when set, ./webhookDestination.ts) and the custom headers (names, values, none of
 * Ferry's own). A configuration or log request that cannot be honoured throws `WebhookError`.
 */
import type { AddressFilter } from "../../config/addressFilter.ts";
import type { ErrorCode } from "../../errors/errorRegistry.ts";
import { ServiceError, type ServiceErrorOptions } from "../../errors/serviceError.ts";
import { isLocalhostName, resolveWebhookDestination, systemResolver, type HostResolver } from "./webhookDestination.ts";

/** The registered codes a webhook configuration or log request is refused with (../../errors/errorRegistry.ts). */
export type WebhookErrorCode = Extract<
  ErrorCode,
  "UNKNOWN_API_KEY" | "INVALID_WEBHOOK_URL" | "INVALID_WEBHOOK_HEADER" | "WEBHOOK_SECRET_KEY_MISSING" | "WEBHOOK_SECRET_KEY_INVALID" | "UNKNOWN_EVENT"
>;

/**
 * A webhook configuration or log request that cannot be honoured. `field` names the offending input
 * (`url`, `headers.X-Foo`, `FERRY_WEBHOOK_SECRET_KEY`); messages never quote the API key or a header value.
 */
export class WebhookError extends ServiceError {
  declare readonly code: WebhookErrorCode;
  readonly field: string | undefined;
  constructor(code: WebhookErrorCode, message: string, options: ServiceErrorOptions & { field?: string } = {}) {
    super(code, message, options);
    this.field = options.field;
  }
}

const LOOPBACK_HOSTS = new Set(["localhost", "127.0.0.1", "[::1]"]);

/** Whether `hostname` (as URL.hostname gives it) is a loopback host: localhost, 127.0.0.0/8, [::1]. */
export function isLoopbackHost(hostname: string): boolean {
  return LOOPBACK_HOSTS.has(hostname) || /^127(\.\d{1,3}){3}$/.test(hostname) || hostname.endsWith(".localhost");
}

/**
 * The endpoint rule: an absolute https:// URL (http:// only to a loopback host, unless `allowHttp`),
 * no credentials, no fragment, at most 2048 characters, not an IP address in a `denied` range (in any
 * spelling: the URL parser turns `0`, `127.1`, `2130706433`, `0x7f.1` into dotted IPv4, and the filter
 * reads IPv4 carried in IPv6), nor a `localhost` name when loopback is denied. Throws
 * INVALID_WEBHOOK_URL; returns the URL as given. Names are resolved by `checkWebhookDestination`.
 */
export function validateWebhookUrl(url: string, options: { allowHttp?: boolean; denied?: AddressFilter } = {}): string {
  const invalid = (why: string) => new WebhookError("INVALID_WEBHOOK_URL", `webhook url ${why}`, { field: "url" });
  if (typeof url !== "string" || url.length === 0 || url.length > 2048) throw invalid("must be 1 to 2048 characters");
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw invalid("is not an absolute URL");
  }
  if (parsed.protocol !== "https:" && parsed.protocol !== "http:") throw invalid("must be https://");
  if (parsed.protocol === "http:" && !options.allowHttp && !isLoopbackHost(parsed.hostname)) {
    throw invalid("must be https:// (http:// only to a loopback host, or with webhooks.allowHttp)");
  }
  if (parsed.username || parsed.password) throw invalid("must not carry credentials (use a custom header)");
  if (parsed.hash) throw invalid("must not have a fragment");
  // An IP-literal host is checked here; a name is checked on every address it resolves to, at delivery.
  const denied = options.denied;
  if (denied && (denied.denies(parsed.hostname) || (denied.deniesLoopback && isLocalhostName(parsed.hostname)))) {
    throw invalid(`points into a denied address range (webhooks.denyNetworks: ${denied.ranges.join(", ")})`);
  }
  return url;
}

/** How long setting a webhook waits for its name to resolve. */
export const SET_RESOLVE_TIMEOUT_MS = 5_000;

/**
 * When a webhook is set: its host's name resolved now, and refused (INVALID_WEBHOOK_URL) when any
 * address it resolves to is in a denied range. A name that does not resolve now (or not within
 * `SET_RESOLVE_TIMEOUT_MS`) is accepted — every delivery attempt resolves it again and connects only to
 * addresses outside the denied ranges.
 */
export async function checkWebhookDestination(url: string, denied: AddressFilter, resolve: HostResolver = systemResolver): Promise<void> {
  const destination = await resolveWebhookDestination(new URL(url).hostname, denied, resolve, AbortSignal.timeout(SET_RESOLVE_TIMEOUT_MS)).catch(() => undefined);
  if (destination && destination.denied.length > 0) {
    throw new WebhookError("INVALID_WEBHOOK_URL", `webhook url resolves into a denied address range (webhooks.denyNetworks: ${denied.ranges.join(", ")})`, { field: "url" });
  }
}

/** Headers Ferry sets itself (or that HTTP owns): a custom header may not name them. */
const RESERVED_HEADERS = new Set([
  "content-type",
  "content-length",
  "host",
  "x-ferry-event-id",
  "connection",
  "keep-alive",
  "transfer-encoding",
  "te",
  "trailer",
  "upgrade",
  "expect",
]);
const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
/** Visible ASCII, space and tab (obs-text excluded): no CR, LF or NUL can get in. */
const FIELD_VALUE = /^[\t\x20-\x7e]*$/;
export const MAX_WEBHOOK_HEADERS = 20;

/** Checks custom headers; throws INVALID_WEBHOOK_HEADER naming the header (never its value). Returns a copy. */
export function validateWebhookHeaders(headers: Record<string, string> | undefined): Record<string, string> {
  if (headers === undefined) return {};
  const invalid = (name: string, why: string) =>
    new WebhookError("INVALID_WEBHOOK_HEADER", `header ${JSON.stringify(name.slice(0, 64))} ${why}`, { field: `headers.${name.slice(0, 64)}` });
  if (typeof headers !== "object" || headers === null || Array.isArray(headers)) {
    throw new WebhookError("INVALID_WEBHOOK_HEADER", "headers must be an object of strings", { field: "headers" });
  }
  const entries = Object.entries(headers);
  if (entries.length > MAX_WEBHOOK_HEADERS) {
    throw new WebhookError("INVALID_WEBHOOK_HEADER", `at most ${MAX_WEBHOOK_HEADERS} custom headers`, { field: "headers" });
  }
  const seen = new Set<string>();
  const copy: Record<string, string> = {};
  for (const [name, value] of entries) {
    if (!TOKEN.test(name) || name.length > 256) throw invalid(name, "is not a valid header name");
    const lower = name.toLowerCase();
    if (RESERVED_HEADERS.has(lower) || lower.startsWith("x-signature-")) throw invalid(name, "is set by Ferry and cannot be overridden");
    if (seen.has(lower)) throw invalid(name, "is given twice");
    seen.add(lower);
    if (typeof value !== "string" || value.length > 4096 || !FIELD_VALUE.test(value)) {
      throw invalid(name, "must have a printable value (no CR, LF or control characters, at most 4096 characters)");
    }
    copy[name] = value;
  }
  return copy;
}

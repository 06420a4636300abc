/**
 * One delivery attempt: POST the event body to the endpoint, signed (ts/core/webhookSignature.ts) over
 * the exact bytes sent, with a timeout. Redirects are not followed (a 3xx is a failed attempt: the
 * signature is bound to the configured endpoint, and following would let it re-target the POST). Only
 * a 2xx counts as delivered; the response body is not read.
 *
 * The connection only goes to an address outside the deny-list (`denied`, config
 * `webhooks.denyNetworks`): the host is resolved once per attempt (../store/webhooks/webhookDestination.ts: an
 * IP literal is its own address; a name's answers in a denied range are dropped, none left →
 * WEBHOOK_ADDRESS_DENIED without connecting), and the connection's `lookup` is pinned to exactly those
 * checked addresses — no second DNS query between the check and the connect, so a name re-pointed after
 * it was set, or a resolver answering one address to the check and another to the connection (DNS
 * rebinding), cannot reach a denied range. The Host header and the TLS server name stay the URL's
 * name. node:http(s) rather than fetch: its `lookup` hook is where the pin sits.
 */
import type { LookupAddress, LookupOptions } from "node:dns";
import { request as httpRequest, type IncomingMessage } from "node:http";
import { request as httpsRequest } from "node:https";
import type { AddressFilter } from "../config/addressFilter.ts";
import { resolveWebhookDestination, systemResolver, type HostResolver, type ResolvedAddress } from "../store/webhooks/webhookDestination.ts";
import { webhookSignatureHeaders } from "../../core/webhookSignature.ts";
import { statusEventBody } from "../events/statusEvent.ts";
import type { OutboxPayload } from "../store/outbox.ts";

export const EVENT_ID_HEADER = "x-ferry-event-id";
export const WEBHOOK_USER_AGENT = "ferry-webhooks/1";

export type WebhookPost = {
  url: string;
  /** The key's custom headers (validated when set: they cannot name any header set here). */
  headers: Record<string, string>;
  eventId: number;
  body: Uint8Array;
  /** The plaintext API key. */
  secret: string;
  /** Unix seconds of sending (X-Signature-Timestamp). */
  timestamp: number;
  timeoutMs: number;
  /** Aborts the attempt (worker shutdown); the result then has `aborted: true`. */
  signal?: AbortSignal;
  /** Address ranges the attempt may not connect to. Default: none. */
  denied?: AddressFilter;
  /** How the host's name is resolved (once per attempt). Default: the system resolver. */
  resolve?: HostResolver;
};

/** The error of an attempt whose endpoint only has addresses in denied ranges. */
export const WEBHOOK_ADDRESS_DENIED = "WEBHOOK_ADDRESS_DENIED";

export type WebhookPostResult = {
  delivered: boolean;
  statusCode: number | null;
  /** Why no 2xx came back when there was no status: TIMEOUT, ABORTED, or the network error's code. */
  error: string | null;
  durationMs: number;
  aborted: boolean;
};

/** The bytes of an event's body: the same on every attempt (the outbox payload is frozen). */
export function webhookBody(payload: OutboxPayload): Uint8Array {
  return Buffer.from(JSON.stringify(statusEventBody({ payload })), "utf8");
}

/** The request headers of one attempt (lower-case names). */
export function webhookHeaders(post: Pick<WebhookPost, "headers" | "eventId" | "body" | "secret" | "timestamp">): Record<string, string> {
  const headers: Record<string, string> = { "user-agent": WEBHOOK_USER_AGENT };
  for (const [name, value] of Object.entries(post.headers)) headers[name.toLowerCase()] = value;
  headers["content-type"] = "application/json";
  headers[EVENT_ID_HEADER] = String(post.eventId);
  Object.assign(headers, webhookSignatureHeaders({ secret: post.secret, timestamp: post.timestamp, body: post.body }));
  return headers;
}

export async function postWebhook(post: WebhookPost, clock: () => number = () => performance.now()): Promise<WebhookPostResult> {
  const started = clock();
  const timeout = AbortSignal.timeout(post.timeoutMs);
  const signal = post.signal ? AbortSignal.any([timeout, post.signal]) : timeout;
  const elapsed = () => clock() - started;
  try {
    const status = await send(post, signal);
    const durationMs = elapsed();
    const delivered = status >= 200 && status < 300;
    return { delivered, statusCode: status, error: null, durationMs, aborted: false };
  } catch (error) {
    const durationMs = elapsed();
    if (post.signal?.aborted && !timeout.aborted) return { delivered: false, statusCode: null, error: "ABORTED", durationMs, aborted: true };
    if (timeout.aborted) return { delivered: false, statusCode: null, error: "TIMEOUT", durationMs, aborted: false };
    return { delivered: false, statusCode: null, error: networkError(error), durationMs, aborted: false };
  }
}

/** No range denied: every address a name resolves to may be connected to. */
const NOTHING_DENIED: AddressFilter = { denies: () => false, deniesLoopback: false, ranges: [] };

class AddressDeniedError extends Error {
  readonly code = WEBHOOK_ADDRESS_DENIED;
  constructor() {
    super("every address of the webhook's host is in a denied range (webhooks.denyNetworks)");
  }
}

/** A connection's lookup that answers the addresses already resolved and checked, whatever name it is asked for. */
function pinnedLookup(addresses: readonly ResolvedAddress[]) {
  return (_hostname: string, options: LookupOptions, callback: (error: Error | null, address: string | LookupAddress[], family?: number) => void) => {
    const wanted = options.family === 4 || options.family === 6 ? addresses.filter((entry) => entry.family === options.family) : addresses;
    if (wanted.length === 0) return callback(Object.assign(new Error("no address of the requested family"), { code: "ENOTFOUND" }), "");
    if (options.all) return callback(null, wanted.map((entry) => ({ address: entry.address, family: entry.family })));
    return callback(null, wanted[0]!.address, wanted[0]!.family);
  };
}

/** Resolves the host once, checks it, then POSTs the body to the checked addresses only; resolves with the response's status (the body is discarded, unread). */
async function send(post: WebhookPost, signal: AbortSignal): Promise<number> {
  const url = new URL(post.url);
  const destination = await resolveWebhookDestination(url.hostname, post.denied ?? NOTHING_DENIED, post.resolve ?? systemResolver, signal);
  if (destination.allowed.length === 0) throw new AddressDeniedError();
  const headers = { ...webhookHeaders(post), "content-length": String(post.body.byteLength) };
  // An IP literal is connected to as it is; a name through the pinned lookup (Host and SNI stay the name).
  const options = { method: "POST", headers, signal, ...(destination.literal ? {} : { lookup: pinnedLookup(destination.allowed) }) };
  return new Promise((resolve, reject) => {
    const request = (url.protocol === "https:" ? httpsRequest : httpRequest)(url, options, (response: IncomingMessage) => {
      response.resume();
      response.on("error", () => {});
      resolve(response.statusCode ?? 0);
    });
    request.on("error", reject);
    request.end(post.body);
  });
}

/** A short, URL-free description of a network failure (`ECONNREFUSED`, `UND_ERR_SOCKET`, …). */
function networkError(error: unknown): string {
  const cause = (error as { cause?: { code?: unknown; message?: unknown } })?.cause;
  if (typeof cause?.code === "string") return cause.code;
  const code = (error as { code?: unknown })?.code;
  if (typeof code === "string") return code;
  return "NETWORK_ERROR";
}

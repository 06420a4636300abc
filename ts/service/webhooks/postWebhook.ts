/**
 * One delivery attempt: POST the event body to the endpoint, signed (ts/core/webhookSignature.ts) over
 * the exact bytes sent, with a timeout. Redirects are not followed (a 3xx is a failed attempt: the
 * signature is bound to the configured endpoint, and following would let it re-target the POST). Only
 * a 2xx counts as delivered; the response body is not read.
 */
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
};

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
    const response = await fetch(post.url, { method: "POST", headers: webhookHeaders(post), body: post.body, redirect: "manual", signal });
    const durationMs = elapsed();
    await response.body?.cancel().catch(() => {});
    const delivered = response.status >= 200 && response.status < 300;
    return { delivered, statusCode: response.status, error: null, durationMs, aborted: false };
  } catch (error) {
    const durationMs = elapsed();
    if (post.signal?.aborted && !timeout.aborted) return { delivered: false, statusCode: null, error: "ABORTED", durationMs, aborted: true };
    if (timeout.aborted) return { delivered: false, statusCode: null, error: "TIMEOUT", durationMs, aborted: false };
    return { delivered: false, statusCode: null, error: networkError(error), durationMs, aborted: false };
  }
}

/** A short, URL-free description of a network failure (`ECONNREFUSED`, `UND_ERR_SOCKET`, …). */
function networkError(error: unknown): string {
  const cause = (error as { cause?: { code?: unknown; message?: unknown } })?.cause;
  if (typeof cause?.code === "string") return cause.code;
  const code = (error as { code?: unknown })?.code;
  if (typeof code === "string") return code;
  return "NETWORK_ERROR";
}

/**
 * Webhook signatures (spec "Events → Verification"): lower-case hex HMAC-SHA256 over
 * `<timestamp>.<body>`, keyed with the API key, sent as `X-Signature-Timestamp` (unix seconds) and
 * `X-Signature-SHA256`. The body is hashed as the exact bytes received — never re-serialized JSON.
 * node:crypto here is pure computation; the clock comes in as `now`.
 */
import { createHmac, timingSafeEqual } from "node:crypto";
import {
  FerryError,
  InvalidInputError,
  WebhookHeaderInvalidError,
  WebhookHeaderMissingError,
  WebhookSignatureMismatchError,
  WebhookTimestampOutOfToleranceError,
} from "./errors.ts";

export const WEBHOOK_TIMESTAMP_HEADER = "x-signature-timestamp";
export const WEBHOOK_SIGNATURE_HEADER = "x-signature-sha256";
/** Default accepted distance between the timestamp header and `now`, in seconds. */
export const DEFAULT_WEBHOOK_TOLERANCE_SECONDS = 300;

export type WebhookBody = string | Uint8Array;
/** A fetch `Headers` object or a plain record such as Node's IncomingHttpHeaders. */
export type WebhookHeaders = Headers | Record<string, string | readonly string[] | undefined>;

/** Computes the signature header value: hex HMAC-SHA256(secret, `${timestamp}.` ‖ body). */
export function signWebhook(params: { secret: string | Uint8Array; timestamp: number | bigint | string; body: WebhookBody }): string {
  const timestamp = String(params.timestamp);
  if (!/^[0-9]+$/.test(timestamp)) throw new InvalidInputError("expected unix seconds", { path: "timestamp" });
  if (params.secret.length === 0) throw new InvalidInputError("must not be empty", { path: "secret" });
  return createHmac("sha256", params.secret)
    .update(`${timestamp}.`, "utf8")
    .update(typeof params.body === "string" ? Buffer.from(params.body, "utf8") : params.body)
    .digest("hex");
}

/** The two headers a delivery carries. */
export function webhookSignatureHeaders(params: { secret: string | Uint8Array; timestamp: number | bigint | string; body: WebhookBody }): Record<string, string> {
  return {
    [WEBHOOK_TIMESTAMP_HEADER]: String(params.timestamp),
    [WEBHOOK_SIGNATURE_HEADER]: signWebhook(params),
  };
}

export type VerifyWebhookParams = {
  headers: WebhookHeaders;
  rawBody: WebhookBody;
  secret: string | Uint8Array;
  /** Unix seconds. */
  now: number | bigint;
  /** Default 300. */
  toleranceSeconds?: number;
};

export type VerifyWebhookResult = { valid: true; timestamp: number } | { valid: false; error: FerryError };

/** Verifies a delivery; a failed check comes back as `{ valid: false, error }`. */
export function verifyWebhook(params: VerifyWebhookParams): VerifyWebhookResult {
  try {
    return { valid: true, ...assertWebhook(params) };
  } catch (error) {
    if (error instanceof FerryError) return { valid: false, error };
    throw error;
  }
}

/**
 * Like verifyWebhook, but throws WEBHOOK_HEADER_MISSING, WEBHOOK_HEADER_INVALID,
 * WEBHOOK_TIMESTAMP_OUT_OF_TOLERANCE or WEBHOOK_SIGNATURE_MISMATCH. The timestamp is checked first
 * so a stale replay is reported as such.
 */
export function assertWebhook(params: VerifyWebhookParams): { timestamp: number } {
  const tolerance = params.toleranceSeconds ?? DEFAULT_WEBHOOK_TOLERANCE_SECONDS;
  if (!Number.isSafeInteger(tolerance) || tolerance < 0) throw new InvalidInputError("expected a non-negative integer", { path: "toleranceSeconds" });
  const now = Number(params.now);
  if (!Number.isSafeInteger(now)) throw new InvalidInputError("expected unix seconds", { path: "now" });

  const timestampText = header(params.headers, WEBHOOK_TIMESTAMP_HEADER);
  const signature = header(params.headers, WEBHOOK_SIGNATURE_HEADER);
  if (!/^[0-9]{1,15}$/.test(timestampText)) throw new WebhookHeaderInvalidError(WEBHOOK_TIMESTAMP_HEADER, "expected unix seconds");
  const timestamp = Number(timestampText);
  if (Math.abs(now - timestamp) > tolerance) throw new WebhookTimestampOutOfToleranceError(timestamp, now, tolerance);

  // The header text itself is what was signed (no re-formatting of the number).
  const expected = Buffer.from(signWebhook({ secret: params.secret, timestamp: timestampText, body: params.rawBody }), "utf8");
  const given = Buffer.from(signature.trim().toLowerCase(), "utf8");
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) throw new WebhookSignatureMismatchError();
  return { timestamp };
}

function header(headers: WebhookHeaders, name: string): string {
  let value: string | readonly string[] | null | undefined;
  if (typeof Headers !== "undefined" && headers instanceof Headers) {
    value = headers.get(name);
  } else {
    const record = headers as Record<string, string | readonly string[] | undefined>;
    const key = Object.keys(record).find((k) => k.toLowerCase() === name);
    value = key === undefined ? undefined : record[key];
  }
  if (Array.isArray(value)) {
    if (value.length !== 1) throw new WebhookHeaderInvalidError(name, "expected exactly one value");
    value = value[0];
  }
  if (typeof value !== "string" || value.length === 0) throw new WebhookHeaderMissingError(name);
  return value;
}

/**
 * Every error code the service can raise — its own and the core's — with the HTTP status it is
 * answered with and whether the operation that raised it is worth retrying. This is the one place
 * either is decided: the HTTP error handler maps codes to statuses here, the solver and the webhook
 * worker decide retry versus park here. `satisfies` makes the table complete at compile time: a code
 * without a policy, or a policy for an unknown core code, does not type-check.
 *
 * Statuses: 4xx are the caller's to fix (never retried by the solver); 5xx are ours. `retryable`
 * means "the same step may succeed later without anyone changing anything" (an RPC that did not
 * answer, a lease race); a non-retryable error in a solver step parks the request for an operator.
 */
import type { FerryErrorCode } from "../../core/errors.ts";

export type ErrorPolicy = { readonly status: 400 | 401 | 404 | 409 | 413 | 415 | 429 | 431 | 500 | 503; readonly retryable: boolean };

const caller = (status: 400 | 401 | 404 | 409 | 413 | 415 | 429 | 431) => ({ status, retryable: false }) as const;
const fault = { status: 500, retryable: false } as const;
const transient = { status: 503, retryable: true } as const;

/** The core's codes (ts/core/errors.ts): all properties of the input, so never retryable. */
const CORE_POLICIES = {
  INVALID_INPUT: caller(400),
  INVALID_ADDRESS: caller(400),
  INVALID_SIGNATURE: caller(400),
  INVALID_SIGNATURE_LENGTH: caller(400),
  SIGNATURE_MALLEABLE: caller(400),
  SIGNER_NOT_ALLOWED: caller(400),
  ATTESTATION_EXPIRED: caller(400),
  UNSUPPORTED_VM: caller(400),
  ORDER_ID_MISMATCH: caller(400),
  DEPOSIT_MISMATCH: caller(400),
  FILL_TARGET_MISMATCH: caller(400),
  WEBHOOK_HEADER_MISSING: caller(400),
  WEBHOOK_HEADER_INVALID: caller(400),
  WEBHOOK_SIGNATURE_MISMATCH: caller(400),
  WEBHOOK_TIMESTAMP_OUT_OF_TOLERANCE: caller(400),
} as const satisfies Record<FerryErrorCode, ErrorPolicy>;

export const ERROR_REGISTRY = {
  ...CORE_POLICIES,

  // HTTP: requests the service refuses as such.
  INVALID_REQUEST: caller(400),
  INVALID_API_KEY: caller(401),
  NOT_FOUND: caller(404),
  PAYLOAD_TOO_LARGE: caller(413),
  UNSUPPORTED_MEDIA_TYPE: caller(415),
  HEADERS_TOO_LARGE: caller(431),
  RATE_LIMITED: caller(429),
  NOT_READY: transient,
  INTERNAL_ERROR: fault,

  // Requests and their records.
  REQUEST_NOT_FOUND: caller(404),
  INVALID_CURSOR: caller(400),
  ATTESTATION_UNAVAILABLE: caller(409),
  ATTESTER_NOT_CONFIGURED: { status: 503, retryable: false },
  INVALID_TRANSITION: fault,
  /** A stored row that does not decode with its model schema: corrupted or foreign data. */
  STORED_VALUE_INVALID: fault,
  STRAY_DEPOSIT_NOT_FOUND: caller(404),
  DATA_DIR_LOCKED: { status: 503, retryable: false },

  // Quotes.
  UNSUPPORTED_CHAIN: caller(400),
  UNSUPPORTED_CURRENCY: caller(400),
  UNSUPPORTED_ROUTE: caller(400),
  AMOUNT_TOO_LOW: caller(400),
  INVALID_APP_FEES: caller(400),
  PRICE_UNAVAILABLE: caller(400),
  SOLVER_NOT_CONFIGURED: { status: 503, retryable: false },

  // Chains and the solver.
  /** An RPC call failed or timed out; the same call may work later. */
  CHAIN_UNAVAILABLE: transient,
  UNKNOWN_CHAIN: caller(400),
  TRANSACTION_NOT_FOUND: caller(400),
  NOT_A_DEPOSIT: caller(400),
  CHAIN_NOT_CONFIGURED: fault,
  KEY_NOT_CONFIGURED: fault,
  /** The receiver says filled, the Filled log is not found yet (log range limits): wait, never refund. */
  FILL_LOG_NOT_FOUND: { status: 500, retryable: true },
  /** A failure the receiver shows as filled: refunding would pay twice. An operator decides. */
  FILLED_REQUEST_NOT_REFUNDABLE: fault,
  /** A transaction the solver sent (an approval) reverted. */
  TRANSACTION_REVERTED: fault,

  // Configuration.
  CONFIG_INVALID: fault,

  // Webhooks (set by the operator CLI).
  UNKNOWN_API_KEY: caller(404),
  INVALID_WEBHOOK_URL: caller(400),
  INVALID_WEBHOOK_HEADER: caller(400),
  WEBHOOK_SECRET_KEY_MISSING: fault,
  WEBHOOK_SECRET_KEY_INVALID: fault,
  UNKNOWN_EVENT: caller(404),

  // Websocket messages (sent back on the socket; the status is what an HTTP form would be).
  INVALID_MESSAGE: caller(400),
  UNKNOWN_MESSAGE_TYPE: caller(400),
  UNSUPPORTED_EVENT: caller(400),
  INVALID_REQUEST_ID: caller(400),
  TOO_MANY_SUBSCRIPTIONS: caller(429),
  TOO_MANY_MESSAGES: caller(429),
} as const satisfies Record<string, ErrorPolicy>;

export type ErrorCode = keyof typeof ERROR_REGISTRY;

/** The policy of a code, or undefined for a code the registry does not know (an outside library's). */
export function errorPolicy(code: unknown): ErrorPolicy | undefined {
  return typeof code === "string" && Object.hasOwn(ERROR_REGISTRY, code) ? ERROR_REGISTRY[code as ErrorCode] : undefined;
}

/**
 * Errors of the Ferry client, all `FerryError`s (ts/core/errors.ts): a stable `code`, a short
 * message, a `cause`, and `retryable`.
 *
 * - `FerryApiError` (`API_ERROR`): the service answered non-2xx. Carries `status`, the service's
 *   `errorCode` and `message`, and `retryAfter` (seconds) on 429. Retryable on 429 and 5xx.
 * - `ExecuteQuoteError`: `executeQuote` refused or could not finish (codes in `ExecuteQuoteErrorCode`).
 * - `RequestFailedError` (`REQUEST_FAILED`): the request reached `failure`, `refund` or `fallback`;
 *   carries the status record (`failReason`, hashes).
 */
import { FerryError } from "../core/errors.ts";
import type { StatusRecord } from "./apiTypes.ts";

export const FerryClientErrorCode = {
  API_ERROR: "API_ERROR",
  REQUEST_FAILED: "REQUEST_FAILED",
} as const;

export class FerryApiError extends FerryError {
  /** The HTTP status. */
  readonly status: number;
  /** The service's `errorCode` (`HTTP_<status>` when the body was not the service's error shape). */
  readonly errorCode: string;
  /** Seconds to wait, from `Retry-After` (429). */
  readonly retryAfter: number | undefined;
  /** The parsed body (any extra fields, e.g. `checks` of /ready). */
  readonly body: unknown;
  readonly method: string;
  readonly path: string;

  constructor(args: { status: number; errorCode: string; message: string; retryAfter?: number; body?: unknown; method: string; path: string }) {
    super(FerryClientErrorCode.API_ERROR, args.message, { retryable: args.status === 429 || args.status >= 500 });
    this.status = args.status;
    this.errorCode = args.errorCode;
    this.retryAfter = args.retryAfter;
    this.body = args.body;
    this.method = args.method;
    this.path = args.path;
  }
}

export const ExecuteQuoteErrorCode = {
  /** The quote does not verify locally (orderId, deposit step): nothing was sent. */
  QUOTE_INVALID: "QUOTE_INVALID",
  /** The wallet's account is not the transaction's `from`. */
  WALLET_MISMATCH: "WALLET_MISMATCH",
  /** The wallet is connected to another chain than the transaction's `chainId`. */
  CHAIN_MISMATCH: "CHAIN_MISMATCH",
  /**
   * A signature step's typed data is not what the quote and GET /chains say (another spender, amount,
   * token, deadline, order, chain or types): nothing was signed. `field` names the first difference.
   */
  PERMIT_MISMATCH: "PERMIT_MISMATCH",
  /** A step this client cannot execute (a signature step other than a permit's) or a malformed item. */
  UNSUPPORTED_STEP: "UNSUPPORTED_STEP",
  /** A sent transaction reverted. */
  TRANSACTION_REVERTED: "TRANSACTION_REVERTED",
  /** No terminal status within `timeoutMs`. */
  TIMEOUT: "TIMEOUT",
} as const;
export type ExecuteQuoteErrorCode = (typeof ExecuteQuoteErrorCode)[keyof typeof ExecuteQuoteErrorCode];

export class ExecuteQuoteError extends FerryError {
  /** The transaction concerned, when there is one. */
  readonly txHash: string | undefined;
  /** The last status seen (TIMEOUT). */
  readonly lastStatus: StatusRecord | undefined;
  /** The field that disagrees (PERMIT_MISMATCH), e.g. `value.spender`, `domain.verifyingContract`. */
  readonly field: string | undefined;

  constructor(
    code: ExecuteQuoteErrorCode,
    message: string,
    options: { cause?: unknown; txHash?: string; lastStatus?: StatusRecord; field?: string; retryable?: boolean } = {},
  ) {
    super(code, message, { cause: options.cause, retryable: options.retryable ?? code === ExecuteQuoteErrorCode.TIMEOUT });
    this.txHash = options.txHash;
    this.lastStatus = options.lastStatus;
    this.field = options.field;
  }
}

export class RequestFailedError extends FerryError {
  readonly requestId: string;
  readonly status: StatusRecord;
  /** The status record's `failReason` (e.g. ORDER_EXPIRED). */
  readonly failReason: string;

  constructor(requestId: string, status: StatusRecord) {
    super(FerryClientErrorCode.REQUEST_FAILED, `request ${requestId} ended in ${status.status} (${status.failReason})`);
    this.requestId = requestId;
    this.status = status;
    this.failReason = status.failReason;
  }
}

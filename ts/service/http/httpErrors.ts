/**
 * Errors the HTTP layer answers with, and the one error body every endpoint uses:
 * `{message, errorCode}` (the spec's error shape). `HttpError` carries the status and a stable code;
 * the error handler (`errorHandler.ts`) maps everything else.
 */
import { Type, type Static } from "typebox";
import { FerryError, type FerryErrorOptions } from "../../core/errors.ts";

export const HttpErrorCode = {
  INVALID_REQUEST: "INVALID_REQUEST",
  INVALID_API_KEY: "INVALID_API_KEY",
  NOT_FOUND: "NOT_FOUND",
  REQUEST_NOT_FOUND: "REQUEST_NOT_FOUND",
  INVALID_CURSOR: "INVALID_CURSOR",
  ATTESTATION_UNAVAILABLE: "ATTESTATION_UNAVAILABLE",
  ATTESTER_NOT_CONFIGURED: "ATTESTER_NOT_CONFIGURED",
  // POST /quote/v2 (the quote core's QuoteErrorCode, plus what the route itself refuses).
  UNSUPPORTED_CHAIN: "UNSUPPORTED_CHAIN",
  UNSUPPORTED_CURRENCY: "UNSUPPORTED_CURRENCY",
  UNSUPPORTED_ROUTE: "UNSUPPORTED_ROUTE",
  AMOUNT_TOO_LOW: "AMOUNT_TOO_LOW",
  INVALID_APP_FEES: "INVALID_APP_FEES",
  PRICE_UNAVAILABLE: "PRICE_UNAVAILABLE",
  SOLVER_NOT_CONFIGURED: "SOLVER_NOT_CONFIGURED",
  CHAIN_UNAVAILABLE: "CHAIN_UNAVAILABLE",
  PAYLOAD_TOO_LARGE: "PAYLOAD_TOO_LARGE",
  UNSUPPORTED_MEDIA_TYPE: "UNSUPPORTED_MEDIA_TYPE",
  HEADERS_TOO_LARGE: "HEADERS_TOO_LARGE",
  RATE_LIMITED: "RATE_LIMITED",
  NOT_READY: "NOT_READY",
  INTERNAL_ERROR: "INTERNAL_ERROR",
  /** POST /transactions/index */
  UNKNOWN_CHAIN: "UNKNOWN_CHAIN",
  TRANSACTION_NOT_FOUND: "TRANSACTION_NOT_FOUND",
  NOT_A_DEPOSIT: "NOT_A_DEPOSIT",
} as const;

export type HttpErrorCode = (typeof HttpErrorCode)[keyof typeof HttpErrorCode];

export const ErrorBody = Type.Object(
  {
    message: Type.String(),
    errorCode: Type.String({ description: "Stable machine-readable code, e.g. INVALID_REQUEST, NOT_FOUND" }),
  },
  { description: "Error" },
);
export type ErrorBody = Static<typeof ErrorBody>;

/** An error with the HTTP status it is answered with; its message is shown to the client. */
export class HttpError extends FerryError {
  readonly statusCode: number;
  constructor(statusCode: number, code: HttpErrorCode, message: string, options: FerryErrorOptions = {}) {
    super(code, message, options);
    this.statusCode = statusCode;
  }
}

/** The error statuses every route can answer (declared in each route schema, so /openapi.json lists them). */
export const commonErrorResponses = {
  400: ErrorBody,
  401: ErrorBody,
  429: ErrorBody,
  500: ErrorBody,
} as const;

/** What routes with a request body add: 413 (over the body limit) and 415 (not JSON). */
export const bodyErrorResponses = { 413: ErrorBody, 415: ErrorBody } as const;

import type { ErrorCode } from "./errorRegistry.ts";
import { ServiceError, type ServiceErrorOptions } from "./serviceError.ts";
/**
 * Why a quote cannot be made. Each is a property of the request and the configuration (never
 * retryable); the HTTP route answers them as 400 `{message, errorCode: code}`.
 */

/** The registered codes a quote is refused with (each documented in ./errorRegistry.ts). */
export type QuoteErrorCode = Extract<
  ErrorCode,
  | "UNSUPPORTED_CHAIN"
  | "UNSUPPORTED_CURRENCY"
  | "UNSUPPORTED_ROUTE"
  | "AMOUNT_TOO_LOW"
  | "INVALID_APP_FEES"
  | "PRICE_UNAVAILABLE"
  | "INSUFFICIENT_LIQUIDITY"
  | "PRICE_OUT_OF_BAND"
  | "TOPUP_GAS_TOO_HIGH"
>;

export class QuoteError extends ServiceError {
  constructor(code: QuoteErrorCode, message: string, options: ServiceErrorOptions = {}) {
    super(code, message, options);
  }
}

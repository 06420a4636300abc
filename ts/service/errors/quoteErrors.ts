import { ServiceError, type ServiceErrorOptions } from "./serviceError.ts";
/**
 * Why a quote cannot be made. Each is a property of the request and the configuration (never
 * retryable); the HTTP route answers them as 400 `{message, errorCode: code}`.
 */

export const QuoteErrorCode = {
  /** A chain that is not configured, disabled, or (origin) closed for deposits. */
  UNSUPPORTED_CHAIN: "UNSUPPORTED_CHAIN",
  /** A currency that is not configured on its chain. */
  UNSUPPORTED_CURRENCY: "UNSUPPORTED_CURRENCY",
  /** Both currencies are known but Ferry does not route between them (a swap, destination calls, deposit addresses). */
  UNSUPPORTED_ROUTE: "UNSUPPORTED_ROUTE",
  /** Nothing (or less than one unit of the output) is left after fees. */
  AMOUNT_TOO_LOW: "AMOUNT_TOO_LOW",
  /** App fees that, with the service fee, take the whole amount (≥ 10000 bps). */
  INVALID_APP_FEES: "INVALID_APP_FEES",
  /** A conversion needs a USD price the operator has not configured, or a swap's price source cannot be read. */
  PRICE_UNAVAILABLE: "PRICE_UNAVAILABLE",
  /** The swap's market (a pool) cannot give the output asked for, or the input is more than one quote may take from it. */
  INSUFFICIENT_LIQUIDITY: "INSUFFICIENT_LIQUIDITY",
  /**
   * The market's spot price is further from its reference (TWAP, oracle) than `quotes.priceBandBps`
   * (e.g. a pool pushed by a trade), or the output would be worth more than the net input at the
   * reference plus the band. Retry once the market is back.
   */
  PRICE_OUT_OF_BAND: "PRICE_OUT_OF_BAND",
  /** `topupGasAmount` is worth more than `quotes.topupGasMaxUsd`. */
  TOPUP_GAS_TOO_HIGH: "TOPUP_GAS_TOO_HIGH",
} as const;

export type QuoteErrorCode = (typeof QuoteErrorCode)[keyof typeof QuoteErrorCode];

export class QuoteError extends ServiceError {
  constructor(code: QuoteErrorCode, message: string, options: ServiceErrorOptions = {}) {
    super(code, message, options);
  }
}

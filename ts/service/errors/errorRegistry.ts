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

export type ErrorPolicy = { readonly status: 400 | 401 | 403 | 404 | 409 | 413 | 414 | 415 | 429 | 431 | 500 | 503; readonly retryable: boolean };

const caller = (status: 400 | 401 | 403 | 404 | 409 | 413 | 414 | 415 | 429 | 431) => ({ status, retryable: false }) as const;
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
  RECEIPT_INVALID: caller(400),
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
  /** An API key in a URL (query string): it is refused unread; keys travel in the `x-api-key` header only. */
  API_KEY_IN_URL: caller(400),
  /** What was asked is visible to an authenticated integrator only: `x-api-key` is missing. */
  API_KEY_REQUIRED: caller(401),
  /** What was asked belongs to another API key than the caller's. */
  API_KEY_FORBIDDEN: caller(403),
  NOT_FOUND: caller(404),
  PAYLOAD_TOO_LARGE: caller(413),
  /** A path parameter longer than the router takes (8 KiB). */
  URI_TOO_LONG: caller(414),
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
  /** GET /requests/{id}/receipt of a request that is not filled and repaid yet (or was refunded, or has no quoted order). */
  RECEIPT_UNAVAILABLE: caller(409),
  /** A receipt's transaction or log is not where the request's record says (the node lost it, or a reorg took it): retry later. */
  RECEIPT_DATA_MISSING: transient,
  /** The explorer page's script was never bundled in this checkout (npm run build:explorer; the package ships it). */
  EXPLORER_UNAVAILABLE: { status: 503, retryable: false },
  INVALID_TRANSITION: fault,
  /** A stored row that does not decode with its model schema: corrupted or foreign data. */
  STORED_VALUE_INVALID: fault,
  STRAY_DEPOSIT_NOT_FOUND: caller(404),
  DATA_DIR_LOCKED: { status: 503, retryable: false },
  /** PostgreSQL is down, restarting, refusing connections or too slow (statement timeout): answered 503 + Retry-After. */
  DATABASE_UNAVAILABLE: transient,

  // Quotes.
  /** `user`, `recipient`, `refundTo` or an app-fee recipient is the zero address: whatever is sent there is burned. */
  ZERO_ADDRESS_NOT_ALLOWED: caller(400),
  /** A chain that is not configured, disabled, or (origin) closed for deposits. */
  UNSUPPORTED_CHAIN: caller(400),
  /** A currency that is not configured on its chain. */
  UNSUPPORTED_CURRENCY: caller(400),
  /** Both currencies are known but Ferry does not route between them (a swap, destination calls, deposit addresses). */
  UNSUPPORTED_ROUTE: caller(400),
  /** Nothing (or less than one unit of the output) is left after fees. */
  AMOUNT_TOO_LOW: caller(400),
  /** App fees that, with the service fee, take the whole amount (≥ 10000 bps). */
  INVALID_APP_FEES: caller(400),
  /** A conversion needs a USD price the operator has not configured, or a swap's price source cannot be read. */
  PRICE_UNAVAILABLE: caller(400),
  /** The swap's market (a pool) cannot give the output asked for, or the input is more than one quote may take from it. */
  INSUFFICIENT_LIQUIDITY: caller(400),
  /**
   * A swap's market is outside the price band around its reference (TWAP, oracle; `quotes.priceBandBps`),
   * e.g. a pool pushed by a trade, or the output outvalues the input at the reference. Retry once the market is back.
   */
  PRICE_OUT_OF_BAND: caller(400),
  /** `topupGasAmount` is worth more than `quotes.topupGasMaxUsd`. */
  TOPUP_GAS_TOO_HIGH: caller(400),
  SOLVER_NOT_CONFIGURED: { status: 503, retryable: false },
  /** The solver's balance on the destination is below the quoted amount (also a fill-time failReason). */
  SOLVER_BALANCE_TOO_LOW: caller(400),
  /** The solver's balance covers it, but fills in flight hold too much of it now (also a fill-time failReason). */
  SOLVER_CAPACITY_EXCEEDED: caller(400),

  // Fee sponsorship (POST /quote/v2 `subsidizeFees`).
  /** `subsidizeFees` without a valid, unrevoked `x-api-key`: sponsorship is paid from an app's balance, so it needs the app. */
  SPONSORSHIP_REQUIRES_API_KEY: caller(401),
  /** `subsidizeFees` on a service that keeps no app balances (no ledger configured). */
  SPONSORSHIP_UNAVAILABLE: caller(400),

  // App fees (GET /app-fees/{wallet}/balances, POST /app-fees/{wallet}/claim).
  NOTHING_TO_CLAIM: caller(400),
  /** Claims withdraw the whole claimable balance: a different `amount` is refused. */
  CLAIM_AMOUNT_UNSUPPORTED: caller(400),

  // Signature-authorised deposits (POST /execute/permits).
  /** The quote was not made with usePermit: it has no signature step. */
  PERMIT_NOT_QUOTED: caller(400),
  /** The quote's deposit window (and the signed deadline) is over. */
  QUOTE_EXPIRED: caller(400),
  /** Not the quote's user's signature over the message the quote asked to sign. */
  INVALID_PERMIT_SIGNATURE: caller(400),
  /** The deposit would revert (e.g. the balance is short, the permit was used for something else). */
  PERMIT_DEPOSIT_REVERTED: caller(400),
  /** The fill of the quote (its destination calls included) would revert now: the service sends no deposit it would have to cancel and refund. */
  PERMIT_FILL_WOULD_FAIL: caller(400),
  /** The quote's user had too many failed permit requests recently (`rateLimits.failedPermitsPerUserPerHour`). */
  PERMITS_RATE_LIMITED: caller(429),

  // App balances (../balances, ../store/appBalances.ts).
  /** The app's available balance (credited − debited − held) does not cover the hold: nothing is sent, nothing written. */
  SPONSOR_BALANCE_TOO_LOW: caller(400),
  /** The app's or the solver currency's hourly exposure budget for the purpose (config appBalances.exposure) is used up: retry in the next hour. */
  EXPOSURE_BUDGET_EXCEEDED: caller(429),
  APP_BALANCE_HOLD_NOT_FOUND: caller(404),
  /** The (purpose, reference) of a hold belongs to another app. */
  APP_BALANCE_HOLD_CONFLICT: caller(409),
  /** A settled hold released, or a released one settled: a hold ends once. */
  APP_BALANCE_HOLD_ENDED: caller(409),
  /** A withdrawal for an app whose key has no funding address (`ferry keys funding-address`): the operator sets it, never the caller. */
  APP_FUNDING_ADDRESS_MISSING: caller(409),
  /** A settle debiting more than the hold: the service's own bug, never the caller's. */
  APP_BALANCE_SPEND_EXCEEDS_HOLD: fault,

  // Relayed executions (POST /execute).
  /** The call would revert: answered with the spec's simulation error body (`error`, `requestId`, `details`), nothing sent. */
  EXECUTION_SIMULATION_FAILED: caller(400),
  /** The quote named by `requestId` deposits on another chain than `data.chainId`. */
  EXECUTE_CHAIN_MISMATCH: caller(400),
  /** An `authorizationList` delegates to an address with no code on the chain: the EOA would run nothing, nothing sent. */
  EXECUTION_DELEGATE_HAS_NO_CODE: caller(400),
  /** The call's gas estimate is over the relayer's cap (`solver.maxGasPerTransaction`): nothing sent. */
  EXECUTION_GAS_TOO_HIGH: caller(400),
  /** The chain's fees rose between pricing the hold and signing: nothing sent, the hold released; retry. */
  EXECUTION_FEES_MOVED: transient,
  /** The gas hold was released as stuck (no transaction after its lease) before the send recorded one: nothing sent; retry. */
  EXECUTION_HOLD_EXPIRED: transient,
  /** The execution took its every attempt's gas hold and each was released with nothing sent: not sent again. */
  EXECUTION_ATTEMPTS_EXHAUSTED: caller(409),
  // Fast fill (../solver/fill/fastFill.ts, POST /fast-fill).
  /** The request's deposit transaction is not seen (never indexed through POST /transactions/index, dropped, reverted). */
  FAST_FILL_DEPOSIT_NOT_SEEN: caller(400),
  /** The seen deposit transaction is not this order's, or is below the quote, another chain or currency, or names no amount yet. */
  FAST_FILL_DEPOSIT_MISMATCH: caller(400),
  /** The fronted value is above the caller's `maxFillAmountUsd`. */
  FAST_FILL_ABOVE_MAX: caller(400),
  /** The destination currency has no configured USD price: its value cannot be held. */
  FAST_FILL_PRICE_UNAVAILABLE: caller(400),
  /** The app balance does not cover the fronted value (403, as the reference API answers it): nothing held, nothing sent. */
  FAST_FILL_BALANCE_TOO_LOW: caller(403),
  /** The deposit is already indexed and the request being processed: nothing to front. */
  FAST_FILL_REQUEST_IN_PROGRESS: caller(409),

  // Chains and the solver.
  /** An RPC call failed or timed out; the same call may work later. */
  CHAIN_UNAVAILABLE: transient,
  /** The step's or request's time budget ran out before an RPC call could (finish): a hanging RPC must not outlive a lease. */
  RPC_DEADLINE_EXCEEDED: transient,
  /** No RPC URL of the chain has the block a read needs yet (every one is behind it). */
  RPC_BLOCK_NOT_AVAILABLE: transient,
  /** A block the indexer had treated as final was replaced (a reorg deeper than the confirmation depth): the chain is halted for an operator. */
  CHAIN_HALTED: { status: 503, retryable: true },
  UNKNOWN_CHAIN: caller(400),
  TRANSACTION_NOT_FOUND: caller(400),
  NOT_A_DEPOSIT: caller(400),
  CHAIN_NOT_CONFIGURED: fault,
  KEY_NOT_CONFIGURED: fault,
  /** The receiver says filled, the Filled log is not found yet (log range limits): wait, never refund. */
  FILL_LOG_NOT_FOUND: { status: 500, retryable: true },
  /** The Depository shows a payout executed, its log is not found yet: wait, never mark it reverted. */
  PAYOUT_LOG_NOT_FOUND: { status: 500, retryable: true },
  /** A failure the receiver shows as filled: refunding would pay twice. An operator decides. */
  FILLED_REQUEST_NOT_REFUNDABLE: fault,
  /** The request was filled by a fill the service did not sign and send: parked, never repaid. */
  FOREIGN_FILL: fault,
  /** A transaction's gas estimate is above solver.maxGasPerTransaction: not sent, parked for an operator. */
  GAS_CAP_EXCEEDED: fault,
  /** A transaction the solver sent (an approval) reverted. */
  TRANSACTION_REVERTED: fault,
  /** A transaction's max fee × gas limit is over the chain's `maxTransactionFee`: not sent; fees come down, retried. */
  TRANSACTION_FEE_CAP_EXCEEDED: transient,
  /** A solver step stopped before starting a transaction: its lease was lost or its time is up. */
  STEP_ABORTED: transient,
  /** An approval the fill needs is sent and not mined yet: the fill waits for it. */
  APPROVAL_PENDING: transient,

  // Configuration.
  CONFIG_INVALID: fault,

  // Webhooks (set by the operator CLI).
  UNKNOWN_API_KEY: caller(404),
  /** `ferry keys referrer`: another key already has the referrer. */
  REFERRER_TAKEN: caller(409),
  INVALID_WEBHOOK_URL: caller(400),
  INVALID_WEBHOOK_HEADER: caller(400),
  /** The service runs without FERRY_WEBHOOK_SECRET_KEY: an endpoint cannot be set until it has one (admin API: 503 with this message). */
  WEBHOOK_SECRET_KEY_MISSING: { status: 503, retryable: false },
  WEBHOOK_SECRET_KEY_INVALID: fault,
  /**
   * FERRY_WEBHOOK_SECRET_KEY (and FERRY_WEBHOOK_SECRET_KEY_PREVIOUS, if set) cannot open a stored
   * webhook secret: the service refuses to start (every delivery of that key would fail).
   */
  WEBHOOK_SECRET_KEY_MISMATCH: fault,
  UNKNOWN_EVENT: caller(404),
  /** `clear`/`show --key-id` of an API key that has no webhook endpoint. */
  WEBHOOK_NOT_CONFIGURED: caller(404),

  // The operator's admin API (/admin/…).
  /** No or a wrong `authorization: Bearer <FERRY_ADMIN_TOKEN>`. */
  ADMIN_UNAUTHORIZED: caller(401),
  /** Unpark of a request that is not parked. */
  REQUEST_NOT_PARKED: caller(409),
  /** Unpark of a request parked DEEP_REORG_DEPOSIT_GONE: its deposit is not on the chain any more; stepping it would pay from other users' deposits. */
  REQUEST_DEPOSIT_GONE: caller(409),
  /** `ferry deposit-addresses show` of an address the service never handed out. */
  DEPOSIT_ADDRESS_NOT_FOUND: caller(404),
  /** `ferry solver recover-reorg` on a chain that is not halted, without --from-block. */
  CHAIN_NOT_HALTED: caller(409),
  /** `ferry solver recover-reorg`: no resume block known (the reorg went below every recorded block), or the one given is above the last good block or changed. */
  REORG_RESUME_BLOCK_UNKNOWN: caller(400),

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

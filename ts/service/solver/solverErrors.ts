import { ServiceError, type ServiceErrorOptions } from "../errors/serviceError.ts";
/**
 * The solver's typed errors. `retryable` drives the loop: a retryable error leaves the request where
 * it is for the next tick (RPC hiccup, nonce race); a non-retryable one is a bug or a misconfiguration
 * and is logged loudly (the request still stays put: nothing is ever guessed).
 */

export const SolverErrorCode = {
  /** A chain the request or deposit names is not in the configuration. */
  CHAIN_NOT_CONFIGURED: "CHAIN_NOT_CONFIGURED",
  /** A key the step needs (solver, attester, allocator) is not configured. */
  KEY_NOT_CONFIGURED: "KEY_NOT_CONFIGURED",
  /** An RPC call failed or a transaction could not be sent; worth retrying. */
  CHAIN_UNAVAILABLE: "CHAIN_UNAVAILABLE",
  /**
   * The receiver says the request is filled but its `Filled` log was not found (log range limits, a
   * wrong deploymentBlock). The request stays where it is — never failed and refunded, which would pay
   * twice — until the log is found or an operator looks.
   */
  FILL_LOG_NOT_FOUND: "FILL_LOG_NOT_FOUND",
  /** A `failure` whose request the receiver shows as filled: refunding would pay twice. Needs an operator. */
  FILLED_REQUEST_NOT_REFUNDABLE: "FILLED_REQUEST_NOT_REFUNDABLE",
} as const;

export type SolverErrorCode = (typeof SolverErrorCode)[keyof typeof SolverErrorCode];

export class SolverError extends ServiceError {
  constructor(code: SolverErrorCode, message: string, options: ServiceErrorOptions = {}) {
    super(code, message, options);
  }
}

export class ChainNotConfiguredError extends SolverError {
  readonly chainId: number;
  constructor(chainId: number) {
    super(SolverErrorCode.CHAIN_NOT_CONFIGURED, `chain ${chainId} is not configured`);
    this.chainId = chainId;
  }
}

export class KeyNotConfiguredError extends SolverError {
  constructor(role: string) {
    super(SolverErrorCode.KEY_NOT_CONFIGURED, `the ${role} key is not configured`);
  }
}

export class FillLogNotFoundError extends SolverError {
  constructor(requestId: string) {
    super(SolverErrorCode.FILL_LOG_NOT_FOUND, `request ${requestId} is filled onchain but its Filled log was not found`);
  }
}

export class FilledRequestNotRefundableError extends SolverError {
  constructor(requestId: string) {
    super(SolverErrorCode.FILLED_REQUEST_NOT_REFUNDABLE, `request ${requestId} is in failure but filled onchain: not refunded`);
  }
}

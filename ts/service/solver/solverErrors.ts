/**
 * The solver's typed errors. Their HTTP status and retryability are the error registry's
 * (../errors/errorRegistry.ts): a retryable error leaves the request where it is for the next tick; a
 * non-retryable one parks it for an operator (./startSolver.ts).
 */
import { ServiceError } from "../errors/serviceError.ts";

/**
 * The receiver says the request is filled but its `Filled` log was not found (log range limits, a
 * wrong deploymentBlock). The request stays where it is — never failed and refunded, which would pay
 * twice — until the log is found or an operator looks.
 */
export class FillLogNotFoundError extends ServiceError {
  constructor(requestId: string) {
    super("FILL_LOG_NOT_FOUND", `request ${requestId} is filled onchain but its Filled log was not found`);
  }
}

/** A `failure` whose request the receiver shows as filled: refunding would pay twice. Needs an operator. */
export class FilledRequestNotRefundableError extends ServiceError {
  constructor(requestId: string) {
    super("FILLED_REQUEST_NOT_REFUNDABLE", `request ${requestId} is in failure but filled onchain: not refunded`);
  }
}

/** A transaction the solver sent on its own behalf (an ERC-20 approval) reverted. */
export class SolverTransactionRevertedError extends ServiceError {
  constructor(what: string, hash: string) {
    super("TRANSACTION_REVERTED", `${what} ${hash} reverted`);
  }
}

/**
 * The receiver recorded a fill of the request that the service did not sign and send (another
 * signer's attestation, a leaked key, or its own attestation submitted by someone else). The request
 * is parked under this code: never repaid, never refunded, until an operator settles it.
 */
export class ForeignFillError extends ServiceError {
  constructor(requestId: string, fillTx: string) {
    super("FOREIGN_FILL", `request ${requestId} was filled by ${fillTx}, a fill the service did not sign and send: not repaid`);
  }
}

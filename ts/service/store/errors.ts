import { ServiceError, type ServiceErrorOptions } from "../errors/serviceError.ts";
/** Typed errors of the store, in the FerryError pattern (stable `code`, short message). */

export const StoreErrorCode = {
  REQUEST_NOT_FOUND: "REQUEST_NOT_FOUND",
  INVALID_CURSOR: "INVALID_CURSOR",
  STRAY_DEPOSIT_NOT_FOUND: "STRAY_DEPOSIT_NOT_FOUND",
} as const;

/** No request has this id (the HTTP layer answers 404). */
export class RequestNotFoundError extends ServiceError {
  readonly requestId: string;
  constructor(requestId: string, options: ServiceErrorOptions = {}) {
    super(StoreErrorCode.REQUEST_NOT_FOUND, `request not found: ${requestId}`, options);
    this.requestId = requestId;
  }
}

/** A continuation cursor that this store did not produce, or one produced for another sort order. */
export class InvalidCursorError extends ServiceError {
  constructor(message = "invalid continuation cursor", options: ServiceErrorOptions = {}) {
    super(StoreErrorCode.INVALID_CURSOR, message, options);
  }
}

/** No stray deposit has this key (`chainId:txHash:logIndex`). */
export class StrayDepositNotFoundError extends ServiceError {
  readonly key: string;
  constructor(key: string, options: ServiceErrorOptions = {}) {
    super(StoreErrorCode.STRAY_DEPOSIT_NOT_FOUND, `stray deposit not found: ${key}`, options);
    this.key = key;
  }
}

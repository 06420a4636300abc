/**
 * The service's typed error: a registered code (./errorRegistry.ts), a short message for humans, an
 * optional cause. Its HTTP status and retryability come from the registry, never from the throw site.
 */
import { FerryError, isFerryError } from "../../core/errors.ts";
import { ERROR_REGISTRY, errorPolicy, type ErrorCode } from "./errorRegistry.ts";

export type ServiceErrorOptions = { cause?: unknown };

export class ServiceError extends FerryError {
  declare readonly code: ErrorCode;
  readonly statusCode: number;
  constructor(code: ErrorCode, message: string, options: ServiceErrorOptions = {}) {
    const policy = ERROR_REGISTRY[code];
    super(code, message, { ...options, retryable: policy.retryable });
    this.statusCode = policy.status;
  }
}

/**
 * Whether a failed step is worth retrying as is. Registered codes answer from the registry; anything
 * else (an RPC library's error, a dropped connection) is treated as transient: the loop retries it and
 * logs it, and only a registered non-retryable code parks work for an operator.
 */
export function isRetryable(error: unknown): boolean {
  if (isFerryError(error)) return errorPolicy(error.code)?.retryable ?? error.retryable;
  return true;
}

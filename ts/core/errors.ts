/**
 * Typed errors of the Ferry core. Every error has a stable `code` (what callers and tests branch on),
 * a short message (for humans, never parsed), an optional `cause`, and a `retryable` flag that the
 * service uses to decide whether a solver step or a webhook delivery is worth retrying. Everything
 * raised by the pure core is a property of its input, so it is never retryable.
 */

/** Every code the core raises. Stable: add codes, never rename them. */
export const FerryErrorCode = {
  INVALID_INPUT: "INVALID_INPUT",
  INVALID_ADDRESS: "INVALID_ADDRESS",
  INVALID_SIGNATURE: "INVALID_SIGNATURE",
  INVALID_SIGNATURE_LENGTH: "INVALID_SIGNATURE_LENGTH",
  SIGNATURE_MALLEABLE: "SIGNATURE_MALLEABLE",
  SIGNER_NOT_ALLOWED: "SIGNER_NOT_ALLOWED",
  ATTESTATION_EXPIRED: "ATTESTATION_EXPIRED",
  UNSUPPORTED_VM: "UNSUPPORTED_VM",
  ORDER_ID_MISMATCH: "ORDER_ID_MISMATCH",
  DEPOSIT_MISMATCH: "DEPOSIT_MISMATCH",
  FILL_TARGET_MISMATCH: "FILL_TARGET_MISMATCH",
  RECEIPT_INVALID: "RECEIPT_INVALID",
  WEBHOOK_HEADER_MISSING: "WEBHOOK_HEADER_MISSING",
  WEBHOOK_HEADER_INVALID: "WEBHOOK_HEADER_INVALID",
  WEBHOOK_SIGNATURE_MISMATCH: "WEBHOOK_SIGNATURE_MISMATCH",
  WEBHOOK_TIMESTAMP_OUT_OF_TOLERANCE: "WEBHOOK_TIMESTAMP_OUT_OF_TOLERANCE",
} as const;

export type FerryErrorCode = (typeof FerryErrorCode)[keyof typeof FerryErrorCode];

export type FerryErrorOptions = {
  cause?: unknown;
  retryable?: boolean;
};

/** Base class of every Ferry error. Subclasses fix the code; the service may add its own. */
export class FerryError extends Error {
  readonly code: string;
  readonly retryable: boolean;

  constructor(code: string, message: string, options: FerryErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = new.target.name;
    this.code = code;
    this.retryable = options.retryable ?? false;
  }

  /** The stable, log-friendly form: no stack, no cause chain. */
  toJSON(): { code: string; message: string; retryable: boolean } {
    return { code: this.code, message: this.message, retryable: this.retryable };
  }
}

/** Whether `value` is a FerryError, optionally with the given code. */
export function isFerryError(value: unknown, code?: string): value is FerryError {
  return value instanceof FerryError && (code === undefined || value.code === code);
}

/** A field is missing, has the wrong type or is out of range. `path` names the field (`output.deadline`). */
export class InvalidInputError extends FerryError {
  readonly path: string | undefined;
  constructor(message: string, options: FerryErrorOptions & { path?: string } = {}) {
    super(FerryErrorCode.INVALID_INPUT, options.path ? `${options.path}: ${message}` : message, options);
    this.path = options.path;
  }
}

/** A value that must be an address (20 bytes, or a left-padded 32-byte word) is not one. */
export class InvalidAddressError extends FerryError {
  readonly path: string | undefined;
  readonly value: unknown;
  constructor(value: unknown, options: FerryErrorOptions & { path?: string } = {}) {
    super(
      FerryErrorCode.INVALID_ADDRESS,
      `${options.path ? `${options.path}: ` : ""}not a valid address: ${describe(value)}`,
      options,
    );
    this.path = options.path;
    this.value = value;
  }
}

/** The signature recovers to no address (bad v, r or s not on the curve, not hex). */
export class InvalidSignatureError extends FerryError {
  constructor(message = "signature does not recover to an address", options: FerryErrorOptions = {}) {
    super(FerryErrorCode.INVALID_SIGNATURE, message, options);
  }
}

/** The signature is not exactly 65 bytes (AttestationLib.InvalidSignatureLength). */
export class InvalidSignatureLengthError extends FerryError {
  readonly length: number;
  constructor(length: number, options: FerryErrorOptions = {}) {
    super(FerryErrorCode.INVALID_SIGNATURE_LENGTH, `signature must be 65 bytes, got ${length}`, options);
    this.length = length;
  }
}

/** The signature's s is in the upper half of the curve order (AttestationLib.SignatureMalleable). */
export class SignatureMalleableError extends FerryError {
  readonly s: `0x${string}`;
  constructor(s: `0x${string}`, options: FerryErrorOptions = {}) {
    super(FerryErrorCode.SIGNATURE_MALLEABLE, `signature s is in the upper half order: ${s}`, options);
    this.s = s;
  }
}

/** The recovered signer is not in the allowed set. */
export class SignerNotAllowedError extends FerryError {
  readonly signer: `0x${string}`;
  constructor(signer: `0x${string}`, options: FerryErrorOptions = {}) {
    super(FerryErrorCode.SIGNER_NOT_ALLOWED, `signer not allowed: ${signer}`, options);
    this.signer = signer;
  }
}

/** A v2 attestation's deadline is before `now` (the contract's `block.timestamp > deadline`). */
export class AttestationExpiredError extends FerryError {
  readonly deadline: bigint;
  readonly now: bigint;
  constructor(deadline: bigint, now: bigint, options: FerryErrorOptions = {}) {
    super(FerryErrorCode.ATTESTATION_EXPIRED, `attestation expired at ${deadline} (now ${now})`, options);
    this.deadline = deadline;
    this.now = now;
  }
}

/** A chain's virtual machine has no encoder in the core (only `evm` has one). */
export class UnsupportedVmError extends FerryError {
  readonly chain: string;
  readonly vm: string;
  constructor(chain: string, vm: string, options: FerryErrorOptions = {}) {
    super(FerryErrorCode.UNSUPPORTED_VM, `chain ${chain} uses unsupported vm ${vm}`, options);
    this.chain = chain;
    this.vm = vm;
  }
}

/** The orderId recomputed from a quote's orderData differs from the quote's orderId. */
export class OrderIdMismatchError extends FerryError {
  readonly expected: `0x${string}`;
  readonly actual: string;
  constructor(expected: `0x${string}`, actual: string, options: FerryErrorOptions = {}) {
    super(FerryErrorCode.ORDER_ID_MISMATCH, `orderId is ${actual}, orderData hashes to ${expected}`, options);
    this.expected = expected;
    this.actual = actual;
  }
}

/** Which part of a quote's deposit step disagrees with the quote. */
export type DepositField = "step" | "calldata" | "chain" | "depository" | "id" | "depositor" | "currency" | "amount" | "payment" | "reclaimAt";

/** The deposit transaction of a quote does not do what the quote says. */
export class DepositMismatchError extends FerryError {
  readonly field: DepositField;
  constructor(field: DepositField, message: string, options: FerryErrorOptions = {}) {
    super(FerryErrorCode.DEPOSIT_MISMATCH, `deposit ${field}: ${message}`, options);
    this.field = field;
  }
}

/** Which field of a v2 attestation names another place than the one a fill goes to. */
export type FillTargetField = "destinationChainId" | "receiver";

/**
 * A v2 attestation is for another chain or another receiver than the fill's: the compact fill does
 * not send those two fields (the receiver supplies its own), so onchain this is SignerNotAllowed of an
 * unrelated address. `field` says which one is off; `attested` is the attestation's value, `target`
 * the chain id or receiver address the fill goes to.
 */
export class FillTargetMismatchError extends FerryError {
  readonly field: FillTargetField;
  readonly attested: string;
  readonly target: string;
  constructor(field: FillTargetField, attested: string, target: string, options: FerryErrorOptions = {}) {
    super(FerryErrorCode.FILL_TARGET_MISMATCH, `attestation ${field} is ${attested}, the fill goes to ${target}`, options);
    this.field = field;
    this.attested = attested;
    this.target = target;
  }
}

/**
 * A request receipt (./requestReceipt.ts) failed one of its checks (./verifyReceipt.ts): `check` names
 * the first that failed, in the verifier's fixed order (`RECEIPT_CHECKS`).
 */
export class ReceiptInvalidError extends FerryError {
  readonly check: string;
  constructor(check: string, message: string, options: FerryErrorOptions = {}) {
    super(FerryErrorCode.RECEIPT_INVALID, `${check}: ${message}`, options);
    this.check = check;
  }
}

/** A webhook delivery lacks a signature header. */
export class WebhookHeaderMissingError extends FerryError {
  readonly header: string;
  constructor(header: string, options: FerryErrorOptions = {}) {
    super(FerryErrorCode.WEBHOOK_HEADER_MISSING, `missing header ${header}`, options);
    this.header = header;
  }
}

/** A webhook signature header is present but malformed (timestamp not an integer, repeated header). */
export class WebhookHeaderInvalidError extends FerryError {
  readonly header: string;
  constructor(header: string, message: string, options: FerryErrorOptions = {}) {
    super(FerryErrorCode.WEBHOOK_HEADER_INVALID, `header ${header}: ${message}`, options);
    this.header = header;
  }
}

/** The webhook HMAC does not match. */
export class WebhookSignatureMismatchError extends FerryError {
  constructor(options: FerryErrorOptions = {}) {
    super(FerryErrorCode.WEBHOOK_SIGNATURE_MISMATCH, "webhook signature does not match", options);
  }
}

/** The webhook timestamp is further than the tolerance from `now` (either direction). */
export class WebhookTimestampOutOfToleranceError extends FerryError {
  readonly timestamp: number;
  readonly now: number;
  readonly toleranceSeconds: number;
  constructor(timestamp: number, now: number, toleranceSeconds: number, options: FerryErrorOptions = {}) {
    super(
      FerryErrorCode.WEBHOOK_TIMESTAMP_OUT_OF_TOLERANCE,
      `timestamp ${timestamp} is more than ${toleranceSeconds}s from now (${now})`,
      options,
    );
    this.timestamp = timestamp;
    this.now = now;
    this.toleranceSeconds = toleranceSeconds;
  }
}

function describe(value: unknown): string {
  if (typeof value === "string") return JSON.stringify(value.length > 80 ? `${value.slice(0, 77)}...` : value);
  if (typeof value === "bigint") return `${value}n`;
  if (value === null || value === undefined || typeof value !== "object") return String(value);
  return Array.isArray(value) ? "array" : "object";
}

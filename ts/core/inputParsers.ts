/**
 * Parsers from loose JSON input (what a file, an HTTP body or a quote holds) to the exact values
 * the hashing code takes. Each one either returns a canonical value or throws a typed error that
 * names the field, so a bad field never reaches an encoder.
 */
import { checksumAddress, getAddress, type Address, type Hex } from "viem";
import { InvalidAddressError, InvalidInputError } from "./errors.ts";

const HEX_RE = /^0x(?:[0-9a-fA-F]{2})*$/;
const DECIMAL_RE = /^[0-9]+$/;

/** An unsigned integer of `bits` bits: a bigint, a safe-integer JSON number or a decimal string. */
export function parseUint(value: unknown, path: string, bits = 256): bigint {
  let parsed: bigint;
  if (typeof value === "bigint") {
    parsed = value;
  } else if (typeof value === "number") {
    // Larger JSON numbers have already lost precision in JSON.parse: ask for a string instead.
    if (!Number.isSafeInteger(value)) throw new InvalidInputError("not a safe integer; pass a decimal string", { path });
    parsed = BigInt(value);
  } else if (typeof value === "string" && DECIMAL_RE.test(value)) {
    parsed = BigInt(value);
  } else {
    throw new InvalidInputError("expected an unsigned integer (number or decimal string)", { path });
  }
  if (parsed < 0n || parsed >> BigInt(bits) !== 0n) throw new InvalidInputError(`out of range for uint${bits}`, { path });
  return parsed;
}

/** Exactly 32 bytes of 0x-hex, returned lower-case. */
export function parseBytes32(value: unknown, path: string): Hex {
  if (typeof value !== "string" || !/^0x[0-9a-fA-F]{64}$/.test(value)) {
    throw new InvalidInputError("expected 32 bytes of 0x-prefixed hex", { path });
  }
  return value.toLowerCase() as Hex;
}

const ADDRESS_RE = /^0x[0-9a-fA-F]{40}$/;

/**
 * Whether `value` is an EVM address as EIP-55 reads one: `0x` and 40 hex digits, all in one case (no
 * checksum: all-lowercase and all-uppercase are both valid) or in mixed case that is exactly the
 * address's checksum — a mixed case that is not is most likely a typo, and funds sent to it would be
 * lost. (viem's `isAddress(value, {strict: true})` refuses all-uppercase hex, which EIP-55 accepts.)
 * The one address rule of the CLI, the API and ts/core.
 */
export function isEip55Address(value: string): boolean {
  if (!ADDRESS_RE.test(value)) return false;
  const hex = value.slice(2);
  if (hex === hex.toLowerCase() || hex === hex.toUpperCase()) return true;
  return checksumAddress(value.toLowerCase() as Address) === value;
}

/**
 * A 20-byte EVM address (INVALID_ADDRESS; INVALID_INPUT when missing) as `isEip55Address` reads it:
 * one case, or mixed case that is its EIP-55 checksum. Returned checksummed.
 */
export function parseAddress(value: unknown, path: string): Address {
  if (value === undefined) throw new InvalidInputError("required", { path });
  if (typeof value !== "string" || !isEip55Address(value)) throw new InvalidAddressError(value, { path });
  return getAddress(value);
}

/**
 * A user or currency as the attestation formats carry it: a bytes32 word. A 20-byte EVM address is
 * left-padded; 32 bytes (a non-EVM account) are taken as they are. Returned lower-case.
 */
export function parseAddressWord(value: unknown, path: string): Hex {
  if (typeof value === "string" && /^0x[0-9a-fA-F]{64}$/.test(value)) return value.toLowerCase() as Hex;
  const address = parseAddress(value, path);
  return `0x${"0".repeat(24)}${address.slice(2).toLowerCase()}`;
}

/** Any whole number of bytes as 0x-hex (`0x` is the empty byte string). Returned lower-case. */
export function parseHexBytes(value: unknown, path: string): Hex {
  if (typeof value !== "string" || !HEX_RE.test(value)) throw new InvalidInputError("expected 0x-prefixed hex bytes", { path });
  return value.toLowerCase() as Hex;
}

/** A non-empty string. */
export function parseString(value: unknown, path: string): string {
  if (typeof value !== "string" || value.length === 0) throw new InvalidInputError("expected a non-empty string", { path });
  return value;
}

/** A JSON object (not an array, not null). */
export function parseObject(value: unknown, path: string): Record<string, unknown> {
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    throw new InvalidInputError("expected an object", { path: path || undefined });
  }
  return value as Record<string, unknown>;
}

/** A JSON array. */
export function parseArray(value: unknown, path: string): readonly unknown[] {
  if (!Array.isArray(value)) throw new InvalidInputError("expected an array", { path });
  return value;
}

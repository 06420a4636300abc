/**
 * The value types every boundary of the service decodes into, as TypeBox codecs: the encoded side is
 * what travels (JSON strings in HTTP bodies, jsonb in the database, the config file), the decoded side
 * is what the code behind the boundary works with.
 *
 * - Addresses, 32-byte ids and hex data are canonical: lowercase `0x` hex, and the type says so
 *   (`Address`, `Bytes32`, `CanonicalHex` are ``Lowercase<`0x${string}`>``). viem's own `Address`/`Hex`
 *   (`0x${string}`, checksummed or any case) is not assignable to them, so the compiler rejects a value
 *   that skipped the boundary; a canonical value is still a viem `Address`/`Hex` and goes to viem
 *   unchanged. Each is made by exactly one function here (`canonicalAddress`, `canonicalHex`), called
 *   where a value enters: the config, the service's accounts, a decoded chain log, a store row, an
 *   HTTP input. Every address comparison in the service is then a plain `===`, and nothing behind a
 *   boundary lowercases again.
 * - Token amounts are `bigint` in code and decimal strings on the wire (uint256: at most 2^256 − 1).
 * - Chain ids are positive safe integers; times are unix seconds (integers).
 *
 * The plain string schemas (`AddressString`, …) are the same patterns for schemas that validate
 * without decoding (HTTP responses, the OpenAPI document).
 */
import { Type, type TSchema, type TString } from "typebox";
import { maxUint256, toHex } from "viem";
import { InvalidInputError } from "../../core/errors.ts";
import type { LowercaseHex } from "../../core/lowercaseHex.ts";

export const ADDRESS_PATTERN = "^0x[0-9a-fA-F]{40}$";
export const BYTES32_PATTERN = "^0x[0-9a-fA-F]{64}$";
export const HEX_DATA_PATTERN = "^0x([0-9a-fA-F]{2})*$";
export const UINT_PATTERN = "^(0|[1-9][0-9]{0,77})$";

export const AddressString = Type.String({ pattern: ADDRESS_PATTERN, description: "EVM address" });
export const Bytes32String = Type.String({ pattern: BYTES32_PATTERN, description: "0x + 64 hex digits" });
export const HexDataString = Type.String({ pattern: HEX_DATA_PATTERN, description: "0x-prefixed hex bytes" });
export const UintString = Type.String({ pattern: UINT_PATTERN, description: "Integer in smallest units (decimal string)" });

/**
 * Lowercase `0x` hex: the canonical form of every address, id, hash and byte string in the service.
 * `Lowercase<…>` (as Ponder types its addresses) makes it a type: viem's `0x${string}` is not
 * assignable to it, a lowercase literal is. It is core's `LowercaseHex` (../../core/lowercaseHex.ts),
 * which core's hash functions return (`hashOrder`, `callsRequestId`, the digests, the payout request
 * hashes): viem computes them lowercase, so a hash from core is canonical as it comes.
 */
export type CanonicalHex = LowercaseHex;
/** An EVM address in canonical (lowercase) form. Use viem's `Address` only for values not yet canonical. */
export type Address = CanonicalHex;
/** A 32-byte id or hash (requestId, orderId, transaction or block hash) in canonical form. */
export type Bytes32 = CanonicalHex;

/** The one way to a `CanonicalHex` (ids, hashes, calldata): lowercase the (already shape-checked) hex. */
export const canonicalHex = (value: string): CanonicalHex => value.toLowerCase() as CanonicalHex;
/** The one way to an `Address`: lowercase the (already shape-checked) address (the same lowering). */
export const canonicalAddress: (value: string) => Address = canonicalHex;
/** The id made of 32 `bytes` (32 random bytes: a requestId, a funding order id), canonical. */
export const bytes32Of = (bytes: Uint8Array): Bytes32 => canonicalHex(toHex(bytes));

/** `T` with every hex field (an address, id, hash or bytes: viem's `0x${string}`) in canonical form. */
export type CanonicalFields<T> = { [K in keyof T]: T[K] extends `0x${string}` ? CanonicalHex : T[K] };

/**
 * A decoded chain record (a log's `args`, a call's fields) with every hex string field in canonical
 * form, the rest as it is: the one step that makes a decoded log's addresses and ids canonical.
 */
export function canonicalFields<T extends object>(record: T): CanonicalFields<T> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(record)) out[key] = typeof value === "string" && value.startsWith("0x") ? canonicalHex(value) : value;
  return out as CanonicalFields<T>;
}

/** Whether an integer fits a uint256 (0 ≤ value ≤ 2^256 − 1). */
export const fitsUint256 = (value: bigint): boolean => value >= 0n && value <= maxUint256;

/** An EVM address, decoded to its canonical lowercase form (encoded as it is: already canonical). */
export const Address = Type.Codec(AddressString)
  .Decode(canonicalAddress)
  .Encode((value: Address): string => value);

/**
 * `schema` (a string schema: its own pattern, length and description, as the OpenAPI document shows
 * it) decoded to canonical hex: how a route's ids, hashes and hex inputs are read canonical once.
 */
export const CanonicalHexOf = (schema: TString) =>
  Type.Codec(schema)
    .Decode(canonicalHex)
    .Encode((value: CanonicalHex): string => value);

/** A 32-byte id or hash (requestId, orderId, transaction hash), lowercase. */
export const Bytes32 = CanonicalHexOf(Bytes32String);

/** Arbitrary bytes (calldata, revert data), lowercase. */
export const HexData = CanonicalHexOf(HexDataString);

/** A uint256 amount: a decimal string on the wire, a bigint in code. */
export const Uint256 = Type.Codec(UintString)
  .Decode((value) => {
    const amount = BigInt(value);
    if (amount > maxUint256) throw new InvalidInputError("exceeds uint256 (2^256 - 1)");
    return amount;
  })
  .Encode((value: bigint) => value.toString());

export const ChainId = Type.Integer({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER, description: "EVM chain id" });
export const UnixSeconds = Type.Integer({ minimum: 0, maximum: Number.MAX_SAFE_INTEGER, description: "Unix seconds" });
export const BlockNumber = Type.Integer({ minimum: 0, maximum: Number.MAX_SAFE_INTEGER });
export const LogIndex = Type.Integer({ minimum: 0, maximum: Number.MAX_SAFE_INTEGER });
/** Basis points as the spec writes them: a decimal string, 0–10000. */
export const BpsString = Type.String({ pattern: "^(0|[1-9][0-9]{0,3}|10000)$", description: "Basis points, 0–10000" });

export const ZERO_ADDRESS: Address = "0x0000000000000000000000000000000000000000";
export const ZERO_BYTES32: Bytes32 = "0x0000000000000000000000000000000000000000000000000000000000000000";

/**
 * Text the service accepts anywhere (query values, path params, body strings and keys): well-formed
 * Unicode without NUL. PostgreSQL cannot store either (`text`/`jsonb` refuse U+0000 and unpaired
 * surrogates: error 22P05), and neither has a use in an id, an address or a referrer, so both are
 * refused at the HTTP boundary instead of failing — differently on each engine — at the store.
 */
const NOT_STORABLE = /\u0000|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
export function isStorableText(value: string): boolean {
  return !NOT_STORABLE.test(value);
}

/** `schema` or null (a nullable column or field). */
export const Nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);

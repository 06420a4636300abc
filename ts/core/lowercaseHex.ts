/**
 * Hex that is lowercase by construction, and typed so. viem writes every hash it computes
 * (`keccak256`, `hashStruct`, `hashTypedData`) and every byte string it encodes with `bytesToHex`:
 * lowercase digits. Core's hash functions return `LowercaseHex` to say so; it is still a viem `Hex`
 * (``Lowercase<`0x${string}`>`` is assignable to `` `0x${string}` ``), so an integrator passes it to
 * viem unchanged, and the service takes it as its canonical form without lowering it again.
 */
import { keccak256, type Hex } from "viem";

/** Lowercase `0x` hex: a hash (or bytes) as viem computes it. */
export type LowercaseHex = Lowercase<`0x${string}`>;

/**
 * A hash viem just computed (`keccak256`, `hashStruct`, `hashTypedData` output), typed as the lowercase
 * hex it is. Only for viem's own hash output: any other hex may carry upper-case digits.
 */
export const lowercaseHash = (hash: Hex): LowercaseHex => hash as LowercaseHex;

/** keccak256 of `data` as lowercase hex. */
export const keccak256Lowercase = (data: Hex | Uint8Array): LowercaseHex => lowercaseHash(keccak256(data));

/** Test helpers that build malformed twins of a valid 65-byte signature. No tests here. */
import { concat, hexToBigInt, numberToHex, slice, type Hex } from "viem";
import { SECP256K1_N } from "../../ts/core/recoverStrict.ts";

/** The same signature with s' = n − s and v flipped: ecrecover accepts it, OpenZeppelin must not. */
export function highSTwin(signature: Hex): Hex {
  const r = slice(signature, 0, 32);
  const s = hexToBigInt(slice(signature, 32, 64));
  const v = hexToBigInt(slice(signature, 64, 65));
  return concat([r, numberToHex(SECP256K1_N - s, { size: 32 }), numberToHex(v === 27n ? 28 : 27, { size: 1 })]);
}

/** Replaces one component of a signature. */
export function withParts(signature: Hex, parts: { r?: bigint; s?: bigint; v?: number }): Hex {
  return concat([
    parts.r === undefined ? slice(signature, 0, 32) : numberToHex(parts.r, { size: 32 }),
    parts.s === undefined ? slice(signature, 32, 64) : numberToHex(parts.s, { size: 32 }),
    parts.v === undefined ? slice(signature, 64, 65) : numberToHex(parts.v, { size: 1 }),
  ]);
}

/**
 * Strict ECDSA recovery — TypeScript twin of AttestationLib.recoverStrict (OpenZeppelin
 * ECDSA.tryRecoverCalldata + ecrecover): exactly 65 bytes (r, s, v), s in the lower half order,
 * v ∈ {27, 28}, and a recovery that yields an address. Same checks, same order, so TS never accepts
 * a signature the contracts reject, or the other way round.
 */
import { hashMessage, hexToBytes, isHex, recoverAddress, toHex, type Address, type Hex } from "viem";
import { InvalidSignatureError, InvalidSignatureLengthError, SignatureMalleableError } from "./errors.ts";
import { parseBytes32 } from "./inputParsers.ts";

/** The secp256k1 group order. */
export const SECP256K1_N = 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141n;
/** The largest s OpenZeppelin's ECDSA accepts (n / 2). */
export const SECP256K1_HALF_N = 0x7fffffffffffffffffffffffffffffff5d576e7357a4501ddfe92f46681b20a0n;

/** The EIP-191 personal-sign hash of a 32-byte digest: keccak256("\x19Ethereum Signed Message:\n32" ‖ digest). */
export function toPersonalSignHash(digest: Hex): Hex {
  return hashMessage({ raw: parseBytes32(digest, "digest") });
}

/**
 * Recovers the signer of `hash` (already the hash that was signed). Throws INVALID_SIGNATURE_LENGTH,
 * SIGNATURE_MALLEABLE or INVALID_SIGNATURE, in the contract's order.
 */
export async function recoverStrict(hash: Hex, signature: Hex | Uint8Array): Promise<Address> {
  const checkedHash = parseBytes32(hash, "hash");
  let bytes: Uint8Array;
  if (typeof signature === "string") {
    if (!isHex(signature, { strict: true }) || signature.length % 2 !== 0) throw new InvalidSignatureError("signature is not 0x-prefixed hex");
    bytes = hexToBytes(signature);
  } else {
    bytes = signature;
  }
  if (bytes.length !== 65) throw new InvalidSignatureLengthError(bytes.length);

  const r = BigInt(toHex(bytes.subarray(0, 32)));
  const s = BigInt(toHex(bytes.subarray(32, 64)));
  const v = bytes[64];
  if (s > SECP256K1_HALF_N) throw new SignatureMalleableError(toHex(bytes.subarray(32, 64)));
  // ecrecover returns address(0) for these; OpenZeppelin turns that into InvalidSignature.
  if ((v !== 27 && v !== 28) || r === 0n || r >= SECP256K1_N || s === 0n) throw new InvalidSignatureError();
  try {
    return await recoverAddress({ hash: checkedHash, signature: toHex(bytes) });
  } catch (cause) {
    throw new InvalidSignatureError(undefined, { cause });
  }
}

/** Recovers the signer of an EIP-191 personal-sign signature over the 32 raw bytes of `digest`. */
export async function recoverPersonalSignerStrict(digest: Hex, signature: Hex | Uint8Array): Promise<Address> {
  return recoverStrict(toPersonalSignHash(digest), signature);
}

/**
 * EIP-2098 compact signatures: `r` and `vs` = (v - 27) << 255 | s, two words instead of 65 bytes.
 * The form `AttestedReceiver.fill` and `Depository.execute_kJ9b8` take (`CompactSignature` in
 * contracts/libraries/AttestationLib.sol). `recoverCompactStrict` is the twin of
 * `AttestationLib.recoverStrict(hash, CompactSignature)`: s in the lower half order
 * (SIGNATURE_MALLEABLE), then a recovery that yields an address (INVALID_SIGNATURE). Every `vs`
 * encodes a v of 27 or 28, so there is no length or v to reject.
 */
import { bytesToHex, hexToBytes, isHex, numberToHex, recoverAddress, type Address, type Hex } from "viem";
import { InvalidInputError, InvalidSignatureError, InvalidSignatureLengthError, SignatureMalleableError } from "./errors.ts";
import { parseBytes32, parseObject } from "./inputParsers.ts";
import { SECP256K1_HALF_N, SECP256K1_N } from "./recoverStrict.ts";

/** An EIP-2098 signature: the struct `CompactSignature { bytes32 r; bytes32 vs; }`. */
export type CompactSignature = { r: Hex; vs: Hex };

const S_MASK = (1n << 255n) - 1n;

/**
 * The compact form of a 65-byte (r, s, v) signature, with the contracts' rules first: exactly 65
 * bytes (INVALID_SIGNATURE_LENGTH), s ≤ n/2 (SIGNATURE_MALLEABLE; the high-s twin of a signature
 * has no compact form), v 27 or 28, 0 < r < n and s > 0 (INVALID_SIGNATURE) — `recoverStrict`'s
 * checks, so a signature it accepts converts and one it rejects does not. Lossless:
 * `fromCompactSignature` gives the same 65 bytes back.
 */
export function toCompactSignature(signature: Hex | Uint8Array): CompactSignature {
  const bytes = signatureBytes(signature);
  if (bytes.length !== 65) throw new InvalidSignatureLengthError(bytes.length);
  const r = BigInt(bytesToHex(bytes.subarray(0, 32)));
  const s = BigInt(bytesToHex(bytes.subarray(32, 64)));
  const v = bytes[64]!;
  if (s > SECP256K1_HALF_N) throw new SignatureMalleableError(bytesToHex(bytes.subarray(32, 64)));
  if ((v !== 27 && v !== 28) || r === 0n || r >= SECP256K1_N || s === 0n) throw new InvalidSignatureError();
  return { r: numberToHex(r, { size: 32 }), vs: numberToHex((BigInt(v - 27) << 255n) | s, { size: 32 }) };
}

/** The 65-byte (r, s, v) form of a compact signature, v as 27 or 28. No checks: recovery applies them. */
export function fromCompactSignature(signature: CompactSignature): Hex {
  const vs = BigInt(signature.vs);
  const s = vs & S_MASK;
  const v = Number(vs >> 255n) + 27;
  return `${signature.r}${numberToHex(s, { size: 32 }).slice(2)}${v.toString(16)}` as Hex;
}

/**
 * A compact signature from loose input: `{ r, vs }` (32-byte hex words) or the 64 raw bytes r ‖ vs
 * as one hex string. Throws INVALID_INPUT naming `path`.
 */
export function parseCompactSignature(input: unknown, path = "signature"): CompactSignature {
  if (typeof input === "string") {
    if (!isHex(input, { strict: true }) || input.length !== 2 + 128) {
      throw new InvalidInputError("expected 64 bytes of hex (r ‖ vs, EIP-2098)", { path });
    }
    return { r: `0x${input.slice(2, 66).toLowerCase()}` as Hex, vs: `0x${input.slice(66).toLowerCase()}` as Hex };
  }
  const o = parseObject(input, path);
  return { r: parseBytes32(o.r, `${path}.r`), vs: parseBytes32(o.vs, `${path}.vs`) };
}

/**
 * Recovers the signer of `hash` (the hash that was signed) from a compact signature, with
 * AttestationLib's rules and order: SIGNATURE_MALLEABLE when s > n/2, INVALID_SIGNATURE when the
 * recovery yields no address (r or s zero, r not below n, no curve point).
 */
export async function recoverCompactStrict(hash: Hex, signature: CompactSignature): Promise<Address> {
  const checkedHash = parseBytes32(hash, "hash");
  const { r, vs } = parseCompactSignature(signature);
  const s = BigInt(vs) & S_MASK;
  if (s > SECP256K1_HALF_N) throw new SignatureMalleableError(numberToHex(s, { size: 32 }));
  const rValue = BigInt(r);
  if (rValue === 0n || rValue >= SECP256K1_N || s === 0n) throw new InvalidSignatureError();
  try {
    return await recoverAddress({ hash: checkedHash, signature: fromCompactSignature({ r, vs }) });
  } catch (cause) {
    throw new InvalidSignatureError(undefined, { cause });
  }
}

function signatureBytes(signature: Hex | Uint8Array): Uint8Array {
  if (typeof signature !== "string") return signature;
  if (!isHex(signature, { strict: true }) || signature.length % 2 !== 0) throw new InvalidSignatureError("signature is not 0x-prefixed hex");
  return hexToBytes(signature);
}

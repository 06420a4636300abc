/**
 * Pure verification of a signed attestation, with the contracts' rules and order: (v2) deadline not
 * passed → strict signature recovery (65 bytes, low s, v 27/28, non-zero signer) → signer allowed.
 * The clock is a parameter: the caller passes `now` in unix seconds.
 */
import type { Address, Hex } from "viem";
import { attestationDigest, fillDigest, normalizeFillAttestation, type AttestationFormat } from "./attestationDigest.ts";
import { AttestationExpiredError, FerryError, InvalidAddressError, InvalidInputError, SignerNotAllowedError } from "./errors.ts";
import { parseUint } from "./inputParsers.ts";
import { recoverPersonalSignerStrict } from "./recoverStrict.ts";

export type VerifyAttestationParams = {
  format: AttestationFormat;
  /** Normalized or loose attestation input. */
  attestation: unknown;
  signature: Hex | Uint8Array;
  /** Allowed signer addresses; compared case-insensitively. */
  signers: readonly string[];
  /** Unix seconds. Required for v2 (expiry); ignored for v1, which binds no expiry. */
  now?: bigint | number;
};

export type VerifyAttestationResult =
  | { valid: true; signer: Address; digest: Hex }
  | { valid: false; error: FerryError };

/**
 * Verifies a signed attestation. Never throws for bad input or a bad signature: those come back as
 * `{ valid: false, error }` with a typed FerryError.
 */
export async function verifyAttestation(params: VerifyAttestationParams): Promise<VerifyAttestationResult> {
  try {
    return { valid: true, ...(await assertAttestation(params)) };
  } catch (error) {
    if (error instanceof FerryError) return { valid: false, error };
    throw error;
  }
}

/** Like verifyAttestation, but returns `{ signer, digest }` or throws the typed FerryError. */
export async function assertAttestation(params: VerifyAttestationParams): Promise<{ signer: Address; digest: Hex }> {
  const allowed = new Set(params.signers.map(normalizeSigner));
  let digest: Hex;
  if (params.format === "v2") {
    const attestation = normalizeFillAttestation(params.attestation);
    digest = fillDigest(attestation);
    if (params.now === undefined) throw new InvalidInputError("required for v2 attestations", { path: "now" });
    const now = parseUint(params.now, "now");
    // AttestedReceiver reverts when block.timestamp > deadline: the deadline second itself is valid.
    if (attestation.deadline < now) throw new AttestationExpiredError(attestation.deadline, now);
  } else {
    digest = attestationDigest(params.format, params.attestation);
  }
  const signer = await recoverPersonalSignerStrict(digest, params.signature);
  if (!allowed.has(signer.toLowerCase())) throw new SignerNotAllowedError(signer);
  return { signer, digest };
}

function normalizeSigner(value: string, index: number): string {
  if (typeof value !== "string" || !/^0x[0-9a-fA-F]{40}$/.test(value)) throw new InvalidAddressError(value, { path: `signers[${index}]` });
  return value.toLowerCase();
}

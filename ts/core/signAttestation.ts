/**
 * Signing of attestation digests: an EIP-191 personal-sign signature over the 32 raw digest bytes
 * (what AttestationLib.toPersonalSignHash + recoverStrict verify). The key stays in the caller's
 * viem LocalAccount; the core never sees it.
 */
import type { Address, Hex, LocalAccount } from "viem";
import { attestationDigest, type AttestationFormat } from "./attestationDigest.ts";
import { parseBytes32 } from "./inputParsers.ts";

export type SignedAttestation = {
  format: AttestationFormat;
  digest: Hex;
  signature: Hex;
  signer: Address;
};

/** Personal-signs the 32 raw bytes of `digest` (not its hex text). */
export async function signAttestationDigest(account: LocalAccount, digest: Hex): Promise<Hex> {
  return account.signMessage({ message: { raw: parseBytes32(digest, "digest") } });
}

/** Normalizes `attestation` (loose input accepted), computes its digest and signs it. */
export async function signAttestation(params: {
  account: LocalAccount;
  format: AttestationFormat;
  attestation: unknown;
}): Promise<SignedAttestation> {
  const digest = attestationDigest(params.format, params.attestation);
  const signature = await signAttestationDigest(params.account, digest);
  return { format: params.format, digest, signature, signer: params.account.address };
}

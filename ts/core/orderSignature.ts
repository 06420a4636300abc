/**
 * The quote's `orderSignature`: an EIP-191 personal-sign signature over the 32 raw bytes of the
 * orderId, recovered with the same strict rules as attestations.
 */
import type { Address, Hex, LocalAccount } from "viem";
import { parseBytes32 } from "./inputParsers.ts";
import { recoverPersonalSignerStrict } from "./recoverStrict.ts";

/** Signs an orderId (bytes32) as a personal message over its raw bytes. */
export async function signOrder(account: LocalAccount, orderId: Hex): Promise<Hex> {
  return account.signMessage({ message: { raw: parseBytes32(orderId, "orderId") } });
}

/** Recovers who signed an orderId. Throws INVALID_SIGNATURE_LENGTH, SIGNATURE_MALLEABLE or INVALID_SIGNATURE. */
export async function recoverOrderSigner(orderId: Hex, signature: Hex | Uint8Array): Promise<Address> {
  return recoverPersonalSignerStrict(parseBytes32(orderId, "orderId"), signature);
}

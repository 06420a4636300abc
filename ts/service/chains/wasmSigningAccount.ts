/**
 * A viem LocalAccount for a private key whose ECDSA signing runs in libsecp256k1 — Bitcoin Core's
 * secp256k1 library compiled to WebAssembly (the `tiny-secp256k1` package) — instead of viem's
 * JavaScript curve arithmetic (@noble/curves). The service signs several times per intent (the fill's
 * attestation, the fill and repayment transactions, the allocator's payout); each signature took about
 * 1 ms in JavaScript on the benchmark machine and takes about 0.2 ms here.
 *
 * Everything but the signature of a 32-byte hash stays viem's: the address and public key, the
 * hashing (transactions, EIP-712 typed data, EIP-191 messages), the serialisation, EIP-7702
 * authorisations. The signature is the same bytes: both libraries use RFC 6979 deterministic nonces
 * without extra entropy and return the low-s form, and the recovery id becomes `yParity`/`v` exactly
 * as viem's `sign` makes them. The test holds the two together on thousands of keys and hashes.
 */
import { signRecoverable } from "tiny-secp256k1";
import {
  bytesToHex,
  hashMessage,
  hashTypedData,
  hexToBytes,
  keccak256,
  serializeSignature,
  serializeTransaction,
  type Hex,
  type LocalAccount,
  type Signature,
  type TransactionSerializable,
  type SerializeTransactionFn,
} from "viem";
import { privateKeyToAccount } from "viem/accounts";

/** `privateKeyToAccount(privateKey)` with its signatures made by libsecp256k1. */
export function wasmSigningAccount(privateKey: Hex): LocalAccount {
  const account = privateKeyToAccount(privateKey);
  const key = hexToBytes(privateKey);
  const signHash = (hash: Hex): Signature => {
    const { signature, recoveryId } = signRecoverable(hexToBytes(hash), key);
    return { r: bytesToHex(signature.subarray(0, 32)), s: bytesToHex(signature.subarray(32, 64)), v: recoveryId ? 28n : 27n, yParity: recoveryId };
  };
  const signTransaction = async (transaction: TransactionSerializable, options?: { serializer?: SerializeTransactionFn<TransactionSerializable> }) => {
    const serializer = options?.serializer ?? serializeTransaction;
    // An EIP-4844 transaction's signature covers its payload without the sidecars (viem's rule too).
    const signable = transaction.type === "eip4844" ? { ...transaction, sidecars: false as const } : transaction;
    return serializer(transaction, signHash(keccak256(await serializer(signable))));
  };
  return {
    ...account,
    sign: async ({ hash }) => serializeSignature(signHash(hash)),
    signMessage: async ({ message }) => serializeSignature(signHash(hashMessage(message))),
    signTypedData: async (typedData) => serializeSignature(signHash(hashTypedData(typedData as Parameters<typeof hashTypedData>[0]))),
    signTransaction: signTransaction as LocalAccount["signTransaction"],
  };
}

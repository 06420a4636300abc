/**
 * A transaction signed locally, as the service stores and broadcasts it: its raw bytes and its hash
 * (keccak256 of the raw bytes, what the node answers for `eth_sendRawTransaction`), both canonical.
 * The one place a signed transaction's hash is computed (the nonce manager's sends, the attester's
 * cancels in ../solver/sendTransaction.ts). Pure.
 */
import type { Hex } from "viem";
import { keccak256Lowercase } from "../../core/lowercaseHex.ts";
import { canonicalHex, type Bytes32, type CanonicalHex } from "../model/values.ts";

export type SignedTransaction = { hash: Bytes32; raw: CanonicalHex };

export function signedTransactionOf(raw: Hex): SignedTransaction {
  return { hash: keccak256Lowercase(raw), raw: canonicalHex(raw) };
}

/**
 * A transaction read from the chain with its addresses, hash and input in canonical form: the one place
 * a read transaction's fields are lowercased, so the solver and the indexer compare them with `===`
 * and record them as read. viem's not-found error propagates unchanged.
 */
import type { Hex, PublicClient } from "viem";
import { canonicalAddress, canonicalFields, type Address, type Bytes32, type CanonicalHex } from "../model/values.ts";

/** The fields of a transaction the service reads: `to` is null for a contract creation. */
export type ReadTransaction = { hash: Bytes32; from: Address; to: Address | null; input: CanonicalHex; value: bigint };

export async function readTransaction(publicClient: PublicClient, hash: Hex): Promise<ReadTransaction> {
  return transactionFields(await publicClient.getTransaction({ hash }));
}

/** A transaction as viem returns it (`getTransaction`, a block read with its transactions), canonical. */
export function transactionFields(tx: { hash: Hex; from: Hex; to: Hex | null; input: Hex; value: bigint }): ReadTransaction {
  return { ...canonicalFields({ hash: tx.hash, from: tx.from, input: tx.input }), to: tx.to === null ? null : canonicalAddress(tx.to), value: tx.value };
}

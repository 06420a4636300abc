/**
 * A transaction receipt read from the chain with its transaction and block hashes in canonical form:
 * the one place a read receipt's hashes are lowercased, so the solver records a fill's, a payout's or a
 * deposit's hash as read and compares it with `===`. Its logs stay as read: each is decoded (and its
 * addresses and ids made canonical) where it is used. viem's not-found error propagates unchanged.
 * `readBlockReceipts` reads a whole block's (`eth_getBlockReceipts`), in the same form.
 */
import type { Hex, PublicClient, TransactionReceipt } from "viem";
import { canonicalFields, type Bytes32 } from "../model/values.ts";

/** A viem receipt whose `transactionHash` and `blockHash` are canonical (still a viem `TransactionReceipt`). */
export type Receipt = Omit<TransactionReceipt, "transactionHash" | "blockHash"> & { transactionHash: Bytes32; blockHash: Bytes32 };

export async function readReceipt(publicClient: PublicClient, hash: Hex): Promise<Receipt> {
  return receiptFields(await publicClient.getTransactionReceipt({ hash }));
}

/**
 * Every receipt of block `blockNumber` (`eth_getBlockReceipts`), canonical. A node without the method
 * answers an error (./rpcErrors.ts `isUnsupportedMethod`); one without the block, viem's
 * BlockNotFoundError.
 */
export async function readBlockReceipts(publicClient: PublicClient, blockNumber: bigint): Promise<Receipt[]> {
  return (await publicClient.getBlockReceipts({ blockNumber })).map(receiptFields);
}

/** A receipt as viem returns it, canonical. */
export function receiptFields(receipt: TransactionReceipt): Receipt {
  return { ...receipt, ...canonicalFields({ transactionHash: receipt.transactionHash, blockHash: receipt.blockHash }) };
}

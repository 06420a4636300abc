/**
 * A receipt or transaction that may not exist yet: null (or false) instead of viem's not-found throw;
 * any other error is thrown. Used by the nonce manager and by the solver's steps.
 */
import { TransactionNotFoundError, TransactionReceiptNotFoundError, type Hex, type PublicClient } from "viem";
import { readReceipt, type Receipt } from "../chains/readReceipt.ts";

/** The receipt (../chains/readReceipt.ts: its hashes canonical), or null while there is none. */
export async function receiptOrNull(publicClient: PublicClient, hash: Hex): Promise<Receipt | null> {
  try {
    return await readReceipt(publicClient, hash);
  } catch (error) {
    if (error instanceof TransactionReceiptNotFoundError) return null;
    throw error;
  }
}

/** Whether the node knows the transaction at all (mined or in its mempool). */
export async function transactionKnown(publicClient: PublicClient, hash: Hex): Promise<boolean> {
  try {
    await publicClient.getTransaction({ hash });
    return true;
  } catch (error) {
    if (error instanceof TransactionNotFoundError) return false;
    throw error;
  }
}

/**
 * Recording how a fill ended: `submitted → success` with `outTxs` from the receipt, or
 * `submitted → failure` with the decoded reason and the spec's failedTx fields. A reverted fill whose
 * request is nevertheless filled onchain (another of our transactions got there first) is a success
 * under that other transaction.
 */
import type { Hex, TransactionReceipt } from "viem";
import type { StoredRequest } from "../store/requests.ts";
import type { ChainClient } from "./chainClients.ts";
import { findFillTx, isFilled, onchainTxOf } from "./chainReads.ts";
import { decodeRevert, revertDataOf } from "./revertReason.ts";
import type { SolverContext } from "./solverContext.ts";
import { FillLogNotFoundError } from "./solverErrors.ts";

export async function recordFillSuccess(ctx: SolverContext, request: StoredRequest, dest: ChainClient, receipt: TransactionReceipt): Promise<StoredRequest> {
  const outTx = await onchainTxOf(dest, receipt);
  const updated = await ctx.store.transitionRequest(request.id, "success", {
    txHashes: [receipt.transactionHash],
    data: { outTxs: [outTx], fill: { ...((request.data.fill as object) ?? {}), hash: receipt.transactionHash.toLowerCase(), block: Number(receipt.blockNumber), status: "confirmed" } },
  });
  ctx.log.info({ requestId: request.id, hash: receipt.transactionHash }, "fill confirmed");
  return updated;
}

export async function recordFillReverted(ctx: SolverContext, request: StoredRequest, dest: ChainClient, receipt: TransactionReceipt): Promise<StoredRequest> {
  const requestId = request.id as Hex;
  if (await isFilled(dest, requestId)) {
    const fillHash = await findFillTx(dest, requestId);
    if (fillHash) {
      const fillReceipt = await dest.publicClient.getTransactionReceipt({ hash: fillHash });
      return recordFillSuccess(ctx, request, dest, fillReceipt);
    }
    // Filled, yet no log: never record a failure (a refund would pay twice).
    throw new FillLogNotFoundError(requestId);
  }
  const tx = await dest.publicClient.getTransaction({ hash: receipt.transactionHash });
  let revertData: Hex | null = null;
  try {
    // Replays the call on the state of its block to learn the custom error (receipts carry none).
    await dest.publicClient.call({ account: tx.from, to: tx.to!, data: tx.input, value: tx.value, blockNumber: receipt.blockNumber });
  } catch (error) {
    revertData = revertDataOf(error);
  }
  const decoded = decodeRevert(revertData);
  const outTx = await onchainTxOf(dest, receipt);
  const updated = await ctx.store.transitionRequest(request.id, "failure", {
    failReason: decoded.failReason,
    txHashes: [receipt.transactionHash],
    data: {
      outTxs: [outTx],
      failedTxHash: receipt.transactionHash.toLowerCase(),
      failedTxBlockNumber: Number(receipt.blockNumber),
      failedCallData: { from: tx.from.toLowerCase(), to: tx.to?.toLowerCase() ?? "", data: tx.input, value: tx.value.toString() },
      details: { error: decoded.errorName, revertData: decoded.data },
      fill: { ...((request.data.fill as object) ?? {}), status: "reverted" },
    },
  });
  ctx.log.warn({ requestId: request.id, hash: receipt.transactionHash, failReason: decoded.failReason }, "fill reverted");
  return updated;
}

/**
 * Recording how a fill ended: `submitted → success` with `outTxs` from the receipt, or
 * `submitted → failure` with the decoded reason, the spec's failedTx fields and the reverted
 * transaction's frames in `details` (./revertedFillDetails.ts). A reverted fill whose
 * request is nevertheless filled onchain is a success under the filling transaction when that is one
 * of ours (a resend got there first), and a foreign fill otherwise (./verifyOnchainFill.ts). A
 * sponsored request's success debits its app balance hold in the same store transaction
 * (../sponsorshipSettlement.ts).
 */
import type { Hex } from "viem";
import type { ChainClient } from "../../chains/chainClients.ts";
import type { StoredRequest } from "../../model/storedRequest.ts";
import { readReceipt, type Receipt } from "../../chains/readReceipt.ts";
import type { Bytes32 } from "../../model/values.ts";
import { readTransaction, type ReadTransaction } from "../../chains/readTransaction.ts";
import { isFinal } from "../../chains/chainFinality.ts";
import { requireSolverState } from "../../model/storedRequest.ts";
import { fillNotBefore, findFillTx, isFilled, onchainTxOf } from "../chainReads.ts";
import { decodeRevert, revertDataOf } from "../../transactions/revertReason.ts";
import { failureFrames, frameNames, traceTransaction, type TraceClient } from "../../transactions/callFrames.ts";
import { revertedFillDetails } from "./revertedFillDetails.ts";
import type { SolverContext } from "../solverContext.ts";
import { FillLogNotFoundError } from "../solverErrors.ts";
import { recordForeignFill, verifyOnchainFill } from "./verifyOnchainFill.ts";
import { settleSponsorship } from "../sponsorshipSettlement.ts";
import { batchable, batchingOn } from "../payout/repaymentBatch.ts";
import { payoutPlanOf } from "../payout/advancePayout.ts";
import type { Payout } from "../../model/payout.ts";

/**
 * `submitted → success` under `receipt` — only when its fill is the one the service signed and sent
 * (./verifyOnchainFill.ts); a foreign fill is recorded as such instead (failure, parked, never repaid).
 */
export async function recordFillSuccess(
  ctx: SolverContext,
  request: StoredRequest,
  dest: ChainClient,
  receipt: Receipt,
  options: {
    /** The service's own fill that reverted because `receipt`'s landed first (recordFillReverted). */
    reverted?: { hash: Bytes32; blockNumber: bigint };
    /** The receipt's transaction as the service sent it (../../transactions/nonceManager.ts `follow`): not read back. */
    sent?: ReadTransaction;
  } = {},
): Promise<StoredRequest> {
  const verdict = await verifyOnchainFill(ctx, request, dest, receipt, options.sent);
  if (!verdict.ours) return recordForeignFill(ctx, request, dest, verdict, options.reverted);
  const outTx = await onchainTxOf(dest, receipt, options.sent);
  const hash = outTx.hash;
  ctx.verifiedFills?.add(hash);
  const recorded = request.solver?.fill?.hash;
  const success = {
    txHashes: [hash],
    // A replacement (same nonce, higher fees) landed: its hash takes the recorded one's place.
    ...(recorded && recorded !== hash && { dropTxHash: recorded }),
    data: { outTxs: [outTx] },
    solver: {
      fill: { ...request.solver?.fill, hash, block: Number(receipt.blockNumber), status: "confirmed" as const, digest: verdict.digest },
      // Verified just now: its repayment is queued for a batch (../payout/repaymentBatch.ts), or planned
      // (../payout/advancePayout.ts), with the success itself, not by a write of its own.
      ...(batchingOn(ctx) && batchable(request) ? { repaymentQueuedAt: ctx.now().getTime() } : plannedRepayment(ctx, request)),
    },
  };
  const { intent } = requireSolverState(request);
  // A sponsored request: the app balance is debited in the transaction that records the success.
  const updated = intent.sponsorship
    ? await ctx.store.transaction(async (tx) => {
        const done = await tx.transitionRequest(request.id, "success", success);
        await settleSponsorship(tx, intent, ctx.log);
        return done;
      })
    : await ctx.store.transitionRequest(request.id, "success", success);
  ctx.log.info({ requestId: request.id, hash }, "fill confirmed");
  return updated;
}

/** The repayment as planned now, for the success's write: none when the request has one already or no credited deposit yet (a fast fill). */
function plannedRepayment(ctx: SolverContext, request: StoredRequest): { repayment?: Payout } {
  if (request.solver?.repayment !== undefined) return {};
  const repayment = payoutPlanOf(ctx, request, "repayment");
  return repayment ? { repayment } : {};
}

export async function recordFillReverted(ctx: SolverContext, request: StoredRequest, dest: ChainClient, receipt: Receipt, sent?: ReadTransaction): Promise<StoredRequest> {
  if (await isFilled(dest, request.id)) {
    const fillHash = await findFillTx(dest, request.id, fillNotBefore(requireSolverState(request).intent));
    if (fillHash) {
      const fillReceipt = await readReceipt(dest.publicClient, fillHash);
      // The winning fill is confirmed at the destination's depth like any other.
      if (!(await isFinal(dest, fillReceipt.blockNumber))) return request;
      return recordFillSuccess(ctx, request, dest, fillReceipt, { reverted: { hash: receipt.transactionHash, blockNumber: receipt.blockNumber } });
    }
    // Filled, yet no log: never record a failure (a refund would pay twice).
    throw new FillLogNotFoundError(request.id);
  }
  const tx = sent && sent.hash === receipt.transactionHash ? sent : await readTransaction(dest.publicClient, receipt.transactionHash);
  let revertData: Hex | null = null;
  try {
    // Replays the call on the state of its block to learn the custom error (receipts carry none).
    await dest.publicClient.call({ account: tx.from, to: tx.to!, data: tx.input, value: tx.value, blockNumber: receipt.blockNumber });
  } catch (error) {
    revertData = revertDataOf(error);
  }
  const decoded = decodeRevert(revertData);
  // The mined transaction's failing frames (debug_traceTransaction where the node offers it).
  const trace = await traceTransaction(dest.publicClient as unknown as TraceClient, tx.hash);
  const frames = failureFrames({ trace, call: { to: tx.to ?? "", data: tx.input }, revertData, names: frameNames(dest.config) });
  const outTx = await onchainTxOf(dest, receipt, tx);
  const hash = tx.hash;
  const updated = await ctx.store.transitionRequest(request.id, "failure", {
    failReason: decoded.failReason,
    txHashes: [hash],
    data: {
      outTxs: [outTx],
      failedTxHash: hash,
      failedTxBlockNumber: Number(receipt.blockNumber),
      failedCallData: { from: tx.from, to: tx.to ?? "", data: tx.input, value: tx.value.toString() },
    },
    details: revertedFillDetails(decoded, frames),
    solver: { fill: { ...(request.solver?.fill ?? { hash }), status: "reverted" } },
  });
  ctx.log.warn({ requestId: request.id, hash, failReason: decoded.failReason }, "fill reverted");
  return updated;
}

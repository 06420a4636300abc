/**
 * The solver's step for a `submitted` request (also run right after sending): the recorded fill's
 * receipt decides, once its block is final on the destination (../chains/chainFinality.ts: the
 * chain's confirmations / finality tag) — success → `success` with `outTxs`; reverted → `failure` with
 * the decoded reason (./fillOutcome.ts). A receipt in a block not yet final waits; if a reorg takes it
 * away, the request is still `submitted` and the next step re-checks it (the node's mempool, then
 * `filled(requestId)`, then a resend). While the node still knows the transaction (mempool) it waits. A recorded hash
 * the chain does not know (the process died between recording and broadcasting, or the transaction
 * was dropped) is resent — unless the request is filled onchain already (record that fill: a success
 * only when it is the solver's own, ./verifyOnchainFill.ts) or its
 * deadline has been reached (`failure`, ORDER_EXPIRED).
 */
import { requireSolverState, type StoredRequest } from "../model/storedRequest.ts";
import { isFinal } from "../chains/chainFinality.ts";
import { fillNotBefore, findFillTx, isFilled, receiptOrNull, transactionKnown } from "./chainReads.ts";
import { recordFillReverted, recordFillSuccess } from "./fillOutcome.ts";
import { sendFill } from "./sendFill.ts";
import type { SolverContext } from "./solverContext.ts";
import { FillLogNotFoundError } from "./solverErrors.ts";
import { signedFillDigest } from "./verifyOnchainFill.ts";

export async function confirmFill(ctx: SolverContext, request: StoredRequest): Promise<StoredRequest> {
  const { intent, fill } = requireSolverState(request);
  const dest = ctx.clients.get(request.destinationChainId);
  const hash = fill?.hash ?? request.txHashes.at(-1);

  if (hash) {
    const receipt = await receiptOrNull(dest.publicClient, hash);
    if (receipt) {
      if (!(await isFinal(dest, receipt.blockNumber))) return waitForFinality(ctx, request, receipt.blockNumber);
      return receipt.status === "success" ? recordFillSuccess(ctx, request, dest, receipt) : recordFillReverted(ctx, request, dest, receipt);
    }
    if (await transactionKnown(dest.publicClient, hash)) return request;
  }

  if (await isFilled(dest, request.id)) {
    const fillHash = await findFillTx(dest, request.id, fillNotBefore(intent));
    if (!fillHash) throw new FillLogNotFoundError(request.id);
    const receipt = await dest.publicClient.getTransactionReceipt({ hash: fillHash });
    if (!(await isFinal(dest, receipt.blockNumber))) return waitForFinality(ctx, request, receipt.blockNumber);
    return recordFillSuccess(ctx, request, dest, receipt);
  }

  const latest = await dest.publicClient.getBlock({ blockTag: "latest" });
  // As for a first fill (./fillChecks.ts): no resend that may land after the deadline.
  if (Number(latest.timestamp) + ctx.settings.fillDeadlineMarginSeconds >= intent.fillDeadline) {
    return ctx.store.transitionRequest(request.id, "failure", {
      failReason: "ORDER_EXPIRED",
      details: { reason: "fill never confirmed before its deadline", lostTxHash: hash ?? null, marginSeconds: ctx.settings.fillDeadlineMarginSeconds },
    });
  }

  ctx.log.warn({ requestId: request.id, lostTxHash: hash }, "recorded fill unknown to the chain: resending");
  let resent: StoredRequest = request;
  const result = await sendFill(ctx, intent, dest, async (newHash) => {
    // The lost hash leaves the public txHashes: the chain never saw it (the resend's hash takes its place).
    resent = await ctx.store.patchRequest(request.id, {
      txHashes: [newHash],
      ...(hash && { dropTxHash: hash }),
      solver: { fill: { hash: newHash, status: "sent", replaced: hash ?? null, digest: signedFillDigest(intent, dest.config.contracts.attestedReceiver) } },
    });
  });
  if (!result.sent) {
    if (result.revert.failReason === "ORDER_ALREADY_FILLED") throw new FillLogNotFoundError(request.id);
    return ctx.store.transitionRequest(request.id, "failure", {
      failReason: result.revert.failReason,
      data: { failedCallData: result.callData },
      details: { error: result.revert.errorName, revertData: result.revert.data },
    });
  }
  const receipt = await receiptOrNull(dest.publicClient, result.hash);
  if (!receipt) return resent;
  if (!(await isFinal(dest, receipt.blockNumber))) return waitForFinality(ctx, resent, receipt.blockNumber);
  return receipt.status === "success" ? recordFillSuccess(ctx, resent, dest, receipt) : recordFillReverted(ctx, resent, dest, receipt);
}

/** A fill mined in a block that is not final yet: the request stays `submitted` (a reorg may still take it away). */
function waitForFinality(ctx: SolverContext, request: StoredRequest, block: bigint): StoredRequest {
  ctx.log.debug({ requestId: request.id, block: Number(block) }, "fill mined, waiting for its block to be final");
  return request;
}

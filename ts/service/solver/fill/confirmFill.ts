/**
 * The solver's step for a `submitted` request (also run right after sending). The fill's nonce is
 * followed (../../transactions/nonceManager.ts `follow`): one of its attempts mined → once its block is final on the
 * destination (../../chains/chainFinality.ts: the chain's confirmations / finality tag) `success` with
 * `outTxs` (a success only when the fill is the solver's own, ./verifyOnchainFill.ts), or (it reverted)
 * `failure` with the decoded reason (./fillOutcome.ts); a receipt in a block not yet final waits (if a
 * reorg takes it away the nonce manager follows the nonce again); still pending → wait (the nonce
 * manager re-broadcasts an attempt the node lost and replaces a stuck one with higher fees, always at
 * the same nonce, so at most one attempt can ever fill). Only when the nonce went to a transaction that
 * is none of the fill's attempts (superseded) — or, for a fill recorded before nonces were stored, when
 * its hash is unknown to the chain — does the receiver decide: filled → that fill is recorded (once
 * final; a success only when it is the solver's own); fill deadline (less the margin) reached →
 * `failure` (ORDER_EXPIRED); otherwise the fill is sent again on a new nonce, under a compare-and-set
 * of the request's recorded fill (two loops that both saw the old nonce gone cannot both send).
 */
import type { Hex } from "viem";
import { preparedFillOf } from "../../model/attestations.ts";
import type { SolverState } from "../../model/solverState.ts";
import { requireSolverState, type StoredRequest } from "../../model/storedRequest.ts";
import { ServiceError } from "../../errors/serviceError.ts";
import { isFinal } from "../../chains/chainFinality.ts";
import { readReceipt } from "../../chains/readReceipt.ts";
import { fillNotBefore, findFillTx, isFilled, receiptOrNull, transactionKnown } from "../chainReads.ts";
import { recordFillReverted, recordFillSuccess } from "./fillOutcome.ts";
import { sendFill } from "./sendFill.ts";
import { revertedFillDetails } from "./revertedFillDetails.ts";
import type { SolverContext } from "../solverContext.ts";
import { FillLogNotFoundError } from "../solverErrors.ts";

export async function confirmFill(ctx: SolverContext, request: StoredRequest): Promise<StoredRequest> {
  const { intent, fill } = requireSolverState(request);
  const dest = ctx.clients.get(request.destinationChainId);
  const hash = fill?.hash ?? request.txHashes.at(-1);
  const logFields = { requestId: request.id, orderId: request.orderId };

  if (fill?.txNonce !== undefined) {
    const outcome = await ctx.transactions.follow({ chainId: dest.config.id, txNonce: fill.txNonce }, logFields);
    if (outcome.state === "mined") {
      const receipt = outcome.receipt;
      if (!(await isFinal(dest, receipt.blockNumber))) return waitForFinality(ctx, request, receipt.blockNumber);
      const sent = outcome.transaction;
      return receipt.status === "success" ? recordFillSuccess(ctx, request, dest, receipt, { sent }) : recordFillReverted(ctx, request, dest, receipt, sent);
    }
    if (outcome.state === "pending") return request;
    // superseded: the fill's nonce carried another transaction; the receiver says what happened.
  } else if (hash) {
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
    const receipt = await readReceipt(dest.publicClient, fillHash);
    if (!(await isFinal(dest, receipt.blockNumber))) return waitForFinality(ctx, request, receipt.blockNumber);
    return recordFillSuccess(ctx, request, dest, receipt);
  }

  const latest = await dest.head.latest();
  // As for a first fill (./fillChecks.ts): no resend that may land after the deadline.
  if (Number(latest.timestamp) + ctx.settings.fillDeadlineMarginSeconds >= intent.fillDeadline) {
    return ctx.store.transitionRequest(request.id, "failure", {
      failReason: "ORDER_EXPIRED",
      details: { reason: "fill never confirmed before its deadline", lostTxHash: hash ?? null, marginSeconds: ctx.settings.fillDeadlineMarginSeconds },
    });
  }

  ctx.log.warn({ ...logFields, lostTxHash: hash, txNonce: fill?.txNonce }, "recorded fill never landed: resending on a new nonce");
  let resent: StoredRequest = request;
  const prepared = preparedFillOf(intent, dest.config.contracts.attestedReceiver);
  const result = await sendFill(ctx, intent, dest, prepared, async (sent, repos) => {
    const current = await repos.lockRequest(request.id);
    if (!current || current.status !== "submitted" || !sameFill(current.solver?.fill, fill)) throw new FillRaceLostError(request.id);
    // The lost hash leaves the public txHashes: it never landed (the resend's hash takes its place).
    resent = await repos.patchRequest(request.id, {
      txHashes: [sent.hash],
      ...(hash && { dropTxHash: hash }),
      solver: { fill: { hash: sent.hash, status: "sent", replaced: hash ?? null, txNonce: sent.txNonce, digest: prepared.digest } },
    });
  });
  if (!result.sent) {
    if (result.revert.failReason === "ORDER_ALREADY_FILLED") throw new FillLogNotFoundError(request.id);
    return ctx.store.transitionRequest(request.id, "failure", {
      failReason: result.revert.failReason,
      data: { failedCallData: result.callData },
      details: revertedFillDetails(result.revert, result.frames),
    });
  }
  const receipt = await receiptOrNull(dest.publicClient, result.hash);
  if (!receipt) return resent;
  if (!(await isFinal(dest, receipt.blockNumber))) return waitForFinality(ctx, resent, receipt.blockNumber);
  return receipt.status === "success" ? recordFillSuccess(ctx, resent, dest, receipt) : recordFillReverted(ctx, resent, dest, receipt);
}

function sameFill(a: SolverState["fill"], b: SolverState["fill"]): boolean {
  return a?.hash === b?.hash && a?.txNonce === b?.txNonce;
}

/** Another loop resent this fill first (the request's recorded fill changed): nothing is sent; the next step follows the new one. */
export class FillRaceLostError extends ServiceError {
  constructor(requestId: string) {
    super("STEP_ABORTED", `request ${requestId}: its fill was resent by another loop`);
  }
}

/** A fill mined in a block that is not final yet: the request stays `submitted` (a reorg may still take it away). */
function waitForFinality(ctx: SolverContext, request: StoredRequest, block: bigint): StoredRequest {
  ctx.log.debug({ requestId: request.id, orderId: request.orderId, block: Number(block) }, "fill mined, waiting for its block to be final");
  return request;
}

/**
 * The solver's step for a `submitted` request (also run right after sending). The fill's nonce is
 * followed (./nonceManager.ts `follow`): one of its attempts mined → `success` with `outTxs`, or (it
 * reverted) `failure` with the decoded reason (./fillOutcome.ts); still pending → wait (the nonce
 * manager re-broadcasts an attempt the node lost and replaces a stuck one with higher fees, always at
 * the same nonce, so at most one attempt can ever fill). Only when the nonce went to a transaction that
 * is none of the fill's attempts (superseded) — or, for a fill recorded before nonces were stored, when
 * its hash is unknown to the chain — does the receiver decide: filled → that fill is recorded; fill
 * deadline reached → `failure` (ORDER_EXPIRED); otherwise the fill is sent again on a new nonce, under a
 * compare-and-set of the request's recorded fill (two loops that both saw the old nonce gone cannot
 * both send).
 */
import type { Hex } from "viem";
import type { SolverState } from "../model/solverState.ts";
import { requireSolverState, type StoredRequest } from "../model/storedRequest.ts";
import { ServiceError } from "../errors/serviceError.ts";
import { findFillTx, isFilled, receiptOrNull, transactionKnown } from "./chainReads.ts";
import { recordFillReverted, recordFillSuccess } from "./fillOutcome.ts";
import { sendFill } from "./sendFill.ts";
import type { SolverContext } from "./solverContext.ts";
import { FillLogNotFoundError } from "./solverErrors.ts";

export async function confirmFill(ctx: SolverContext, request: StoredRequest): Promise<StoredRequest> {
  const { intent, fill } = requireSolverState(request);
  const dest = ctx.clients.get(request.destinationChainId);
  const hash = fill?.hash ?? request.txHashes.at(-1);
  const logFields = { requestId: request.id, orderId: request.orderId };

  if (fill?.txNonce !== undefined) {
    const outcome = await ctx.transactions.follow({ chainId: dest.config.id, txNonce: fill.txNonce }, logFields);
    if (outcome.state === "mined") {
      return outcome.receipt.status === "success" ? recordFillSuccess(ctx, request, dest, outcome.receipt) : recordFillReverted(ctx, request, dest, outcome.receipt);
    }
    if (outcome.state === "pending") return request;
    // superseded: the fill's nonce carried another transaction; the receiver says what happened.
  } else if (hash) {
    const receipt = await receiptOrNull(dest.publicClient, hash);
    if (receipt) return receipt.status === "success" ? recordFillSuccess(ctx, request, dest, receipt) : recordFillReverted(ctx, request, dest, receipt);
    if (await transactionKnown(dest.publicClient, hash)) return request;
  }

  if (await isFilled(dest, request.id)) {
    const fillHash = await findFillTx(dest, request.id);
    if (fillHash) return recordFillSuccess(ctx, request, dest, await dest.publicClient.getTransactionReceipt({ hash: fillHash }));
    throw new FillLogNotFoundError(request.id);
  }

  const latest = await dest.publicClient.getBlock({ blockTag: "latest" });
  if (Number(latest.timestamp) >= intent.fillDeadline) {
    return ctx.store.transitionRequest(request.id, "failure", {
      failReason: "ORDER_EXPIRED",
      details: { reason: "fill never confirmed before its deadline", lostTxHash: hash ?? null },
    });
  }

  ctx.log.warn({ ...logFields, lostTxHash: hash, txNonce: fill?.txNonce }, "recorded fill never landed: resending on a new nonce");
  let resent: StoredRequest = request;
  const result = await sendFill(ctx, intent, dest, async (sent, repos) => {
    const current = await repos.lockRequest(request.id);
    if (!current || current.status !== "submitted" || !sameFill(current.solver?.fill, fill)) throw new FillRaceLostError(request.id);
    // The lost hash leaves the public txHashes: it never landed (the resend's hash takes its place).
    resent = await repos.patchRequest(request.id, {
      txHashes: [sent.hash],
      ...(hash && { dropTxHash: hash }),
      solver: { fill: { hash: sent.hash, status: "sent", replaced: hash ?? null, txNonce: sent.txNonce } },
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
  const receipt = await receiptOrNull(dest.publicClient, result.hash as Hex);
  if (!receipt) return resent;
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

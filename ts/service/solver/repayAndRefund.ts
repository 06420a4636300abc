/**
 * After the fill: the solver's repayment (status stays `success`, the solver state records it), and
 * after a failure: the refund (`failure → refund` once the refund payout is confirmed, its hash in
 * `txHashes`). A refund that cannot be made leaves the request in `failure` with a `refundFailReason`
 * (AMOUNT_TOO_LOW_TO_REFUND: nothing was deposited to return) or, when the payout itself reverted
 * (e.g. a refund recipient that rejects native currency), with the refund payout's status `reverted`
 * and its failReason for the operator — the spec's refundFailReason enum has no value for that.
 * A refunded request's `data.appFees` amounts become "0": the refund returns the whole deposit, so no
 * app fee was charged (on success they are the amounts credited by the repayment's settlement).
 */
import { requireSolverState, type StoredRequest } from "../model/storedRequest.ts";
import { advancePayout } from "./advancePayout.ts";
import { isFilled } from "./chainReads.ts";
import type { SolverContext } from "./solverContext.ts";
import { FilledRequestNotRefundableError } from "./solverErrors.ts";

export async function repay(ctx: SolverContext, request: StoredRequest): Promise<StoredRequest> {
  const progress = await advancePayout(ctx, request, "repayment");
  return progress.request;
}

export async function refund(ctx: SolverContext, request: StoredRequest): Promise<StoredRequest> {
  const state = requireSolverState(request);
  if (!state.deposit || state.deposit.amount === 0n) {
    return ctx.store.patchRequest(request.id, { refundFailReason: "AMOUNT_TOO_LOW_TO_REFUND" });
  }
  // Last guard before money leaves: a request the receiver shows as filled is never refunded.
  const refundStatus = state.refund?.status;
  if ((refundStatus === undefined || refundStatus === "prepared") && ctx.clients.has(request.destinationChainId)) {
    if (await isFilled(ctx.clients.get(request.destinationChainId), request.id)) throw new FilledRequestNotRefundableError(request.id);
  }
  const progress = await advancePayout(ctx, request, "refund");
  if (progress.payout.status !== "confirmed") return progress.request;
  ctx.log.info({ requestId: request.id, hash: progress.payout.hash }, "refund confirmed");
  // The whole deposit went back: no app fee was charged, and the record says so.
  const appFees = progress.request.data.appFees?.map((fee) => ({ ...fee, amount: "0", amountUsd: "0", amountUsdCurrent: "0" }));
  return ctx.store.transitionRequest(request.id, "refund", { txHashes: [progress.payout.hash!], ...(appFees ? { data: { appFees } } : {}) });
}

/**
 * After the fill: the solver's repayment (status stays `success`, the solver state records it), and
 * after a failure: the refund (`failure → refund` once the refund payout is confirmed, its hash in
 * `txHashes`). A refund that cannot be made leaves the request in `failure` with a `refundFailReason`
 * (AMOUNT_TOO_LOW_TO_REFUND: nothing was deposited to return) or, when the payout itself reverted
 * (e.g. a refund recipient that rejects native currency), with the refund payout's status `reverted`
 * and its failReason for the operator — the spec's refundFailReason enum has no value for that.
 */
import { requireSolverState, type StoredRequest } from "../model/storedRequest.ts";
import { advancePayout } from "./advancePayout.ts";
import { isFilled } from "./chainReads.ts";
import type { SolverContext } from "./solverContext.ts";
import { FilledRequestNotRefundableError } from "./solverErrors.ts";
import { StoredValueInvalidError } from "../model/storedValue.ts";
import { recordForeignFill, verifyOnchainFill } from "./verifyOnchainFill.ts";

export async function repay(ctx: SolverContext, request: StoredRequest): Promise<StoredRequest> {
  // The repayment is planned only after the recorded fill is checked to be the solver's own: a
  // success written by a version that did not verify (or by hand) must not pay for a foreign fill.
  if (requireSolverState(request).repayment === undefined) {
    const fill = request.solver!.fill;
    if (!fill?.hash) throw new StoredValueInvalidError("requests.solver_state", request.id, "fill", "is missing on a success: no repayment without the fill");
    const dest = ctx.clients.get(request.destinationChainId);
    const verdict = await verifyOnchainFill(ctx, request, dest, await dest.publicClient.getTransactionReceipt({ hash: fill.hash }));
    if (!verdict.ours) return recordForeignFill(ctx, request, dest, verdict);
  }
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
  return ctx.store.transitionRequest(request.id, "refund", { txHashes: [progress.payout.hash!] });
}

/**
 * After the fill: the solver's repayment (status stays `success`, `data.repayment` records it), and
 * after a failure: the refund (`failure → refund` once the refund payout is confirmed, its hash in
 * `txHashes`). A refund that cannot be made leaves the request in `failure` with a `refundFailReason`
 * (AMOUNT_TOO_LOW_TO_REFUND: nothing was deposited to return) or, when the payout itself reverted
 * (e.g. a refund recipient that rejects native currency), with `data.refund.status = "reverted"` and
 * its failReason for the operator — the spec's refundFailReason enum has no value for that.
 */
import type { Hex } from "viem";
import type { StoredRequest } from "../store/requests.ts";
import { isFilled } from "./chainReads.ts";
import { FilledRequestNotRefundableError } from "./solverErrors.ts";
import { advancePayout } from "./advancePayout.ts";
import { readSolverData } from "./fillAttestation.ts";
import type { SolverContext } from "./solverContext.ts";

export async function repay(ctx: SolverContext, request: StoredRequest): Promise<StoredRequest> {
  const progress = await advancePayout(ctx, request, "repayment");
  return progress.request;
}

export async function refund(ctx: SolverContext, request: StoredRequest): Promise<StoredRequest> {
  const data = readSolverData(request);
  if (BigInt(data.deposit.amount) === 0n) {
    return ctx.store.patchRequest(request.id, { refundFailReason: "AMOUNT_TOO_LOW_TO_REFUND" });
  }
  // Last guard before money leaves: a request the receiver shows as filled is never refunded.
  const refundStatus = (request.data.refund as { status?: string } | undefined)?.status;
  if ((refundStatus === undefined || refundStatus === "prepared") && ctx.clients.has(request.destinationChainId)) {
    if (await isFilled(ctx.clients.get(request.destinationChainId), request.id as Hex)) throw new FilledRequestNotRefundableError(request.id);
  }
  const progress = await advancePayout(ctx, request, "refund");
  if (progress.payout.status !== "confirmed") return progress.request;
  ctx.log.info({ requestId: request.id, hash: progress.payout.hash }, "refund confirmed");
  return ctx.store.transitionRequest(request.id, "refund", {
    txHashes: [progress.payout.hash!],
    data: {
      refundCurrencyData: progress.request.data.refundCurrencyData,
      refundTxs: progress.tx ? [progress.tx] : [],
    },
  });
}

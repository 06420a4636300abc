/**
 * After the fill: the solver's repayment (status stays `success`, the solver state records it) —
 * planned only once the recorded fill is verified to be the solver's own (../fill/verifyOnchainFill.ts) —
 * and after a failure: the refund (`failure → refund` once the refund payout is confirmed, its hash in
 * `txHashes`). Before a refund is first signed, no fill may still land: while the fill deadline has not
 * passed the attester cancels the requestId and the refund waits for it (./cancelBeforeRefund.ts); a
 * request found filled is never refunded. A refund that cannot be made leaves the request in
 * `failure` with a `refundFailReason` (AMOUNT_TOO_LOW_TO_REFUND: nothing was deposited to return) or,
 * when the payout itself reverted (the Depository holds too little, a signature or expiry problem —
 * a payee that cannot receive no longer reverts it: its part becomes claimable, ./payoutClaims.ts),
 * with the refund payout's status `reverted` and its failReason for the operator — the spec's
 * refundFailReason enum has no value for that. A refunded request's `data.appFees` amounts become "0":
 * the refund returns the whole deposit, so no app fee was charged (on success they are the amounts
 * credited by the repayment's settlement) — but a permit request's refund keeps the service's gas
 * (./permitRefundCharge.ts): then `fees.gas` is what it kept and `refundCurrencyData.amount` what went back.
 * A sponsored request's app balance hold is released with the refund (../sponsorshipSettlement.ts).
 * A reclaimable deposit whose depositor reclaimed it before the refund's `release` (the service was away
 * past its `reclaimAt`) makes that release revert (`NoReclaimCommitment`): the deposit is back with its
 * depositor, so the request ends in `refund` with the reclaim's hash in `txHashes` and
 * `details.reclaimedBy` — nothing is paid a second time.
 */
import type { Payout } from "../../model/payout.ts";
import type { RequestData } from "../../model/requestData.ts";
import { requireSolverState, type RequestPatch, type StoredRequest } from "../../model/storedRequest.ts";
import type { QuotedIntent } from "../../model/quotedIntent.ts";
import { formatAmount } from "../indexer/depositRequest.ts";
import { advancePayout } from "./advancePayout.ts";
import { readReceipt } from "../../chains/readReceipt.ts";
import { fillNotBefore, findFillTx, findReclaimTx } from "../chainReads.ts";
import type { CreditedDeposit } from "../../model/solverState.ts";
import { cancelBeforeRefund } from "./cancelBeforeRefund.ts";
import type { SolverContext } from "../solverContext.ts";
import { FilledRequestNotRefundableError } from "../solverErrors.ts";
import { StoredValueInvalidError } from "../../model/storedValue.ts";
import { recordForeignFill, verifyOnchainFill } from "../fill/verifyOnchainFill.ts";
import { releaseSponsorship } from "../sponsorshipSettlement.ts";
import { batchable, batchingOn, queueRepayment, stepRepaymentBatch } from "./repaymentBatch.ts";

export async function repay(ctx: SolverContext, request: StoredRequest): Promise<StoredRequest> {
  const state = requireSolverState(request);
  // Paid by a batch: the batch is stepped (whatever this process's batching setting).
  if (state.repayment?.batch) return stepRepaymentBatch(ctx, request);
  // The repayment is planned only after the recorded fill is checked to be the solver's own: a
  // success written by a version that did not verify (or by hand) must not pay for a foreign fill.
  // A repayment queued for a batch was verified before it was queued.
  if (state.repayment === undefined && state.repaymentQueuedAt === undefined) {
    const fill = request.solver!.fill;
    if (!fill?.hash) throw new StoredValueInvalidError("requests.solver_state", request.id, "fill", "is missing on a success: no repayment without the fill");
    // Verified already when this very step confirmed the fill (../fill/fillOutcome.ts): not read again.
    if (!ctx.verifiedFills?.has(fill.hash)) {
      const dest = ctx.clients.get(request.destinationChainId);
      const verdict = await verifyOnchainFill(ctx, request, dest, await readReceipt(dest.publicClient, fill.hash));
      if (!verdict.ours) return recordForeignFill(ctx, request, dest, verdict);
    }
  }
  if (state.repayment === undefined && batchingOn(ctx) && batchable(request)) {
    request = await queueRepayment(ctx, request);
    const planned = requireSolverState(request).repayment;
    if (planned === undefined) return request;
    if (planned.batch) return stepRepaymentBatch(ctx, request, { justFormed: true });
  }
  const progress = await advancePayout(ctx, request, "repayment");
  return progress.request;
}

export async function refund(ctx: SolverContext, request: StoredRequest): Promise<StoredRequest> {
  const state = requireSolverState(request);
  if (!state.deposit || state.deposit.amount === 0n) {
    return ctx.store.patchRequest(request.id, { refundFailReason: "AMOUNT_TOO_LOW_TO_REFUND" });
  }
  // Last guard before money leaves: no fill may land any more (the attester cancels the requestId while
  // the deadline has not passed, and the refund waits for the cancel), and a request the receiver shows
  // as filled is never refunded.
  const refundStatus = state.refund?.status;
  if ((refundStatus === undefined || refundStatus === "prepared") && ctx.clients.has(request.destinationChainId)) {
    const cancelled = await cancelBeforeRefund(ctx, request);
    request = cancelled.request;
    if (cancelled.outcome === "waiting") return request;
    if (cancelled.outcome === "filled") return refuseFilled(ctx, request);
  }
  const progress = await advancePayout(ctx, request, "refund");
  if (progress.payout.status === "reverted" && progress.payout.release !== undefined) return reclaimedInstead(ctx, progress.request, state.deposit);
  if (progress.payout.status !== "confirmed") return progress.request;
  ctx.log.info({ requestId: request.id, hash: progress.payout.hash }, "refund confirmed");
  // The whole deposit went back: no app fee was charged, and the record says so.
  const appFees = progress.request.data.appFees?.map((fee) => ({ ...fee, amount: "0", amountUsd: "0", amountUsdCurrent: "0" }));
  const refunded = { txHashes: [progress.payout.hash!], data: { ...(appFees && { appFees }), ...refundCharged(progress.request, progress.payout) } };
  return transitionToRefund(ctx, request.id, state.intent, refunded);
}

/** `failure → refund`; a sponsored request's app balance hold is released in the same transaction (the app is not charged). */
async function transitionToRefund(ctx: SolverContext, requestId: StoredRequest["id"], intent: QuotedIntent, patch: RequestPatch): Promise<StoredRequest> {
  if (!intent.sponsorship) return ctx.store.transitionRequest(requestId, "refund", patch);
  return ctx.store.transaction(async (tx) => {
    const done = await tx.transitionRequest(requestId, "refund", patch);
    await releaseSponsorship(tx, intent, ctx.log);
    return done;
  });
}

/**
 * A refund's release of a reclaimable deposit reverted: when the depositor's `Reclaimed` log is on the
 * chain, the deposit went back by the depositor's own hand — the request is refunded by it. Otherwise
 * the reverted refund stays for an operator, as any reverted payout does.
 */
async function reclaimedInstead(ctx: SolverContext, request: StoredRequest, deposit: CreditedDeposit): Promise<StoredRequest> {
  if (request.status !== "failure") return request;
  const origin = ctx.clients.get(deposit.chainId);
  const hash = await findReclaimTx(origin, request.orderId, deposit.blockTimestamp);
  if (!hash) return request;
  ctx.log.warn({ requestId: request.id, reclaimTxHash: hash, depositor: deposit.depositor }, "the depositor reclaimed the deposit before its refund: refunded by the reclaim");
  return transitionToRefund(ctx, request.id, requireSolverState(request).intent, { txHashes: [hash], details: { ...request.details, reclaimedBy: deposit.depositor, reclaimTxHash: hash } });
}

/**
 * A permit refund that kept the service's gas (its second call pays the solver): the record's
 * `refundCurrencyData.amount` is what went back and `fees.gas` what was kept (no other fee was).
 */
function refundCharged(request: StoredRequest, payout: Payout): Pick<RequestData, "fees" | "refundCurrencyData"> {
  const [returned, kept] = payout.calls;
  if (!returned || !kept) return {};
  const refundCurrencyData = request.data.refundCurrencyData;
  return {
    fees: { gas: kept.amount.toString(), fixed: "0", price: "0", gateway: "0" },
    ...(refundCurrencyData && {
      refundCurrencyData: { ...refundCurrencyData, amount: returned.amount.toString(), amountFormatted: formatAmount(returned.amount, refundCurrencyData.currency.decimals) },
    }),
  };
}

/**
 * A request in `failure` that the receiver shows as filled: never refunded. A fill the service did not
 * sign and send is recorded as a foreign fill (details, parked FOREIGN_FILL); anything else (its own
 * fill, or a fill whose log is not found) parks it as FILLED_REQUEST_NOT_REFUNDABLE for an operator.
 */
async function refuseFilled(ctx: SolverContext, request: StoredRequest): Promise<StoredRequest> {
  const dest = ctx.clients.get(request.destinationChainId);
  const hash = await findFillTx(dest, request.id, fillNotBefore(requireSolverState(request).intent));
  if (hash) {
    const verdict = await verifyOnchainFill(ctx, request, dest, await readReceipt(dest.publicClient, hash));
    if (!verdict.ours) return recordForeignFill(ctx, request, dest, verdict);
  }
  throw new FilledRequestNotRefundableError(request.id);
}

/**
 * The end of a fast fill's hold while its deposit is not credited (../fill/fastFill.ts; a credited
 * deposit releases it in the indexer's own transaction, ../indexer/recordDeposits.ts):
 *
 * - **deposit still possible** — the origin indexer's final, indexed blocks do not yet reach past the
 *   quote's expiry: a deposit the user sent in time may still be credited (a deposit mined later is
 *   credited too and repays the solver, but the app is not made to wait for it). The request waits:
 *   a `success` is not repaid (there is nothing to repay from), a `failure` is not refunded.
 * - **`success`, deposit no longer possible** (never mined, dropped, or reorged away): the hold is
 *   SETTLED — the app bears the fronted value, as it opted in to — and the record says so in
 *   `details` (`fastFill: "settled"`, `fastFillReason: "DEPOSIT_NEVER_LANDED"`, `fastFillAmountUsd`),
 *   in one store transaction. Nothing else moves: no repayment (no deposit), no refund (nothing to return).
 * - **`failure`** (the fill was refused or reverted: nothing reached the recipient): the hold is
 *   RELEASED at once; the refund follows the deposit once it is credited, or, with no deposit possible
 *   any more, ends as any refund of nothing does (AMOUNT_TOO_LOW_TO_REFUND).
 *
 * `waits` true: the caller does not go on to the repayment or the refund.
 */
import type { StoredRequest } from "../../model/storedRequest.ts";
import type { SolverContext } from "../solverContext.ts";

export const FAST_FILL_NEVER_LANDED = "DEPOSIT_NEVER_LANDED";

export async function stepFastFillHold(ctx: SolverContext, request: StoredRequest): Promise<{ request: StoredRequest; waits: boolean }> {
  const fastFill = request.solver?.fastFill;
  if (!fastFill || request.solver?.deposit || (request.status !== "success" && request.status !== "failure")) return { request, waits: false };
  if (request.status === "failure" && fastFill.hold === "held") {
    request = await ctx.store.transaction(async (tx) => {
      await tx.appBalances.release(fastFill.holdId);
      return tx.patchRequest(request.id, { solver: { fastFill: { ...fastFill, hold: "released" } } });
    });
    ctx.log.info({ requestId: request.id, holdId: fastFill.holdId }, "fast fill failed: hold released");
  }
  if (await depositStillPossible(ctx, request)) return { request, waits: true };
  if (request.status === "failure") return { request, waits: false };
  if (fastFill.hold !== "held") return { request, waits: true };
  request = await ctx.store.transaction(async (tx) => {
    await tx.appBalances.settle({ holdId: fastFill.holdId, spentUsd: fastFill.amountUsd });
    return tx.patchRequest(request.id, {
      solver: { fastFill: { ...fastFill, hold: "settled" } },
      details: { fastFill: "settled", fastFillReason: FAST_FILL_NEVER_LANDED, fastFillAmountUsd: fastFill.amountUsd.toString(), fastFillDepositTxHash: fastFill.seen.txHash },
    });
  });
  ctx.log.warn({ requestId: request.id, holdId: fastFill.holdId, amountUsd: fastFill.amountUsd.toString() }, "fast fill: no deposit by the quote's expiry: hold settled, the app bears it");
  return { request, waits: true };
}

/** Whether the origin indexer has yet to index, as final, the blocks up to the quote's expiry. */
async function depositStillPossible(ctx: SolverContext, request: StoredRequest): Promise<boolean> {
  const { intent } = request.solver!;
  const origin = ctx.clients.get(request.originChainId);
  const indexed = await ctx.store.getCheckpoint(origin.config.id, origin.config.contracts.depository);
  if (indexed === null) return true;
  const block = await origin.publicClient.getBlock({ blockNumber: BigInt(indexed) });
  return Number(block.timestamp) <= intent.expiresAt;
}

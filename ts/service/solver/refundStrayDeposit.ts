/**
 * One step of a stray deposit's refund (run under the stray's lease, ./startSolver.ts). Re-reads the
 * stray under the lease, then:
 * - not planned yet → the policy (./strayRefundPlan.ts): ignored (`state = ignored` with its reason,
 *   logged for the operator) or planned and stored (`refund`, status `prepared`) before anything is
 *   signed;
 * - planned → one step of the shared payout machinery (./advancePayout.ts `stepPayout`): hash stored
 *   before broadcast, a recorded hash waited for, `executed(requestHash)` consulted after a restart.
 *   The write that records the refund as confirmed also sets `state = refunded`, in one statement.
 * A refund whose payout reverted stays `pending` with `refund.status = reverted` and its failReason,
 * out of the work list, for an operator (as a request's reverted refund does).
 */
import type { StoredStrayDeposit, StrayDepositKey } from "../store/strayDeposits.ts";
import { stepPayout } from "./advancePayout.ts";
import { ChainNotConfiguredError } from "../chains/chainClients.ts";
import type { SolverContext } from "./solverContext.ts";
import { planStrayRefund, strayIgnoredReason } from "./strayRefundPlan.ts";

export async function refundStrayDeposit(ctx: SolverContext, key: StrayDepositKey): Promise<StoredStrayDeposit | null> {
  let stray = await ctx.store.getStrayDeposit(key);
  if (!stray || stray.state !== "pending") return stray;
  const logFields = { strayDeposit: `${stray.chainId}:${stray.txHash}:${stray.logIndex}`, orderId: stray.orderId, reason: stray.reason, kind: "stray-refund" };
  let payout = stray.refund;
  if (!payout) {
    const chain = ctx.chains.find((c) => c.id === stray!.chainId);
    if (!chain) throw new ChainNotConfiguredError(stray.chainId);
    const ignoredReason = strayIgnoredReason(stray, chain, ctx.settings.strayRefundMinimumUsd);
    if (ignoredReason) {
      ctx.log.warn({ ...logFields, token: stray.token, amount: stray.amount.toString(), depositor: stray.depositor, ignoredReason }, "stray deposit not refunded: left for the operator");
      return ctx.store.patchStrayDeposit(key, { state: "ignored", ignoredReason });
    }
    payout = planStrayRefund(stray, Math.floor(ctx.now().getTime() / 1000));
    stray = await ctx.store.patchStrayDeposit(key, { refund: payout });
  }
  const step = await stepPayout(ctx, payout, logFields, async (next) => {
    stray = await ctx.store.patchStrayDeposit(key, next.status === "confirmed" ? { refund: next, state: "refunded" } : { refund: next });
  });
  if (step.payout.status === "confirmed") ctx.log.info({ ...logFields, hash: step.payout.hash }, "stray deposit refunded");
  return stray;
}

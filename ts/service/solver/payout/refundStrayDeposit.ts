/**
 * One step of a stray deposit's refund (run under the stray's lease, ../startSolver.ts). Re-reads the
 * stray under the lease, then:
 * - not planned yet → the policy (./strayRefundPlan.ts): ignored (`state = ignored` with its reason,
 *   logged for the operator) or planned; a planned refund's gas is estimated (the allocator-signed
 *   `execute` from the solver, `eth_estimateGas`) and priced at the current gas price: a stray worth
 *   less than `solver.strayRefundGasFactor` × that is ignored too (AMOUNT_TOO_LOW_TO_REFUND); else the
 *   plan is stored (`refund`, status `prepared`) before anything is sent;
 * - planned → one step of the shared payout machinery (./advancePayout.ts `stepPayout`): hash stored
 *   before broadcast, a recorded hash waited for, `executed(requestHash)` consulted after a restart.
 *   The write that records the refund as confirmed also sets `state = refunded`, in one statement.
 * A refund whose payout reverted stays `pending` with `refund.status = reverted` and its failReason,
 * out of the work list, for an operator (as a request's reverted refund does).
 */
import type { StoredStrayDeposit, StrayDepositKey } from "../../store/solver/strayDeposits.ts";
import { signedPayoutCall, stepPayout } from "./advancePayout.ts";
import { ChainNotConfiguredError } from "../../chains/chainClients.ts";
import type { SolverContext } from "../solverContext.ts";
import { planStrayRefund, strayBelowRefundGas, strayIgnoredReason } from "./strayRefundPlan.ts";
import type { Payout } from "../../model/payout.ts";
import { GasCapExceededError, gasLimitWithin } from "../../transactions/gasCap.ts";
import { isRevert } from "../../transactions/revertReason.ts";

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
    const planned = planStrayRefund(stray, Math.floor(ctx.now().getTime() / 1000));
    const gasCost = await refundGasCost(ctx, planned);
    if (gasCost !== null && strayBelowRefundGas(stray, chain, gasCost, ctx.settings.strayRefundGasFactor)) {
      const ignoredReason = "AMOUNT_TOO_LOW_TO_REFUND";
      ctx.log.warn(
        { ...logFields, token: stray.token, amount: stray.amount.toString(), depositor: stray.depositor, refundGasCostWei: gasCost.toString(), factor: ctx.settings.strayRefundGasFactor, ignoredReason },
        "stray deposit not refunded: worth less than its refund's gas; left for the operator",
      );
      return ctx.store.patchStrayDeposit(key, { state: "ignored", ignoredReason });
    }
    payout = planned;
    stray = await ctx.store.patchStrayDeposit(key, { refund: payout });
  }
  const step = await stepPayout(ctx, payout, logFields, async (next, repos = ctx.store) => {
    stray = await repos.patchStrayDeposit(key, next.status === "confirmed" ? { refund: next, state: "refunded" } : { refund: next });
  });
  if (step.payout.status === "confirmed") ctx.log.info({ ...logFields, hash: step.payout.hash }, "stray deposit refunded");
  return stray;
}

/**
 * What the planned refund would cost the operator now (wei): its `execute`'s gas estimate from the
 * solver × the chain's current gas price. null when the call would revert or needs more than the
 * solver's gas cap: the payout step then records why, as before this check existed (a refund that
 * cannot be sent costs nothing to decide).
 */
async function refundGasCost(ctx: SolverContext, payout: Payout): Promise<bigint | null> {
  const { publicClient } = ctx.clients.get(payout.chainId);
  const data = await signedPayoutCall(ctx, payout.chainId, payout);
  try {
    // The gas limit the payout would be sent with (../../transactions/gasCap.ts): the estimate, or the cap when the node
    // cannot estimate a payee that burns its forwarded gas (the payout still lands, made claimable).
    const [gas, gasPrice] = await Promise.all([
      gasLimitWithin(publicClient, payout.chainId, ctx.solver, { to: payout.depository, data }, BigInt(ctx.settings.maxGasPerTransaction)),
      publicClient.getGasPrice(),
    ]);
    return gas * gasPrice;
  } catch (error) {
    if (isRevert(error) || error instanceof GasCapExceededError) return null;
    throw error;
  }
}

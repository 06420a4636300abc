/**
 * One step of an app withdrawal (POST /app-balance/withdrawals; ../../store/appWithdrawals.ts), run
 * under the withdrawal's lease (../startSolver.ts), like a stray refund:
 * - not planned yet → the payout is planned (`prepared`: one call paying `amount` of `currency` to the
 *   key's funding address from the chain's Depository; nonce `keccak256(abi.encode("ferry.app-withdrawal",
 *   chainId, id))`, its own domain tag, so it equals no request's or stray's nonce) and stored before
 *   anything is signed or sent;
 * - planned → one step of the shared payout machinery (./advancePayout.ts `stepPayout`: hash stored
 *   before broadcast, `executed(requestHash)` consulted after a restart, the Depository's replay guard
 *   on the struct hash). When it is confirmed the hold is settled (the whole `amountUsd` debited) and
 *   the withdrawal is `paid`, in one transaction; when it reverted (it cannot be sent: the Depository
 *   lacks the funds, the call expired) the hold is released and the withdrawal `failed` with its reason,
 *   in one transaction. A restart between the two finds the payout's status and ends the same way.
 */
import { encodeAbiParameters, keccak256 } from "viem";
import type { Repositories } from "../../store/createStore.ts";
import type { AppWithdrawal } from "../../store/appWithdrawals.ts";
import type { Payout } from "../../model/payout.ts";
import { ChainNotConfiguredError } from "../../chains/chainClients.ts";
import type { SolverContext } from "../solverContext.ts";
import { stepPayout } from "./advancePayout.ts";
import { preparedPayout } from "./payoutPlan.ts";

export const APP_WITHDRAWAL_NONCE_TAG = "ferry.app-withdrawal";

export function appWithdrawalNonce(chainId: number, id: string): bigint {
  return BigInt(keccak256(encodeAbiParameters([{ type: "string" }, { type: "uint256" }, { type: "string" }], [APP_WITHDRAWAL_NONCE_TAG, BigInt(chainId), id])));
}

export async function stepAppWithdrawal(ctx: SolverContext, id: string): Promise<AppWithdrawal | null> {
  let withdrawal = await ctx.store.getAppWithdrawal(id);
  if (!withdrawal || withdrawal.state !== "pending") return withdrawal;
  const logFields = { withdrawal: id, apiKeyId: withdrawal.apiKeyId, kind: "app-withdrawal" };
  let payout = withdrawal.payout;
  if (!payout) {
    const chain = ctx.chains.find((c) => c.id === withdrawal!.chainId);
    if (!chain) throw new ChainNotConfiguredError(withdrawal.chainId);
    payout = preparedPayout({
      chainId: withdrawal.chainId,
      depository: chain.contracts.depository,
      nonce: appWithdrawalNonce(withdrawal.chainId, id),
      calls: [{ to: withdrawal.recipient, token: withdrawal.currency, amount: withdrawal.amount }],
      nowSeconds: Math.floor(ctx.now().getTime() / 1000),
    });
    withdrawal = await ctx.store.patchAppWithdrawal(id, { payout });
  }
  const holdId = withdrawal.holdId;
  const amountUsd = withdrawal.amountUsd;
  const save = async (next: Payout, tx: Repositories) => {
    if (next.status === "confirmed") {
      await tx.appBalances.settle({ holdId, spentUsd: amountUsd });
      withdrawal = await tx.patchAppWithdrawal(id, { payout: next, state: "paid" });
    } else if (next.status === "reverted") {
      await tx.appBalances.release(holdId);
      withdrawal = await tx.patchAppWithdrawal(id, { payout: next, state: "failed", failReason: next.failReason ?? "TRANSACTION_REVERTED" });
    } else {
      withdrawal = await tx.patchAppWithdrawal(id, { payout: next });
    }
  };
  const step = await stepPayout(ctx, payout, logFields, async (next, repos) => (repos ? save(next, repos) : ctx.store.transaction((tx) => save(next, tx))));
  // A payout found ended (a restart after it was recorded but before the hold was): end it now.
  if (withdrawal.state === "pending" && (step.payout.status === "confirmed" || step.payout.status === "reverted")) {
    await ctx.store.transaction((tx) => save(step.payout, tx));
  }
  if (withdrawal.state === "paid") ctx.log.info({ ...logFields, hash: step.payout.hash }, "app withdrawal paid");
  if (withdrawal.state === "failed") ctx.log.warn({ ...logFields, failReason: withdrawal.failReason }, "app withdrawal could not be paid: hold released");
  return withdrawal;
}

/**
 * Moves one Depository payout (repayment or refund, ./payoutPlan.ts) forward by one step, resumable
 * at every point:
 * - not planned yet → plan it and store it in the request's solver state (status `prepared`) before
 *   signing anything;
 * - a recorded transaction with a receipt → `confirmed` (or, reverted and not executed, `reverted`);
 *   still in the node's mempool → wait;
 * - executed onchain already (the replay guard's `executed(requestHash)`) → record that transaction;
 * - otherwise the allocator signs the stored struct and the solver's wallet sends `execute` (the
 *   compact form, ts/core's `encodeExecute`), the hash recorded (status `sent`) before the broadcast.
 * Returns the payout as stored after the step. `stepPayout` is the same step for a payout planned
 * and stored elsewhere (a stray deposit's refund).
 */
import type { Hex } from "viem";
import { encodeExecute } from "../../core/executeCalldata.ts";
import { signPayoutRequest } from "../../core/payoutRequest.ts";
import type { ChainClient } from "../chains/chainClients.ts";
import { KeyNotConfiguredError } from "../chains/serviceAccounts.ts";
import type { Payout, PayoutKind } from "../model/payout.ts";
import type { OnchainTx } from "../model/requestData.ts";
import { requireSolverState, type StoredRequest } from "../model/storedRequest.ts";
import { StoredValueInvalidError } from "../model/storedValue.ts";
import { findPayoutTx, isPayoutExecuted, onchainTxOf, receiptOrNull, transactionKnown } from "./chainReads.ts";
import { payoutRequestOf, planPayout } from "./payoutPlan.ts";
import { decodeRevert, isRevert, revertDataOf } from "./revertReason.ts";
import { sendRecorded } from "./sendTransaction.ts";
import type { SolverContext } from "./solverContext.ts";

export type PayoutProgress = { payout: Payout; request: StoredRequest; tx?: OnchainTx };

export async function advancePayout(ctx: SolverContext, request: StoredRequest, kind: PayoutKind): Promise<PayoutProgress> {
  const state = requireSolverState(request);
  let payout = state[kind];
  if (!payout) {
    if (!state.deposit) throw new StoredValueInvalidError("requests.solver_state", request.id, "deposit", `is missing: no ${kind} without a deposit`);
    payout = planPayout({
      kind,
      requestId: request.id,
      deposit: state.deposit,
      originAmount: state.intent.originAmount,
      solver: ctx.solver,
      refundTo: state.intent.refundTo,
      nowSeconds: Math.floor(ctx.now().getTime() / 1000),
    });
    request = await ctx.store.patchRequest(request.id, { solver: { [kind]: payout } });
  }
  const step = await stepPayout(ctx, payout, { requestId: request.id, kind }, async (next) => {
    request = await ctx.store.patchRequest(request.id, { solver: { [kind]: next } });
  });
  return { ...step, request };
}

/**
 * One step of a payout that is already planned and stored (status `prepared` or later): `save`
 * stores the payout as it changes — it must have been stored before this is called, and every new
 * hash is saved before its transaction is broadcast. Shared by requests' payouts and stray-deposit
 * refunds (./refundStrayDeposit.ts). `logFields` identify the payout in logs.
 */
export async function stepPayout(
  ctx: SolverContext,
  payout: Payout,
  logFields: Record<string, string | number>,
  save: (next: Payout) => Promise<void>,
): Promise<{ payout: Payout; tx?: OnchainTx }> {
  if (payout.status === "confirmed" || payout.status === "reverted") return { payout };
  const client = ctx.clients.get(payout.chainId);
  const record = async (next: Payout) => {
    await save(next);
    return next;
  };

  if (payout.hash) {
    const receipt = await receiptOrNull(client.publicClient, payout.hash);
    if (receipt?.status === "success") {
      const tx = await onchainTxOf(client, receipt);
      return { payout: await record({ ...payout, status: "confirmed", block: Number(receipt.blockNumber) }), tx };
    }
    if (receipt === null && (await transactionKnown(client.publicClient, payout.hash))) return { payout };
    if (receipt && !(await isPayoutExecuted(client, payout.nonce))) {
      const failReason = await replayRevert(client, receipt.transactionHash, receipt.blockNumber);
      ctx.log.error({ ...logFields, hash: receipt.transactionHash, failReason }, "payout reverted");
      return { payout: await record({ ...payout, status: "reverted", block: Number(receipt.blockNumber), failReason }) };
    }
  }

  if (await isPayoutExecuted(client, payout.nonce)) {
    const hash = await findPayoutTx(client, payout.requestHash);
    if (hash) {
      const receipt = await client.publicClient.getTransactionReceipt({ hash });
      const tx = await onchainTxOf(client, receipt);
      return { payout: await record({ ...payout, hash, status: "confirmed", block: Number(receipt.blockNumber) }), tx };
    }
  }

  const wallet = client.solverWallet;
  if (!wallet) throw new KeyNotConfiguredError("solver");
  const struct = payoutRequestOf(payout);
  const signature = await signPayoutRequest({ account: ctx.allocator, chainId: client.config.id, depository: payout.depository, request: struct });
  const data = encodeExecute({ request: struct, signature });
  let current = payout;
  let sentHash: Hex | undefined;
  try {
    sentHash = await sendRecorded(wallet, client.publicClient, { to: payout.depository, data }, async (hash) => {
      current = await record({ ...current, hash, status: "sent" });
    });
  } catch (error) {
    if (!isRevert(error)) throw error;
    const decoded = decodeRevert(revertDataOf(error));
    ctx.log.error({ ...logFields, failReason: decoded.failReason, error: decoded.errorName ?? "" }, "payout simulation reverted");
    return { payout: await record({ ...current, status: "reverted", failReason: decoded.failReason }) };
  }
  ctx.log.info({ ...logFields, hash: sentHash }, "payout sent");
  const receipt = await receiptOrNull(client.publicClient, sentHash);
  if (receipt?.status === "success") {
    const tx = await onchainTxOf(client, receipt);
    return { payout: await record({ ...current, status: "confirmed", block: Number(receipt.blockNumber) }), tx };
  }
  return { payout: current };
}

async function replayRevert(client: ChainClient, hash: Hex, blockNumber: bigint): Promise<string> {
  const tx = await client.publicClient.getTransaction({ hash });
  try {
    await client.publicClient.call({ account: tx.from, to: tx.to!, data: tx.input, blockNumber });
    return "TRANSACTION_REVERTED";
  } catch (error) {
    return decodeRevert(revertDataOf(error)).failReason;
  }
}

/**
 * Moves one Depository payout (repayment or refund, ./payoutPlan.ts) forward by one step, resumable
 * at every point:
 * - not planned yet → plan it and store it in `data[kind]` (status `prepared`) before signing anything;
 * - a recorded transaction with a receipt → `confirmed` (or, reverted and not executed, `reverted`);
 *   still in the node's mempool → wait;
 * - executed onchain already (the replay guard's `executed(requestHash)`) → record that transaction;
 * - otherwise the allocator signs the stored struct and the solver's wallet sends `execute`, the hash
 *   recorded (status `sent`) before the broadcast.
 * Returns the payout as stored after the step. `stepPayout` is the same step for a payout planned
 * and stored elsewhere (a stray deposit's refund).
 */
import { encodeFunctionData, type Hex } from "viem";
import { depositoryAbi } from "../../abi/Depository.ts";
import { signPayoutRequest } from "../../core/payoutRequest.ts";
import type { StoredRequest } from "../store/requests.ts";
import type { ChainClient } from "./chainClients.ts";
import { findPayoutTx, isPayoutExecuted, onchainTxOf, receiptOrNull, transactionKnown } from "./chainReads.ts";
import { readSolverData } from "./fillAttestation.ts";
import { payoutRequestOf, planPayout, type PayoutKind, type StoredPayout } from "./payoutPlan.ts";
import { decodeRevert, isRevert, revertDataOf } from "./revertReason.ts";
import { sendRecorded } from "./sendTransaction.ts";
import type { SolverContext } from "./solverContext.ts";
import { KeyNotConfiguredError } from "./solverErrors.ts";

export type PayoutProgress = { payout: StoredPayout; request: StoredRequest; tx?: Record<string, unknown> };

export async function advancePayout(ctx: SolverContext, request: StoredRequest, kind: PayoutKind): Promise<PayoutProgress> {
  let payout = request.data[kind] as StoredPayout | undefined;
  if (!payout) {
    const data = readSolverData(request);
    payout = planPayout({
      kind,
      requestId: request.id as Hex,
      deposit: data.deposit,
      originAmount: data.originAmount,
      solver: ctx.solver,
      refundTo: data.refundTo,
      nowSeconds: Math.floor(ctx.now().getTime() / 1000),
    });
    request = await ctx.store.patchRequest(request.id, { data: { [kind]: payout } });
  }
  const step = await stepPayout(ctx, payout, { requestId: request.id, kind }, async (next) => {
    request = await ctx.store.patchRequest(request.id, { data: { [kind]: next } });
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
  payout: StoredPayout,
  logFields: Record<string, unknown>,
  save: (next: StoredPayout) => Promise<void>,
): Promise<{ payout: StoredPayout; tx?: Record<string, unknown> }> {
  if (payout.status === "confirmed" || payout.status === "reverted") return { payout };
  const client = ctx.clients.get(payout.chainId);
  const record = async (next: StoredPayout) => {
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
  const data = encodeFunctionData({ abi: depositoryAbi, functionName: "execute", args: [{ calls: [...struct.calls], nonce: struct.nonce, expiration: struct.expiration }, signature] });
  let current = payout;
  try {
    await sendRecorded(wallet, client.publicClient, { to: payout.depository, data }, async (hash) => {
      current = await record({ ...current, hash, status: "sent" });
    });
  } catch (error) {
    if (!isRevert(error)) throw error;
    const decoded = decodeRevert(revertDataOf(error));
    ctx.log.error({ ...logFields, failReason: decoded.failReason, error: decoded.errorName }, "payout simulation reverted");
    return { payout: await record({ ...current, status: "reverted", failReason: decoded.failReason }) };
  }
  ctx.log.info({ ...logFields, hash: current.hash }, "payout sent");
  const receipt = await receiptOrNull(client.publicClient, current.hash!);
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

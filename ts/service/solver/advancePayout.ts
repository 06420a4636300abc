/**
 * Moves one Depository payout (repayment or refund, ./payoutPlan.ts) forward by one step, resumable
 * at every point:
 * - not planned yet → plan it and store it in the request's solver state (status `prepared`) before
 *   signing anything;
 * - a recorded transaction with a receipt → `confirmed` (or, reverted and not executed, `reverted`);
 *   still in the node's mempool → wait;
 * - executed onchain already (the replay guard's `executed(requestHash)`) → record that transaction;
 * - otherwise the allocator signs the stored struct and the solver's wallet sends `execute`, the hash
 *   recorded (status `sent`) before the broadcast.
 * Returns the payout as stored after the step. `stepPayout` is the same step for a payout planned
 * and stored elsewhere (a stray deposit's refund).
 */
import { encodeFunctionData, type Hex, type TransactionReceipt } from "viem";
import { depositoryAbi } from "../../abi/Depository.ts";
import { signPayoutRequest } from "../../core/payoutRequest.ts";
import type { ChainClient } from "../chains/chainClients.ts";
import type { Payout, PayoutKind } from "../model/payout.ts";
import type { OnchainTx } from "../model/requestData.ts";
import { requireSolverState, type StoredRequest } from "../model/storedRequest.ts";
import { StoredValueInvalidError } from "../model/storedValue.ts";
import { findPayoutTx, isPayoutExecuted, onchainTxOf, receiptOrNull, transactionKnown } from "./chainReads.ts";
import { payoutRequestOf, planPayout } from "./payoutPlan.ts";
import { decodeRevert, isRevert, revertDataOf } from "./revertReason.ts";
import { sendRecorded, type SentTx } from "./sendTransaction.ts";
import type { Repositories } from "../store/createStore.ts";
import type { TxPurpose } from "../model/solverTransaction.ts";
import { canonicalHex } from "../model/values.ts";
import type { SolverContext } from "./solverContext.ts";
import { PayoutLogNotFoundError } from "./solverErrors.ts";

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
  const step = await stepPayout(ctx, payout, { requestId: request.id, orderId: request.orderId, kind }, async (next, repos = ctx.store) => {
    request = await repos.patchRequest(request.id, { solver: { [kind]: next } });
  });
  return { ...step, request };
}

/**
 * One step of a payout that is already planned and stored (status `prepared` or later): `save`
 * stores the payout as it changes — it must have been stored before this is called; a new transaction's
 * nonce and hash are saved in the nonce's own store transaction (the `repos` given to `save`), before
 * the broadcast. A sent payout's nonce is followed (./nonceManager.ts): mined → confirmed (or, reverted
 * and not executed, `reverted`); pending → wait (re-broadcast, fee bumps at the same nonce); superseded
 * → the Depository's `executed(nonce)` decides, and only a payout not executed is sent again. Shared by
 * requests' payouts and stray-deposit refunds (./refundStrayDeposit.ts). `logFields` identify the payout
 * in logs.
 */
export async function stepPayout(
  ctx: SolverContext,
  payout: Payout,
  logFields: Record<string, string | number>,
  save: (next: Payout, repos?: Repositories) => Promise<void>,
): Promise<{ payout: Payout; tx?: OnchainTx }> {
  if (payout.status === "confirmed" || payout.status === "reverted") return { payout };
  const client = ctx.clients.get(payout.chainId);
  const record = async (next: Payout) => {
    await save(next);
    return next;
  };
  const settle = async (receipt: TransactionReceipt, current: Payout): Promise<{ payout: Payout; tx?: OnchainTx } | undefined> => {
    if (receipt.status === "success") {
      const tx = await onchainTxOf(client, receipt);
      return { payout: await record({ ...current, hash: canonicalHex(receipt.transactionHash), status: "confirmed", block: Number(receipt.blockNumber) }), tx };
    }
    if (!(await isPayoutExecuted(client, current.nonce))) {
      const failReason = await replayRevert(client, receipt.transactionHash, receipt.blockNumber);
      ctx.log.error({ ...logFields, txHash: receipt.transactionHash, failReason }, "payout reverted");
      return { payout: await record({ ...current, status: "reverted", block: Number(receipt.blockNumber), failReason }) };
    }
    return undefined; // reverted because another transaction executed it: recorded from its log below
  };

  if (payout.hash && payout.txNonce !== undefined) {
    const outcome = await ctx.transactions.follow({ chainId: payout.chainId, txNonce: payout.txNonce }, logFields);
    if (outcome.state === "mined") {
      const settled = await settle(outcome.receipt, payout);
      if (settled) return settled;
    } else if (outcome.state === "pending") {
      return { payout };
    }
  } else if (payout.hash) {
    const receipt = await receiptOrNull(client.publicClient, payout.hash);
    if (receipt) {
      const settled = await settle(receipt, payout);
      if (settled) return settled;
    } else if (await transactionKnown(client.publicClient, payout.hash)) {
      return { payout };
    }
  }

  if (payout.hash !== undefined && (await isPayoutExecuted(client, payout.nonce))) {
    const hash = await findPayoutTx(client, payout.requestHash);
    if (hash) {
      const receipt = await client.publicClient.getTransactionReceipt({ hash });
      const tx = await onchainTxOf(client, receipt);
      return { payout: await record({ ...payout, hash, status: "confirmed", block: Number(receipt.blockNumber) }), tx };
    }
  }

  const struct = payoutRequestOf(payout);
  const signature = await signPayoutRequest({ account: ctx.allocator, chainId: client.config.id, depository: payout.depository, request: struct });
  const data = encodeFunctionData({ abi: depositoryAbi, functionName: "execute", args: [{ calls: [...struct.calls], nonce: struct.nonce, expiration: struct.expiration }, signature] });
  let current = payout;
  let sent: SentTx;
  try {
    sent = await sendRecorded(ctx, payout.chainId, { purpose: purposeOf(logFields), subject: String(logFields.requestId ?? logFields.strayDeposit ?? payout.requestHash), logFields }, { to: payout.depository, data }, async (tx, repos) => {
      current = { ...current, hash: tx.hash, txNonce: tx.txNonce, status: "sent" };
      await save(current, repos);
    });
  } catch (error) {
    if (!isRevert(error)) throw error;
    const decoded = decodeRevert(revertDataOf(error));
    // Executed already, by a transaction this payout's record does not name (another replica's, sent
    // before its record was read here): record that one instead of failing.
    if (await isPayoutExecuted(client, payout.nonce)) {
      const hash = await findPayoutTx(client, payout.requestHash);
      if (hash) {
        const receipt = await client.publicClient.getTransactionReceipt({ hash });
        return { payout: await record({ ...current, hash, status: "confirmed", block: Number(receipt.blockNumber) }), tx: await onchainTxOf(client, receipt) };
      }
      throw new PayoutLogNotFoundError(String(payout.nonce));
    }
    ctx.log.error({ ...logFields, failReason: decoded.failReason, error: decoded.errorName ?? "" }, "payout simulation reverted");
    return { payout: await record({ ...current, status: "reverted", failReason: decoded.failReason }) };
  }
  ctx.log.info({ ...logFields, txHash: sent.hash, txNonce: sent.txNonce }, "payout sent");
  const receipt = await receiptOrNull(client.publicClient, sent.hash);
  if (receipt?.status === "success") {
    const tx = await onchainTxOf(client, receipt);
    return { payout: await record({ ...current, status: "confirmed", block: Number(receipt.blockNumber) }), tx };
  }
  return { payout: current };
}

function purposeOf(logFields: Record<string, string | number>): TxPurpose {
  const kind = logFields.kind;
  return kind === "refund" || kind === "stray-refund" ? kind : "repayment";
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

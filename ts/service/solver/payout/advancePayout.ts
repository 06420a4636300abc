/**
 * Moves one Depository payout (repayment or refund, ./payoutPlan.ts) forward by one step, resumable
 * at every point:
 * - not planned yet → plan it and store it in the request's solver state (status `prepared`) before
 *   signing anything (a repayment not paid by a batch is planned by the write that records the fill's
 *   success: ../fill/fillOutcome.ts);
 * - a recorded transaction with a receipt in a final block (../../chains/chainFinality.ts) → `confirmed`
 *   (or, reverted and not executed, `reverted`); a receipt in a block not final yet → wait (a reorg may
 *   still take it away: the payout stays `sent` and is re-checked — mempool, `executed(nonce)`, or the
 *   very same struct sent again); a landed payout records the calls the Depository made claimable
 *   (./payoutClaims.ts) and, for a request, the claim instructions in its public `details`; still in
 *   the node's mempool → wait;
 * - on a chain halted after a deep reorg → nothing (an operator resumes it);
 * - executed onchain already (the replay guard's `executed(nonce)`; asked of a payout that was sent, one
 *   never sent learns it from its simulation's revert) → record that transaction;
 * - a sent payout's nonce is followed through the nonce manager (../../transactions/nonceManager.ts): mined → the
 *   receipt rules above; pending → wait (re-broadcast, fee bumps at the same nonce); superseded → the
 *   Depository's `executed(nonce)` decides;
 * - otherwise the allocator signs the stored struct and the solver's wallet sends `execute` (the
 *   compact form, ts/core's `encodeExecute`) or, for a settlement with credits, `settle` (for a reclaimable
 *   deposit's payout, `release`), through the nonce manager, the hash and nonce recorded (status `sent`) in
 *   the nonce's store transaction before the broadcast; its gas limit stays within
 *   `solver.maxGasPerTransaction` (../../transactions/gasCap.ts) and its fees within the chain's `maxTransactionFee`.
 * Returns the payout as stored after the step. `stepPayout` is the same step for a payout planned
 * and stored elsewhere (a stray deposit's refund).
 */
import { encodeFunctionData, type Hex } from "viem";
import { depositoryAbi } from "../../../abi/Depository.ts";
import { encodeExecute } from "../../../core/executeCalldata.ts";
import { signPayoutRequest } from "../../../core/payoutRequest.ts";
import { signSettlement } from "../../../core/settlementRequest.ts";
import type { ChainClient } from "../../chains/chainClients.ts";
import type { Payout, PayoutKind } from "../../model/payout.ts";
import type { OnchainTx } from "../../model/requestData.ts";
import { requireSolverState, type StoredRequest } from "../../model/storedRequest.ts";
import { StoredValueInvalidError } from "../../model/storedValue.ts";
import { isFinal } from "../../chains/chainFinality.ts";
import { readReceipt, type Receipt } from "../../chains/readReceipt.ts";
import { CLOCK_SKEW_SECONDS, findPayoutTx, isPayoutExecuted, onchainTxOf, receiptOrNull, transactionKnown } from "../chainReads.ts";
import { PAYOUT_TTL_SECONDS, payoutRequestOf, planPayout, releaseRequestOf, settlementRequestOf } from "./payoutPlan.ts";
import { signRelease } from "../../../core/releaseRequest.ts";
import type { ReadTransaction } from "../../chains/readTransaction.ts";
import { decodeRevert, isRevert, revertDataOf } from "../../transactions/revertReason.ts";
import { sendRecorded, type SentTx } from "../sendTransaction.ts";
import type { Repositories } from "../../store/createStore.ts";
import type { TxPurpose } from "../../model/solverTransaction.ts";
import { claimablePayoutsOf, claimDetails } from "./payoutClaims.ts";
import type { SolverContext } from "../solverContext.ts";
import { PayoutLogNotFoundError } from "../solverErrors.ts";
import { permitRefundCharge } from "./permitRefundCharge.ts";

export type PayoutProgress = { payout: Payout; request: StoredRequest; tx?: OnchainTx };

export async function advancePayout(ctx: SolverContext, request: StoredRequest, kind: PayoutKind): Promise<PayoutProgress> {
  const state = requireSolverState(request);
  let payout = state[kind];
  if (!payout) {
    if (!state.deposit) throw new StoredValueInvalidError("requests.solver_state", request.id, "deposit", `is missing: no ${kind} without a deposit`);
    const charge = kind === "refund" ? await permitRefundCharge(ctx, request) : undefined;
    if (charge) ctx.log.info({ requestId: request.id, charge: charge.amount.toString(), spent: charge.spent.toString(), bound: charge.bound.toString() }, "permit refund keeps the service's gas");
    payout = payoutPlanOf(ctx, request, kind, charge?.amount)!;
    if (kind === "repayment" && state.repaymentQueuedAt !== undefined) {
      // Queued for a batch (./repaymentBatch.ts) by a process that batches: a batch may have taken it
      // since it was read. Stored only if it still has no repayment, under its row lock.
      const planned = payout;
      const stored = await ctx.store.transaction(async (tx) => {
        const locked = await tx.lockRequest(request.id);
        if (!locked || locked.solver?.repayment !== undefined) return locked;
        return tx.patchRequest(request.id, { solver: { repayment: planned } });
      });
      if (!stored) return { payout, request };
      request = stored;
      payout = requireSolverState(request).repayment!;
      if (payout.batch) return { payout, request };
    } else {
      request = await ctx.store.patchRequest(request.id, { solver: { [kind]: payout } });
    }
  }
  if (payout.batch) throw new StoredValueInvalidError("requests.solver_state", request.id, kind, "is paid by a batch: stepped as the batch (./repaymentBatch.ts), never alone");
  const step = await stepPayout(ctx, payout, { requestId: request.id, orderId: request.orderId, kind }, async (next, repos = ctx.store) => {
    // A landed payout with a claimable part tells the payee how to claim, in the same write.
    const claim = next.status === "confirmed" ? claimDetails(kind, next) : null;
    request = await repos.patchRequest(request.id, { solver: { [kind]: next }, ...(claim && { details: { ...request.details, ...claim } }) });
  });
  return { ...step, request };
}

/**
 * The payout `kind` of `request` as planned now (./payoutPlan.ts `planPayout`): what is stored before
 * anything is signed. Undefined without a credited deposit (nothing to pay from yet). `refundCharge`: a
 * permit refund's charge (./permitRefundCharge.ts).
 */
export function payoutPlanOf(ctx: SolverContext, request: StoredRequest, kind: PayoutKind, refundCharge?: bigint): Payout | undefined {
  const state = requireSolverState(request);
  if (!state.deposit) return undefined;
  return planPayout({
    kind,
    requestId: request.id,
    orderId: request.orderId,
    deposit: state.deposit,
    originAmount: state.intent.originAmount,
    solver: ctx.solver,
    refundTo: state.intent.refundTo,
    appFees: state.intent.appFees,
    ...(refundCharge !== undefined && { refundCharge }),
    nowSeconds: Math.floor(ctx.now().getTime() / 1000),
  });
}

/**
 * One step of a payout that is already planned and stored (status `prepared` or later): `save`
 * stores the payout as it changes — it must have been stored before this is called; a new transaction's
 * nonce and hash are saved in the nonce's own store transaction (the `repos` given to `save`), before
 * the broadcast. A sent payout's nonce is followed (../../transactions/nonceManager.ts): mined → confirmed (or, reverted
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
  if ((ctx.halted ?? (await ctx.store.listHaltedChains())).includes(payout.chainId)) return { payout };
  const client = ctx.clients.get(payout.chainId);
  const record = async (next: Payout) => {
    await save(next);
    return next;
  };
  // Landed: which calls the Depository made claimable (payee could not receive within its gas) is part of the record.
  const confirmed = async (base: Payout, receipt: Receipt) => {
    const claimable = claimablePayoutsOf(receipt, base.depository, base.nonce);
    if (claimable.length > 0) {
      ctx.metrics.payoutsClaimable.inc({ kind: String(logFields.kind ?? "payout") });
      for (const claim of claimable) {
        ctx.log.warn(
          { ...logFields, txHash: receipt.transactionHash, index: claim.index, payee: claim.to, token: claim.token, amount: claim.amount.toString(), depository: base.depository, chainId: base.chainId },
          "payout landed but the payee could not receive it: the amount is claimable by the payee (claim(token, to) on the Depository)",
        );
      }
    }
    return record({ ...base, hash: receipt.transactionHash, status: "confirmed", block: Number(receipt.blockNumber), ...(claimable.length > 0 && { claimable }) });
  };
  // A receipt of the payout's own transaction: final → confirmed / reverted; not final → wait (undefined
  // with `wait`); reverted because another transaction executed it → undefined (recorded from its log below).
  // `sent`: the receipt's transaction as the service sent it (../../transactions/nonceManager.ts `follow`): not read back.
  const settle = async (receipt: Receipt, current: Payout, sent?: ReadTransaction): Promise<{ payout: Payout; tx?: OnchainTx } | "wait" | undefined> => {
    if (!(await isFinal(client, receipt.blockNumber))) return "wait";
    if (receipt.status === "success") {
      const tx = await onchainTxOf(client, receipt, sent);
      return { payout: await confirmed(current, receipt), tx };
    }
    if (!(await isPayoutExecuted(client, current.nonce))) {
      const failReason = await replayRevert(client, receipt.transactionHash, receipt.blockNumber);
      ctx.log.error({ ...logFields, txHash: receipt.transactionHash, failReason }, "payout reverted");
      return { payout: await record({ ...current, status: "reverted", block: Number(receipt.blockNumber), failReason }) };
    }
    return undefined;
  };

  if (payout.hash && payout.txNonce !== undefined) {
    const outcome = await ctx.transactions.follow({ chainId: payout.chainId, txNonce: payout.txNonce }, logFields);
    if (outcome.state === "mined") {
      const settled = await settle(outcome.receipt, payout, outcome.transaction);
      if (settled === "wait") return { payout };
      if (settled) return settled;
    } else if (outcome.state === "pending") {
      return { payout };
    }
    // superseded: the nonce carried another transaction; `executed(nonce)` decides below.
  } else if (payout.hash) {
    const receipt = await receiptOrNull(client.publicClient, payout.hash);
    if (receipt) {
      const settled = await settle(receipt, payout);
      if (settled === "wait") return { payout };
      if (settled) return settled;
    } else if (await transactionKnown(client.publicClient, payout.hash)) {
      return { payout };
    }
  }

  // Executed by a transaction this record does not name: only a payout that was sent can be (its hash
  // is recorded before any broadcast). One never sent is simulated below, and a payout executed all the
  // same (by hand, or a record restored from before its send) reverts there and is found by the catch.
  if (payout.hash && (await isPayoutExecuted(client, payout.nonce))) {
    const hash = await findPayoutTx(client, payout.requestHash, payout.expiration - PAYOUT_TTL_SECONDS - CLOCK_SKEW_SECONDS);
    if (hash) {
      const receipt = await readReceipt(client.publicClient, hash);
      if (!(await isFinal(client, receipt.blockNumber))) return { payout: await record({ ...payout, hash, status: "sent" }) };
      const tx = await onchainTxOf(client, receipt);
      return { payout: await confirmed({ ...payout, hash }, receipt), tx };
    }
  }

  const data = await signedPayoutCall(ctx, client.config.id, payout);
  let current = payout;
  let sent: SentTx;
  try {
    const tx = { to: payout.depository, data, maxGas: BigInt(ctx.settings.maxGasPerTransaction) };
    const what = { purpose: purposeOf(logFields), subject: String(logFields.requestId ?? logFields.strayDeposit ?? payout.requestHash), logFields };
    sent = await sendRecorded(ctx, payout.chainId, what, tx, async (onchain, repos) => {
      current = { ...current, hash: onchain.hash, txNonce: onchain.txNonce, status: "sent" };
      await save(current, repos);
    });
  } catch (error) {
    if (!isRevert(error)) throw error;
    const decoded = decodeRevert(revertDataOf(error));
    // Executed already, by a transaction this payout's record does not name (another replica's, sent
    // before its record was read here): record that one instead of failing.
    if (await isPayoutExecuted(client, payout.nonce)) {
      const hash = await findPayoutTx(client, payout.requestHash, payout.expiration - PAYOUT_TTL_SECONDS - CLOCK_SKEW_SECONDS);
      if (hash) {
        const receipt = await readReceipt(client.publicClient, hash);
        if (!(await isFinal(client, receipt.blockNumber))) return { payout: await record({ ...current, hash, status: "sent" }) };
        return { payout: await confirmed({ ...current, hash }, receipt), tx: await onchainTxOf(client, receipt) };
      }
      throw new PayoutLogNotFoundError(String(payout.nonce));
    }
    ctx.log.error({ ...logFields, failReason: decoded.failReason, error: decoded.errorName ?? "" }, "payout simulation reverted");
    return { payout: await record({ ...current, status: "reverted", failReason: decoded.failReason }) };
  }
  ctx.log.info({ ...logFields, txHash: sent.hash, txNonce: sent.txNonce }, "payout sent");
  // Landed at once (automine, fast chains): confirmed in this step. Where heads are pushed, the nonce is
  // not read before a block newer than the broadcast exists (../../transactions/broadcastHeads.ts).
  const outcome = await ctx.transactions.follow({ chainId: payout.chainId, txNonce: sent.txNonce }, logFields);
  if (outcome.state === "mined" && outcome.receipt.status === "success" && (await isFinal(client, outcome.receipt.blockNumber))) {
    const tx = await onchainTxOf(client, outcome.receipt, outcome.transaction);
    return { payout: await confirmed(current, outcome.receipt), tx };
  }
  return { payout: current };
}

function purposeOf(logFields: Record<string, string | number>): TxPurpose {
  const kind = logFields.kind;
  return kind === "refund" || kind === "stray-refund" ? kind : "repayment";
}

/**
 * `execute(CallRequest, sig)`, or `settle(SettlementRequest, sig)` when the payout credits app fees, or
 * `release(ReleaseRequest, sig)` when it is paid from a reclaimable deposit; signed by the allocator.
 */
export async function signedPayoutCall(ctx: SolverContext, chainId: number, payout: Payout): Promise<Hex> {
  const release = releaseRequestOf(payout);
  if (release) {
    const signature = await signRelease({ account: ctx.allocator, chainId, depository: payout.depository, request: release });
    const args = { id: release.id, calls: [...release.calls], credits: [...release.credits], nonce: release.nonce, expiration: release.expiration };
    return encodeFunctionData({ abi: depositoryAbi, functionName: "release", args: [args, signature] });
  }
  const settlement = settlementRequestOf(payout);
  if (settlement) {
    const signature = await signSettlement({ account: ctx.allocator, chainId, depository: payout.depository, request: settlement });
    const args = { calls: [...settlement.calls], credits: [...settlement.credits], nonce: settlement.nonce, expiration: settlement.expiration };
    return encodeFunctionData({ abi: depositoryAbi, functionName: "settle", args: [args, signature] });
  }
  const struct = payoutRequestOf(payout);
  const signature = await signPayoutRequest({ account: ctx.allocator, chainId, depository: payout.depository, request: struct });
  return encodeExecute({ request: struct, signature });
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

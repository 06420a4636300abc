/**
 * A batched repayment's plan (./repaymentBatch.ts): the repayments of several requests on one origin
 * Depository as one allocator-signed request. Pure.
 *
 * - **Members**: each member's calls and credits are exactly its own repayment's (./payoutPlan.ts
 *   `payoutCalls`: the solver's part, an excess to `refundTo`, the app-fee credits), appended in member
 *   order; the member records their indexes. No call is shared: a member's receipt proves its own.
 * - **The struct**: without credits a `CallRequest` (`execute`), with any a `SettlementRequest`
 *   (`settle`); never a release (a reclaimable deposit's repayment is its own `release`, not batched).
 * - **The nonce**: `keccak256(abi.encode("ferry.repayment-batch", chainId, depository, requestIds, planned
 *   at))` — its own domain tag, so it never equals a single repayment's, refund's or stray refund's.
 * - **When**: a batch is due once `maxSize` repayments are queued, or the oldest has waited `maxWaitMs`.
 */
import { encodeAbiParameters, keccak256 } from "viem";
import type { Payout } from "../../model/payout.ts";
import type { CreditedDeposit } from "../../model/solverState.ts";
import type { Address, Bytes32 } from "../../model/values.ts";
import { payoutCalls, preparedPayout, type AppFeeShare } from "./payoutPlan.ts";

export type BatchCandidate = {
  requestId: Bytes32;
  deposit: CreditedDeposit;
  originAmount: bigint;
  refundTo: Address;
  appFees?: readonly AppFeeShare[];
};

export type BatchMemberPlan = { requestId: Bytes32; calls: number[]; credits: number[] };

export class RepaymentBatchPlanError extends Error {}

export function repaymentBatchNonce(chainId: number, depository: Address, requestIds: readonly Bytes32[], nowSeconds: number): bigint {
  return BigInt(
    keccak256(
      encodeAbiParameters(
        [{ type: "string" }, { type: "uint256" }, { type: "address" }, { type: "bytes32[]" }, { type: "uint256" }],
        ["ferry.repayment-batch", BigInt(chainId), depository, [...requestIds], BigInt(nowSeconds)],
      ),
    ),
  );
}

/** Whether a batch should be formed now from the queued repayments (oldest first). */
export function batchDue(queued: readonly { queuedAt: number }[], settings: { maxSize: number; maxWaitMs: number }, nowMs: number): boolean {
  if (queued.length === 0) return false;
  if (queued.length >= settings.maxSize) return true;
  return nowMs - Math.min(...queued.map((q) => q.queuedAt)) >= settings.maxWaitMs;
}

/** The batch's struct (status `prepared`) and each member's indexes in it. Throws on members that may not share a batch. */
export function planRepaymentBatch(args: {
  chainId: number;
  depository: Address;
  solver: Address;
  members: readonly BatchCandidate[];
  nowSeconds: number;
}): { payout: Payout; members: BatchMemberPlan[] } {
  if (args.members.length < 2) throw new RepaymentBatchPlanError("a batch has at least two members");
  const seen = new Set<string>();
  const calls: Payout["calls"] = [];
  const credits: Payout["calls"] = [];
  const members: BatchMemberPlan[] = [];
  for (const m of args.members) {
    if (seen.has(m.requestId)) throw new RepaymentBatchPlanError(`request ${m.requestId} twice in one batch`);
    seen.add(m.requestId);
    if (m.deposit.chainId !== args.chainId || m.deposit.depository.toLowerCase() !== args.depository.toLowerCase()) {
      throw new RepaymentBatchPlanError(`request ${m.requestId} was deposited on another Depository`);
    }
    if (m.deposit.reclaimAt !== undefined) throw new RepaymentBatchPlanError(`request ${m.requestId}'s deposit is reclaimable: its repayment is its own release`);
    const own = payoutCalls({ kind: "repayment", deposit: m.deposit, originAmount: m.originAmount, solver: args.solver, refundTo: m.refundTo, appFees: m.appFees });
    const member: BatchMemberPlan = { requestId: m.requestId, calls: [], credits: [] };
    for (const call of own.calls) member.calls.push(calls.push(call) - 1);
    for (const credit of own.credits) member.credits.push(credits.push(credit) - 1);
    members.push(member);
  }
  const nonce = repaymentBatchNonce(args.chainId, args.depository, members.map((m) => m.requestId), args.nowSeconds);
  const payout = preparedPayout({ chainId: args.chainId, depository: args.depository, nonce, calls, credits, nowSeconds: args.nowSeconds });
  return { payout, members };
}

/**
 * A member's copy of the batch's payout (its `solver.repayment`): the batch's struct and transaction,
 * the member's indexes, and of the calls made claimable only the member's own.
 */
export function memberRepayment(batch: Payout, member: Pick<BatchMemberPlan, "calls" | "credits">): Payout {
  const { claimable, ...rest } = batch;
  const own = claimable?.filter((c) => member.calls.includes(c.index));
  return { ...rest, batch: { calls: [...member.calls], credits: [...member.credits] }, ...(own && own.length > 0 && { claimable: own }) };
}

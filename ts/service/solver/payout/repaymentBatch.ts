/**
 * Batched repayment (config `solver.repaymentBatch`, `maxSize` > 1; docs/decisions.md "Batched
 * repayment"): the repayments of verified fills on one origin Depository paid by one allocator-signed
 * request (`execute`, or `settle` with app-fee credits), so the origin chain carries about one
 * transaction per intent instead of two.
 *
 * - **Queue**: a `success` request whose fill was verified to be the solver's own (./repayAndRefund.ts)
 *   and whose deposit is plain (a reclaimable deposit's repayment is its own `release`) records
 *   `solver.repaymentQueuedAt` instead of planning its own payout.
 * - **Form** (`formRepaymentBatch`), in one store transaction under the Depository's advisory lock:
 *   the queued requests (oldest first, at most `maxSize`), each row locked and re-checked (still
 *   `success`, not parked, queued, no repayment); once due (`maxSize` of them, or the oldest waited
 *   `maxWaitMs`) the batch's struct is stored once (`repayment_batches`) and every member's
 *   `solver.repayment` becomes its copy naming the batch (nonce, requestHash, the member's call and
 *   credit indexes) — before anything is signed. A lone due request gets its own repayment, as without
 *   batching. Two replicas never put one request in two batches: the lock serialises forming and a
 *   member already planned is skipped.
 * - **Step** (`stepRepaymentBatch`), under the batch's lease: ./advancePayout.ts `stepPayout` on the
 *   stored struct — sign, send, follow, confirm; after a reorg or a dropped transaction only that very
 *   struct is sent again (the Depository's `executed[nonce]` pays it once) — each change written to the
 *   batch and to every member's copy in one transaction.
 * - **Dissolve**: only a batch past its expiration at a final block whose nonce that block shows not
 *   executed can never land any more; then (and only then) its members' copies are removed and they
 *   queue again. A signed struct is never abandoned earlier — not even one never broadcast (its
 *   signature was shown to a node when estimated).
 */
import { randomUUID } from "node:crypto";
import type { Payout } from "../../model/payout.ts";
import { requireSolverState, type StoredRequest } from "../../model/storedRequest.ts";
import { StoredValueInvalidError } from "../../model/storedValue.ts";
import type { Address } from "../../model/values.ts";
import { readChainFinality } from "../../chains/chainFinality.ts";
import { depositoryAbi } from "../../../abi/Depository.ts";
import type { Repositories } from "../../store/createStore.ts";
import type { RepaymentBatch } from "../../store/solver/repaymentBatches.ts";
import { CLOCK_SKEW_SECONDS } from "../chainReads.ts";
import type { SolverContext } from "../solverContext.ts";
import { stepPayout } from "./advancePayout.ts";
import { claimDetails } from "./payoutClaims.ts";
import { planPayout } from "./payoutPlan.ts";
import { batchDue, memberRepayment, planRepaymentBatch, type BatchCandidate } from "./repaymentBatchPlan.ts";

/** Whether this process batches repayments. */
export function batchingOn(ctx: SolverContext): boolean {
  return (ctx.settings.repaymentBatch?.maxSize ?? 1) > 1;
}

/** Whether the request's repayment may join a batch: a plain deposit (a reclaimable one is repaid by its own release). */
export function batchable(request: StoredRequest): boolean {
  const state = requireSolverState(request);
  return state.deposit !== undefined && state.deposit.reclaimAt === undefined;
}

/** A request that may join a batch on (chainId, depository) now, as read under its row lock. */
function stillQueued(request: StoredRequest | null, chainId: number, depository: Address): request is StoredRequest {
  const state = request?.solver;
  if (!request || !state || request.status !== "success" || request.parked) return false;
  if (state.repaymentQueuedAt === undefined || state.repayment !== undefined || !state.deposit) return false;
  return state.deposit.reclaimAt === undefined && state.deposit.chainId === chainId && state.deposit.depository.toLowerCase() === depository.toLowerCase();
}

function candidateOf(request: StoredRequest): BatchCandidate {
  const state = requireSolverState(request);
  return { requestId: request.id, deposit: state.deposit!, originAmount: state.intent.originAmount, refundTo: state.intent.refundTo, appFees: state.intent.appFees };
}

/**
 * Queues the verified request's repayment for a batch and forms the Depository's batch when it is due.
 * Returns the request as stored after it (its repayment planned when a batch or a lone plan took it).
 */
export async function queueRepayment(ctx: SolverContext, request: StoredRequest): Promise<StoredRequest> {
  const state = requireSolverState(request);
  if (state.repaymentQueuedAt === undefined) request = await ctx.store.patchRequest(request.id, { solver: { repaymentQueuedAt: ctx.now().getTime() } });
  const formed = await formRepaymentBatch(ctx, state.deposit!.chainId, state.deposit!.depository);
  if (!formed.includes(request.id)) return request;
  return (await ctx.store.getRequest(request.id)) ?? request;
}

/**
 * Forms the Depository's batch when one is due (see the header). Returns the requests whose repayment
 * it planned (none while not due).
 */
export async function formRepaymentBatch(ctx: SolverContext, chainId: number, depository: Address): Promise<string[]> {
  const settings = ctx.settings.repaymentBatch;
  const nowMs = ctx.now().getTime();
  const nowSeconds = Math.floor(nowMs / 1000);
  // Not due as read without the lock: nothing to form (one query, not a locked transaction, per waiting step).
  if (!batchDue(await ctx.store.listQueuedRepayments(chainId, depository, settings.maxSize), settings, nowMs)) return [];
  return ctx.store.transaction(async (tx) => {
    await tx.lockRepaymentBatchForming(chainId, depository);
    const queued = await tx.listQueuedRepayments(chainId, depository, settings.maxSize);
    if (!batchDue(queued, settings, nowMs)) return [];
    const members: StoredRequest[] = [];
    for (const q of [...queued].sort((a, b) => (a.id < b.id ? -1 : 1))) {
      const locked = await tx.lockRequest(q.id);
      if (stillQueued(locked, chainId, depository)) members.push(locked);
    }
    if (members.length === 0) return [];
    if (members.length === 1) {
      const lone = members[0]!;
      const c = candidateOf(lone);
      const payout = planPayout({ kind: "repayment", requestId: lone.id, orderId: lone.orderId, deposit: c.deposit, originAmount: c.originAmount, solver: ctx.solver, refundTo: c.refundTo, appFees: c.appFees, nowSeconds });
      await tx.patchRequest(lone.id, { solver: { repayment: payout } });
      return [lone.id];
    }
    const plan = planRepaymentBatch({ chainId, depository, solver: ctx.solver, members: members.map(candidateOf), nowSeconds });
    await tx.insertRepaymentBatch({ chainId, depository, payout: plan.payout, members: plan.members });
    for (const m of plan.members) await tx.patchRequest(m.requestId, { solver: { repayment: memberRepayment(plan.payout, m) } });
    ctx.log.info({ chainId, depository, nonce: plan.payout.nonce.toString(), members: plan.members.map((m) => m.requestId) }, "repayment batch formed");
    return plan.members.map((m) => m.requestId);
  });
}

/**
 * One step of the batch that pays this request's repayment (see the header), under the batch's lease:
 * another step holding it → nothing (it writes every member's copy). Returns the request as stored after it.
 */
export async function stepRepaymentBatch(ctx: SolverContext, request: StoredRequest, options: { justFormed?: boolean } = {}): Promise<StoredRequest> {
  const nonce = requireSolverState(request).repayment!.nonce;
  const stored = await ctx.store.getRepaymentBatch(nonce);
  if (!stored) throw new StoredValueInvalidError("requests.solver_state", request.id, "repayment", `names batch ${nonce}, which is not stored`);
  if (stored.state !== "open") return (await ctx.store.getRequest(request.id)) ?? request;
  // One member follows the batch for all (its first, unless parked; or the step that just formed it):
  // the others' steps read the batch's copy it writes, and no chain read is made N times.
  const first = stored.members[0]!.requestId;
  if (!options.justFormed && request.id !== first && !(await ctx.store.getRequest(first))?.parked) return request;
  const owner = randomUUID();
  if (!(await ctx.store.claimRepaymentBatch(nonce, owner, ctx.settings.leaseMs))) return request;
  try {
    const batch = await ctx.store.getRepaymentBatch(nonce);
    if (!batch) throw new StoredValueInvalidError("requests.solver_state", request.id, "repayment", `names batch ${nonce}, which is not stored`);
    if (batch.state !== "open") return (await ctx.store.getRequest(request.id)) ?? request;
    if (await expiredUnexecuted(ctx, batch)) {
      // The solver nonce that carried it ends first (re-broadcast, mined reverted, or taken by another
      // transaction): a later transaction of the solver never waits behind a nonce nobody follows.
      const carried = batch.payout.txNonce;
      if (carried !== undefined && (await ctx.transactions.follow({ chainId: batch.chainId, txNonce: carried }, { batch: nonce.toString() })).state === "pending") {
        return request;
      }
      await dissolve(ctx, batch);
      return (await ctx.store.getRequest(request.id)) ?? request;
    }
    const save = async (next: Payout, repos?: Repositories) => {
      if (repos) await saveBatch(repos, batch, next);
      else await ctx.store.transaction((tx) => saveBatch(tx, batch, next));
    };
    await stepPayout(ctx, batch.payout, { requestId: request.id, batch: nonce.toString(), kind: "repayment" }, save);
  } finally {
    await ctx.store.releaseRepaymentBatch(nonce, owner).catch(() => {});
  }
  return (await ctx.store.getRequest(request.id)) ?? request;
}

/** The batch's payout as it advanced, and every member's copy, in the caller's transaction. */
async function saveBatch(tx: Repositories, batch: RepaymentBatch, next: Payout): Promise<void> {
  const done = next.status === "confirmed" || next.status === "reverted";
  await tx.updateRepaymentBatch(batch.nonce, next, done ? "done" : "open");
  for (const m of batch.members) {
    const copy = memberRepayment(next, m);
    const claim = copy.status === "confirmed" ? claimDetails("repayment", copy) : null;
    const details = claim ? { ...((await tx.getRequest(m.requestId))?.details ?? {}), ...claim } : undefined;
    await tx.patchRequest(m.requestId, { solver: { repayment: copy }, ...(details && { details }) });
  }
}

/**
 * Whether the batch can never land any more: not confirmed, its expiration (plus the clock skew) passed
 * by the final block's time, and its nonce not executed at that block. Only then may its members be
 * paid by another struct.
 */
async function expiredUnexecuted(ctx: SolverContext, batch: RepaymentBatch): Promise<boolean> {
  if (batch.payout.status === "confirmed") return false;
  if (Math.floor(ctx.now().getTime() / 1000) <= batch.payout.expiration + CLOCK_SKEW_SECONDS) return false;
  const client = ctx.clients.get(batch.chainId);
  const { final } = await readChainFinality(client);
  const block = await client.publicClient.getBlock({ blockNumber: final });
  if (block.timestamp <= BigInt(batch.payout.expiration)) return false;
  const executed = await client.publicClient.readContract({ address: batch.depository, abi: depositoryAbi, functionName: "executed", args: [batch.nonce], blockNumber: final });
  return !executed;
}

/** An expired, unexecuted batch: closed, and its members' copies removed (they queue again), in one transaction. */
async function dissolve(ctx: SolverContext, batch: RepaymentBatch): Promise<void> {
  await ctx.store.transaction(async (tx) => {
    const locked = await tx.lockRepaymentBatch(batch.nonce);
    if (!locked || locked.state !== "open") return;
    await tx.updateRepaymentBatch(batch.nonce, locked.payout, "dissolved");
    for (const m of batch.members) await tx.dropBatchedRepayment(m.requestId, batch.nonce);
  });
  ctx.log.warn({ chainId: batch.chainId, nonce: batch.nonce.toString(), members: batch.members.map((m) => m.requestId) }, "repayment batch expired unexecuted: its members are queued again");
}

/**
 * One unit of solver work on one request, chosen by its status: `pending` → fill, `submitted` →
 * confirm (or resend), `success` → repayment, `failure` → refund. Run only under the request's
 * lease (./startSolver.ts). Reads the request under the lease — the work list's statement that took
 * the lease read it, or the step reads it itself when that lease is no longer fresh — so a stale
 * work-list entry that another loop already moved on does nothing. A request whose origin or destination chain is halted
 * after a deep reorg (../store/solver/checkpoints.ts) is left as it is until an operator resumes the chain.
 * A fast-filled request (./fill/fastFill.ts) is filled from `pending` like any other; its repayment or
 * refund waits for the deposit, and its hold ends in ./payout/fastFillHold.ts.
 * Returns the request as the step left it and, when it now waits for a block (a fill or a payout sent
 * and not mined or not final), the chain and the head seen when the step started (./blockWait.ts): the
 * loop steps it again once that chain's head has moved past it.
 */
import type { StoredRequest } from "../model/storedRequest.ts";
import { confirmFill } from "./fill/confirmFill.ts";
import { fillPending } from "./fill/fillPending.ts";
import { refund, repay } from "./payout/repayAndRefund.ts";
import { stepFastFillHold } from "./payout/fastFillHold.ts";
import type { SolverContext } from "./solverContext.ts";
import type { Bytes32 } from "../model/values.ts";
import { blockWaitOf, type BlockWait } from "./blockWait.ts";
import type { StepRead } from "../store/solver/solverWork.ts";

export type SolverStepResult = { request: StoredRequest | null; wait: BlockWait | null };

/**
 * `listed`: what the step reads first, as the work list's statement read it under the lease it took
 * (../store/solver/solverWork.ts `claimSolverWork`) — given only while that lease is fresh, so nobody
 * else can have stepped the request since; without it the step reads the request itself.
 */
export async function solverStep(ctx: SolverContext, requestId: Bytes32, listed?: () => StepRead): Promise<SolverStepResult> {
  // The heads known before any read of the step: a block above them is the first the step has not seen.
  const seen = new Map<number, bigint>();
  for (const client of ctx.clients.all()) {
    const head = client.head.known();
    if (head) seen.set(client.config.id, head.number);
  }
  const request = await stepRequest(ctx, requestId, listed);
  return { request, wait: blockWaitOf(request, seen, Date.now()) };
}

async function stepRequest(ctx: SolverContext, requestId: Bytes32, listed?: () => StepRead): Promise<StoredRequest | null> {
  // The request and the halted chains in one read; the payout steps below take the halted chains from
  // here (`ctx.halted`) instead of reading them again.
  const read = listed ? listed() : await ctx.store.getStepRequest(requestId);
  if (!read || read.request.parked) return read?.request ?? null;
  let request = read.request;
  const halted = read.halted;
  if (halted.includes(request.originChainId) || halted.includes(request.destinationChainId)) {
    ctx.log.debug({ requestId, halted }, "request on a chain halted after a deep reorg: left for the operator");
    return request;
  }
  ctx = { ...ctx, halted, verifiedFills: new Set() };
  if (request.status === "pending") request = await fillPending(ctx, request);
  else if (request.status === "submitted") request = await confirmFill(ctx, request);
  else if (request.status === "failure" && request.refundFailReason === null) {
    const hold = await stepFastFillHold(ctx, request);
    if (hold.waits) return hold.request;
    request = await refund(ctx, hold.request);
  }
  // Continue with the repayment (or the refund) in the same step when the fill just ended — unless the
  // step parked the request (a foreign fill: never repaid, never refunded).
  if (request.parked) return request;
  // A fast fill without its credited deposit: its hold decides first (./payout/fastFillHold.ts).
  const hold = await stepFastFillHold(ctx, request);
  if (hold.waits) return hold.request;
  request = hold.request;
  if (request.status === "success") return repay(ctx, request);
  if (request.status === "failure" && request.refundFailReason === null && request.solver?.refund === undefined) return refund(ctx, request);
  return request;
}

/**
 * A request waiting for its block: a fill sent and not mined or not final (`submitted`), a repayment or
 * refund payout `sent` and not mined or not final, an attester's cancel `sent` before a refund. Nothing
 * can move such a request until the chain it waits on has a new block, so stepping it again before that
 * only reads the same answers again (its nonce's receipt, transaction and count, a lease taken and
 * given back). Before this, the work list stepped it again as soon as its step ended: ~900 RPC calls
 * and ~3,200 store queries per intent at 12 s blocks (docs/performance.md, "Cost per intent").
 *
 * - `blockWaitOf(request, seen)` (pure): after a step, the chain the request waits on and the head of
 *   that chain as known when the step *started* (`seen`, ../chains/chainHead.ts `known()`): the step's
 *   reads were made at that head or a later one, so a block above it is the first that can bring news.
 *   Null when the request has real work (a deposit to fill, a payout to plan or to sign and send), left
 *   the work list, or its chain's head was not known yet.
 * - `waitOver(wait, head, nowMs, maxMs)` (pure): the chain's head passed the block, or `maxMs` went by
 *   (a head that stopped moving, a subscription that missed a block: nothing is stranded).
 * - `createBlockWaits({maxMs, head})`: the solver loop's memory of the waits, per process. The work-list
 *   pool leaves out (`waiting()`) the requests whose wait is not over; a wait is forgotten once over or
 *   replaced by the request's next step. A new head of a chain some request waits on (`waitsOn`) wakes
 *   the loop (../chains/chainHead.ts `onNewHead`), so the block is acted on at once, not a poll later. Memory only: a restart, or another replica, steps the request
 *   once more and then waits alike.
 */
import type { StoredRequest } from "../model/storedRequest.ts";
import type { Bytes32 } from "../model/values.ts";

/** The request waits for a block of `chainId` above `aboveBlock`, since `sinceMs` (wall clock). */
export type BlockWait = { chainId: number; aboveBlock: bigint; sinceMs: number };

/** How long a wait lasts at most when the chain's head does not move (or is not seen to move). */
export const DEFAULT_BLOCK_WAIT_MAX_MS = 5_000;

/** The chain a request waits on after its step, with the head seen when the step started; null: step it again as before. */
export function blockWaitOf(request: StoredRequest | null, seen: ReadonlyMap<number, bigint>, nowMs: number): BlockWait | null {
  const chainId = request ? waitingOn(request) : null;
  if (chainId === null) return null;
  const head = seen.get(chainId);
  return head === undefined ? null : { chainId, aboveBlock: head, sinceMs: nowMs };
}

/** The chain whose next block this request waits for, or null when its next step has work to do. */
function waitingOn(request: StoredRequest): number | null {
  if (request.parked || !request.solver) return null;
  const { repayment, refund, cancel } = request.solver;
  if (request.status === "submitted") return request.destinationChainId;
  if (request.status === "success" && repayment?.status === "sent") return repayment.chainId;
  // Batched repayment (./payout/repaymentBatch.ts): queued for a batch not formed yet, or a member of a
  // batch another member's step signs and sends — nothing to do before the origin's next block.
  if (request.status === "success" && repayment === undefined && request.solver.repaymentQueuedAt !== undefined && request.solver.deposit) return request.solver.deposit.chainId;
  if (request.status === "success" && repayment?.batch && repayment.status === "prepared") return repayment.chainId;
  if (request.status === "failure" && request.refundFailReason === null) {
    if (refund?.status === "sent") return refund.chainId;
    if ((refund === undefined || refund.status === "prepared") && cancel?.status === "sent") return request.destinationChainId;
  }
  return null;
}

/** Whether the request may be stepped again: its chain's head is above the block, or the wait ran out. */
export function waitOver(wait: BlockWait, head: bigint | undefined, nowMs: number, maxMs: number): boolean {
  return (head !== undefined && head > wait.aboveBlock) || nowMs - wait.sinceMs >= maxMs;
}

export type BlockWaits = {
  /** After a step of `requestId`: its wait (null: none, any earlier one forgotten). */
  record(requestId: Bytes32, wait: BlockWait | null): void;
  /** The requests still waiting now (those whose wait is over are forgotten). */
  waiting(nowMs: number): Bytes32[];
  /** Whether a request waits for a block of `chainId` (its new head should wake the work list). */
  waitsOn(chainId: number): boolean;
};

export function createBlockWaits(options: { maxMs: number; head: (chainId: number) => bigint | undefined }): BlockWaits {
  const waits = new Map<Bytes32, BlockWait>();
  return {
    record(requestId, wait) {
      if (wait) waits.set(requestId, wait);
      else waits.delete(requestId);
    },
    waiting(nowMs) {
      const heads = new Map<number, bigint | undefined>();
      const head = (chainId: number) => {
        if (!heads.has(chainId)) heads.set(chainId, options.head(chainId));
        return heads.get(chainId);
      };
      const still: Bytes32[] = [];
      for (const [requestId, wait] of waits) {
        if (waitOver(wait, head(wait.chainId), nowMs, options.maxMs)) waits.delete(requestId);
        else still.push(requestId);
      }
      return still;
    },
    waitsOn(chainId) {
      for (const wait of waits.values()) if (wait.chainId === chainId) return true;
      return false;
    },
  };
}

// Which requests wait for a block after their step, and when that wait is over (ts/service/solver/blockWait.ts):
// pure parts and the loop's memory of the waits. The loop itself on real chains: ./waitingForABlock.test.ts.
import { expect } from "chai";
import { blockWaitOf, createBlockWaits, waitOver, type BlockWait } from "../../../ts/service/solver/blockWait.ts";
import type { Payout } from "../../../ts/service/model/payout.ts";
import type { SolverState } from "../../../ts/service/model/solverState.ts";
import type { StoredRequest } from "../../../ts/service/model/storedRequest.ts";
import type { RequestStatus } from "../../../ts/service/model/requestStatus.ts";
import { hex, addr } from "../fixtures/testRequest.ts";
import { testIntent } from "../fixtures/testIntent.ts";

const ORIGIN = 31337;
const DESTINATION = 31338;
const SEEN = new Map([
  [ORIGIN, 100n],
  [DESTINATION, 200n],
]);
const NOW = 1_000_000;

const payout = (status: Payout["status"]): Payout => ({ chainId: ORIGIN, depository: addr(0xdd), nonce: 1n, expiration: 100, calls: [], requestHash: hex(0x99), status });

function request(status: RequestStatus, solver: Partial<SolverState> = {}, overrides: Partial<StoredRequest> = {}): StoredRequest {
  return {
    id: hex(1),
    orderId: hex(2),
    status,
    user: addr(0xaa),
    recipient: addr(0xbb),
    originChainId: ORIGIN,
    destinationChainId: DESTINATION,
    inTxHashes: [],
    txHashes: [],
    failReason: null,
    refundFailReason: null,
    data: {},
    details: null,
    solver: { intent: testIntent(1), ...solver },
    parked: null,
    referrer: null,
    apiKeyId: null,
    originBlock: null,
    createdAt: "2026-11-28T00:00:00.000Z",
    updatedAt: "2026-11-28T00:00:00.000Z",
    ...overrides,
  };
}

describe("solver blockWait", () => {
  it("blockWaitOf_aSentFillOrPayout_waitsOnItsChainAboveTheHeadSeenAtTheStepsStart", () => {
    const on = (chainId: number, aboveBlock: bigint): BlockWait => ({ chainId, aboveBlock, sinceMs: NOW });
    expect(blockWaitOf(request("submitted"), SEEN, NOW)).to.deep.equal(on(DESTINATION, 200n));
    expect(blockWaitOf(request("success", { repayment: payout("sent") }), SEEN, NOW)).to.deep.equal(on(ORIGIN, 100n));
    expect(blockWaitOf(request("failure", { refund: payout("sent") }), SEEN, NOW)).to.deep.equal(on(ORIGIN, 100n));
    // The attester's cancel before a refund is mined on the destination.
    const cancel = { hash: hex(5), status: "sent" as const };
    expect(blockWaitOf(request("failure", { cancel }), SEEN, NOW)).to.deep.equal(on(DESTINATION, 200n));
    expect(blockWaitOf(request("failure", { cancel, refund: payout("prepared") }), SEEN, NOW)).to.deep.equal(on(DESTINATION, 200n));
  });

  it("blockWaitOf_batchedRepayment_queuedOrSentByAnotherMember_waitsOnTheOrigin", () => {
    const on = (chainId: number, aboveBlock: bigint): BlockWait => ({ chainId, aboveBlock, sinceMs: NOW });
    const deposit = { chainId: ORIGIN, depository: addr(0xdd), txHash: hex(7), logIndex: 0, block: 1, blockTimestamp: 1, depositor: addr(0xaa), token: addr(0), amount: 1n };
    // Queued for a batch not formed yet.
    expect(blockWaitOf(request("success", { deposit, repaymentQueuedAt: NOW }), SEEN, NOW)).to.deep.equal(on(ORIGIN, 100n));
    // A member of a batch another member's step signs and sends.
    const member = { ...payout("prepared"), batch: { calls: [1], credits: [] } };
    expect(blockWaitOf(request("success", { deposit, repayment: member }), SEEN, NOW)).to.deep.equal(on(ORIGIN, 100n));
    // A lone repayment planned from the queue has work to do at once.
    expect(blockWaitOf(request("success", { deposit, repaymentQueuedAt: NOW, repayment: payout("prepared") }), SEEN, NOW)).to.equal(null);
  });

  it("blockWaitOf_realWorkOrNothingLeft_noWait", () => {
    // Work to do now: a deposit to fill, a payout to plan or to sign and send, a cancel to send.
    expect(blockWaitOf(request("pending"), SEEN, NOW)).to.equal(null);
    expect(blockWaitOf(request("success"), SEEN, NOW)).to.equal(null);
    expect(blockWaitOf(request("success", { repayment: payout("prepared") }), SEEN, NOW)).to.equal(null);
    expect(blockWaitOf(request("failure"), SEEN, NOW)).to.equal(null);
    expect(blockWaitOf(request("failure", { refund: payout("prepared") }), SEEN, NOW)).to.equal(null);
    expect(blockWaitOf(request("failure", { cancel: { hash: hex(5), status: "confirmed" } }), SEEN, NOW)).to.equal(null);
    // Out of the work list: done, parked, a refund that cannot be made, gone.
    expect(blockWaitOf(request("success", { repayment: payout("confirmed") }), SEEN, NOW)).to.equal(null);
    expect(blockWaitOf(request("refund", { refund: payout("confirmed") }), SEEN, NOW)).to.equal(null);
    expect(blockWaitOf(request("submitted", {}, { parked: { code: "X", message: "x", at: "2026-11-28T00:00:00.000Z" } }), SEEN, NOW)).to.equal(null);
    expect(blockWaitOf(request("failure", { refund: payout("sent") }, { refundFailReason: "AMOUNT_TOO_LOW_TO_REFUND" }), SEEN, NOW)).to.equal(null);
    expect(blockWaitOf(null, SEEN, NOW)).to.equal(null);
    // No head known for the chain when the step started: nothing to compare with, stepped again as before.
    expect(blockWaitOf(request("submitted"), new Map([[ORIGIN, 100n]]), NOW)).to.equal(null);
  });

  it("waitOver_whenTheHeadPassesTheBlock_orTheMaximumWentBy", () => {
    const wait: BlockWait = { chainId: DESTINATION, aboveBlock: 200n, sinceMs: NOW };
    expect(waitOver(wait, 200n, NOW + 100, 5_000)).to.equal(false);
    expect(waitOver(wait, 199n, NOW + 100, 5_000)).to.equal(false);
    expect(waitOver(wait, undefined, NOW + 100, 5_000)).to.equal(false);
    expect(waitOver(wait, 201n, NOW + 100, 5_000)).to.equal(true);
    expect(waitOver(wait, 200n, NOW + 5_000, 5_000)).to.equal(true);
    expect(waitOver(wait, undefined, NOW + 5_000, 5_000)).to.equal(true);
  });

  it("createBlockWaits_leavesOutTheWaitingUntilTheirChainMoves_andForgetsTheOver", () => {
    const heads = new Map([
      [ORIGIN, 100n],
      [DESTINATION, 200n],
    ]);
    const waits = createBlockWaits({ maxMs: 5_000, head: (chainId) => heads.get(chainId) });
    waits.record(hex(1), { chainId: DESTINATION, aboveBlock: 200n, sinceMs: NOW });
    waits.record(hex(2), { chainId: ORIGIN, aboveBlock: 100n, sinceMs: NOW });
    waits.record(hex(3), { chainId: ORIGIN, aboveBlock: 100n, sinceMs: NOW - 5_000 });
    expect(waits.waiting(NOW)).to.deep.equal([hex(1), hex(2)]);
    expect([waits.waitsOn(ORIGIN), waits.waitsOn(DESTINATION), waits.waitsOn(1)]).to.deep.equal([true, true, false]);
    heads.set(DESTINATION, 201n);
    expect(waits.waiting(NOW)).to.deep.equal([hex(2)]);
    expect(waits.waitsOn(DESTINATION), "its wait is over").to.equal(false);
    // The next step has real work (no wait): forgotten at once.
    waits.record(hex(2), null);
    expect(waits.waiting(NOW)).to.deep.equal([]);
    // Over is over: a head seen lower again (another node behind) does not bring a forgotten wait back.
    heads.set(DESTINATION, 150n);
    expect(waits.waiting(NOW)).to.deep.equal([]);
  });
});

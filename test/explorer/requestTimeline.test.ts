/** requestTimeline: a request's lifecycle and transactions from its public records (pure). */
import { expect } from "chai";
import type { RequestRecord, StatusRecord } from "../../ts/client/apiTypes.ts";
import { statusRecord } from "./statusRecordFixture.ts";
import { requestTimeline, requestTransactions } from "../../ts/explorer/requestTimeline.ts";

const h = (byte: string) => `0x${byte.repeat(32)}`;
const status = statusRecord;
const record = (data: RequestRecord["data"]): RequestRecord => ({
  id: h("11"),
  status: "success",
  user: "0x01",
  recipient: "0x02",
  depositAddress: null,
  data,
  createdAt: "2026-01-01T00:00:00.000Z",
  updatedAt: "2026-01-01T00:00:01.000Z",
});
const states = (facts: Parameters<typeof requestTimeline>[0]) => requestTimeline(facts).map((step) => `${step.id}:${step.state}`);

describe("explorer: requestTimeline", () => {
  it("waiting: quoted, the deposit awaited, nothing after", () => {
    expect(states({ status: status({}) })).to.deep.equal(["quoted:done", "deposit:current", "fill:not reached", "outcome:not reached"]);
    expect(requestTransactions({ status: status({}) })).to.deep.equal([]);
  });

  it("waiting with a deposit hash: sent, not credited until final", () => {
    const facts = { status: status({ inTxHashes: [h("aa")] }) };
    expect(states(facts)).to.deep.equal(["quoted:done", "deposit:current", "fill:not reached", "outcome:not reached"]);
    expect(requestTimeline(facts)[1]!.note).to.include("waiting for its confirmations");
    expect(requestTransactions(facts).map((tx) => tx.role)).to.deep.equal(["deposit"]);
  });

  it("pending and submitted: the deposit done, the fill under way", () => {
    expect(states({ status: status({ status: "pending", inTxHashes: [h("aa")] }) })).to.deep.equal(["quoted:done", "deposit:done", "fill:current", "outcome:not reached"]);
    expect(states({ status: status({ status: "submitted", inTxHashes: [h("aa")], txHashes: [h("bb")] }) })).to.deep.equal(["quoted:done", "deposit:done", "fill:current", "outcome:not reached"]);
  });

  it("success: every step done; deposit, fill and the receipt's repayment, each once, lowercased", () => {
    const facts = {
      status: status({ status: "success", inTxHashes: [h("AA")], txHashes: [h("bb")] }),
      request: record({ inTxs: [{ hash: h("aa"), chainId: 1, block: 7 }], outTxs: [{ hash: h("bb"), chainId: 2, block: 9 }] }),
      receipt: { repayment: { chainId: 1, txHash: h("cc"), blockNumber: 8 } },
    };
    expect(states(facts)).to.deep.equal(["quoted:done", "deposit:done", "fill:done", "outcome:done"]);
    expect(requestTransactions(facts)).to.deep.equal([
      { role: "deposit", chainId: 1, hash: h("aa"), block: 7 },
      { role: "fill", chainId: 2, hash: h("bb"), block: 9 },
      { role: "repayment", chainId: 1, hash: h("cc"), block: 8 },
    ]);
  });

  it("refund: the fill failed with its reason; txHashes hold the refund payout, on the origin chain", () => {
    const facts = { status: status({ status: "refund", failReason: "ORDER_EXPIRED", inTxHashes: [h("aa")], txHashes: [h("dd")] }) };
    expect(states(facts)).to.deep.equal(["quoted:done", "deposit:done", "fill:failed", "outcome:done"]);
    expect(requestTimeline(facts)[2]!.note).to.equal("Not filled: ORDER_EXPIRED.");
    expect(requestTransactions(facts)).to.deep.equal([
      { role: "deposit", chainId: 1, hash: h("aa") },
      { role: "refund", chainId: 1, hash: h("dd") },
    ]);
  });

  it("reclaimable: the deposit says from when it can be reclaimed; a refund by the depositor's reclaim says so", () => {
    const credited = { status: status({ status: "pending", inTxHashes: [h("aa")] }), request: { ...record({}), status: "pending", reclaimAt: 1_800_000_000 } };
    expect(requestTimeline(credited)[1]!.note).to.include("Reclaimable by its depositor from 2027-01-15T08:00:00.000Z");
    expect(requestTimeline({ status: status({ status: "pending", inTxHashes: [h("aa")] }), request: record({}) })[1]!.note).to.not.include("Reclaimable");
    const reclaimed = { status: status({ status: "refund", failReason: "ORDER_EXPIRED", inTxHashes: [h("aa")], txHashes: [h("ee")], details: { reclaimedBy: "0x0a", reclaimTxHash: h("ee") } }) };
    expect(requestTimeline(reclaimed)[3]!.note).to.equal("The depositor 0x0a reclaimed the deposit on chain 1 (final).");
  });

  it("a fill that reverted onchain is listed as the failed fill, not as the fill", () => {
    const facts = {
      status: status({ status: "refund", failReason: "TRANSACTION_REVERTED", inTxHashes: [h("aa")], txHashes: [h("ee"), h("dd")] }),
      request: record({ failedTxHash: h("ee"), failedTxBlockNumber: 12 }),
    };
    expect(requestTransactions(facts).map((tx) => `${tx.role}:${tx.hash.slice(0, 4)}`)).to.deep.equal(["deposit:0xaa", "failed fill:0xee", "refund:0xdd"]);
    expect(states(facts)[2]).to.equal("fill:failed");
  });

  it("failure: the outcome failed, with the refund's failure when there is one", () => {
    const held = requestTimeline({ status: status({ status: "failure", failReason: "ORDER_ALREADY_FILLED", inTxHashes: [h("aa")] }) });
    expect(held.map((step) => step.state)).to.deep.equal(["done", "done", "failed", "failed"]);
    expect(held[3]!.note).to.include("an operator must look");
    const tooSmall = requestTimeline({ status: status({ status: "failure", failReason: "ORDER_EXPIRED", refundFailReason: "AMOUNT_TOO_LOW_TO_REFUND", inTxHashes: [h("aa")] }) });
    expect(tooSmall[3]!.note).to.equal("No refund: AMOUNT_TOO_LOW_TO_REFUND.");
  });
});

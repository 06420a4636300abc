/** explainFailure: a request's record in plain language (pure; the MCP tool's end to end is ../cli/mcp.test.ts). */
import { readdirSync, readFileSync } from "node:fs";
import { expect } from "chai";
import { FAIL_REASON_BY_ERROR } from "../../ts/service/transactions/revertReason.ts";
import { explainFailure, FAIL_REASONS } from "../../ts/client/explainFailure.ts";

const ID = `0x${"ab".repeat(32)}`;

describe("explainFailure", () => {
  it("refund: what failed, that the deposit came back (with its transactions), what to do", () => {
    const explained = explainFailure({ requestId: ID, status: "refund", failReason: "SLIPPAGE", refundFailReason: "N/A", details: { reason: "PRICE_MOVED" }, inTxHashes: ["0x01", "0x02"] });
    expect(explained).to.include({ failed: true, failReason: "SLIPPAGE", refundFailReason: null });
    expect(explained.explanation).to.equal(`The request failed: ${FAIL_REASONS.SLIPPAGE!.meaning} (SLIPPAGE). The deposit was refunded on the origin chain. Origin transactions: 0x01, 0x02.`);
    expect(explained.whatToDo).to.match(/slippageTolerance/);
    expect(explained.details).to.deep.equal({ reason: "PRICE_MOVED" });
  });

  it("failure with a refundFailReason: why nothing came back", () => {
    const explained = explainFailure({ requestId: ID, status: "failure", failReason: "ORDER_EXPIRED", refundFailReason: "AMOUNT_TOO_LOW_TO_REFUND" });
    expect(explained.explanation).to.include("The deposit was not refunded: the deposit is too small to pay for its own refund").and.include("(AMOUNT_TOO_LOW_TO_REFUND)");
    expect(explained.whatToDo).to.match(/new quote/);
  });

  it("failure without a refund reason: held for the operator, with the requestId to quote", () => {
    const explained = explainFailure({ requestId: ID, status: "failure", failReason: "ORDER_ALREADY_FILLED" });
    expect(explained.explanation).to.include("held for the operator");
    expect(explained.whatToDo).to.include(`Contact the operator with the requestId ${ID}`);
  });

  it("a reason it does not know is reported as recorded, never guessed; UNKNOWN and N/A", () => {
    expect(explainFailure({ requestId: ID, status: "refund", failReason: "FLUID_DEX_ERROR" }).explanation).to.include("the service recorded FLUID_DEX_ERROR");
    expect(explainFailure({ requestId: ID, status: "failure", failReason: "N/A" }).explanation).to.include(FAIL_REASONS.UNKNOWN!.meaning);
  });

  it("a request that did not fail is said to be in flight or done", () => {
    expect(explainFailure({ requestId: ID, status: "pending", failReason: "N/A" })).to.include({ failed: false, failReason: null });
    expect(explainFailure({ requestId: ID, status: "success", txHashes: ["0x03"] }).explanation).to.equal("The request succeeded: the recipient was paid on the destination chain. Fill: 0x03.");
  });

  it("explains every failReason the solver records (read from ts/service/solver and its rooms, so a new one fails here)", () => {
    const dir = new URL("../../ts/service/solver/", import.meta.url);
    const written = readdirSync(dir, { recursive: true, encoding: "utf8" })
      .filter((file) => file.endsWith(".ts"))
      .flatMap((file) => [...readFileSync(new URL(file, dir), "utf8").matchAll(/failReason: "([A-Z_]+)"/g)].map((match) => match[1]!));
    const reasons = new Set([...written, ...Object.values(FAIL_REASON_BY_ERROR)]);
    expect(reasons.size).to.be.greaterThan(15);
    expect([...reasons].filter((reason) => !Object.hasOwn(FAIL_REASONS, reason))).to.deep.equal([]);
  });
});

/** solverDecision: what the solver decided about a request and why, from its status record (pure). */
import { expect } from "chai";
import type { StatusRecord } from "../../ts/client/apiTypes.ts";
import { statusRecord } from "./statusRecordFixture.ts";
import { solverDecision } from "../../ts/explorer/solverDecision.ts";

const status = statusRecord;
const decision = (fields: Partial<StatusRecord>) => solverDecision(status(fields)).decision;

describe("explorer: solverDecision", () => {
  it("waiting: for the deposit, or — with its hash — for its confirmations", () => {
    expect(decision({})).to.equal("waiting for the deposit");
    const sent = solverDecision(status({ inTxHashes: ["0xaa"] }));
    expect(sent.decision).to.equal("waiting for confirmations");
    expect(sent.reason).to.include("0xaa").and.include("chain 1");
  });

  it("an open request on a chain with an incident is held, whatever its step", () => {
    for (const step of ["waiting", "pending", "submitted"]) {
      const held = solverDecision(status({ status: step, details: { chainIncident: { chainId: 2, incident: "halted" } } }));
      expect(held.decision, step).to.equal("held: chain incident");
      expect(held.reason).to.include("chain 2").and.include("halted");
    }
    expect(decision({ status: "success", details: { chainIncident: { chainId: 2, incident: "halted" } } })).to.equal("filled");
  });

  it("pending, submitted, success", () => {
    expect(decision({ status: "pending" })).to.equal("filling");
    expect(decision({ status: "submitted" })).to.equal("waiting for the fill's confirmation");
    expect(decision({ status: "success" })).to.equal("filled");
  });

  it("refund: refused with its reason; failure: parked, or the refund impossible with why", () => {
    const refused = solverDecision(status({ status: "refund", failReason: "SLIPPAGE" }));
    expect(refused).to.deep.equal({ decision: "refused and refunded", reason: "refused with SLIPPAGE; the deposit went back on chain 1" });
    expect(solverDecision(status({ status: "failure", failReason: "ORDER_ALREADY_FILLED" }))).to.include({ decision: "parked for an operator" });
    expect(solverDecision(status({ status: "failure", failReason: "ORDER_EXPIRED", refundFailReason: "AMOUNT_TOO_LOW_TO_REFUND" })).reason).to.equal(
      "stopped with ORDER_EXPIRED; no refund: AMOUNT_TOO_LOW_TO_REFUND",
    );
    expect(decision({ status: "fallback" })).to.equal("unknown");
  });
});

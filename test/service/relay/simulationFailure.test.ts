import { expect } from "chai";
import type { Hex } from "viem";
import { simulationFailure } from "../../../ts/service/relay/simulationFailure.ts";
import { ACCOUNT, failingTransferTrace, names, TOKEN, transfer } from "../fixtures/failingTrace.ts";

describe("relay/simulationFailure", () => {
  it("builds the spec's body: frames named, the innermost revert decoded, error = the failReason", () => {
    const top = failingTransferTrace(ACCOUNT, { revertReason: "x" });
    const body = simulationFailure({ requestId: "0xab", trace: top, call: { to: ACCOUNT, data: "0x12345678" }, revertData: undefined, names });
    expect(body.error).to.equal("TRANSFER_AMOUNT_EXCEEDS_BALANCE");
    expect(body.requestId).to.equal("0xab");
    expect(body.details.topLevel).to.deep.equal({ type: "CALL", address: ACCOUNT, selector: "0x12345678", error: "execution reverted", gasUsed: "21000" });
    expect(body.details.innermost).to.deep.include({ address: TOKEN, contract: "stablecoin", function: "transfer", selector: transfer.slice(0, 10), revertReason: "x" });
    expect(body.details.path).to.have.length(2);
    expect(body.details.revert).to.deep.include({ type: "customError", name: "ERC20InsufficientBalance" });
    expect(body.message).to.contain("stablecoin.transfer");
  });

  it("labels an unknown custom error UNKNOWN_CUSTOM_ERROR_<selector> with rawArgsHex; no trace → the top-level frame only, from the call", () => {
    const data = "0xdeadbeef000000000000000000000000000000000000000000000000000000000000002a" as Hex;
    const body = simulationFailure({ requestId: "0x01", trace: undefined, call: { to: TOKEN, data: transfer }, revertData: data, names });
    expect(body.error).to.equal("UNKNOWN_CUSTOM_ERROR_0xdeadbeef");
    expect(body.details.revert.rawArgsHex).to.equal(`0x${data.slice(10)}`);
    expect(body.details.topLevel).to.deep.equal({ type: "CALL", address: TOKEN, contract: "stablecoin", function: "transfer", selector: transfer.slice(0, 10) });
    expect(body.details).to.not.have.any.keys("innermost", "path");
    expect(body.message).to.contain("stablecoin.transfer");
  });

  it("an empty revert is `empty`", () => {
    const body = simulationFailure({ requestId: "0x01", trace: { type: "CALL", to: TOKEN, input: "0x", error: "execution reverted" }, call: { to: TOKEN, data: "0x" }, revertData: undefined, names });
    expect(body.details.revert.type).to.equal("empty");
    expect(body.error).to.equal("EMPTY_REVERT");
  });
});

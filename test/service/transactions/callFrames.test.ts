import { expect } from "chai";
import { failingPath, failureFrames, frameNames, type TracedFrame } from "../../../ts/service/transactions/callFrames.ts";
import { ACCOUNT, failingTransferTrace, insufficientBalance, names, TOKEN, transfer } from "../fixtures/failingTrace.ts";

const RECEIVER = "0x3333333333333333333333333333333333333333";

describe("transactions/callFrames", () => {
  it("follows the last failing child down to the innermost frame", () => {
    const inner: TracedFrame = { type: "CALL", to: TOKEN, input: transfer, output: insufficientBalance, error: "execution reverted" };
    const top: TracedFrame = { type: "CALL", to: ACCOUNT, input: "0x12345678", error: "execution reverted", calls: [{ type: "STATICCALL", to: TOKEN, input: "0x70a08231" }, inner] };
    expect(failingPath(top)).to.deep.equal([top, inner]);
  });

  it("with a trace: topLevel, innermost and path named, the innermost revert decoded", () => {
    const top = failingTransferTrace(ACCOUNT.toUpperCase().replace("0X", "0x"));
    const frames = failureFrames({ trace: top, call: { to: ACCOUNT, data: "0x12345678" }, revertData: "0xdeadbeef", names });
    expect(frames.topLevel).to.deep.equal({ type: "CALL", address: ACCOUNT, selector: "0x12345678", error: "execution reverted", gasUsed: "21000" });
    expect(frames.innermost).to.deep.include({ address: TOKEN, contract: "stablecoin", function: "transfer" });
    expect(frames.path).to.deep.equal([frames.topLevel, frames.innermost]);
    // The innermost frame's output wins over the top-level data.
    expect(frames.revert).to.deep.include({ type: "customError", name: "ERC20InsufficientBalance" });
  });

  it("without a trace: the top-level frame only, from the call, and the top-level revert data", () => {
    const frames = failureFrames({ trace: undefined, call: { to: TOKEN, data: transfer }, revertData: insufficientBalance, names });
    expect(frames.topLevel).to.deep.equal({ type: "CALL", address: TOKEN, contract: "stablecoin", function: "transfer", selector: transfer.slice(0, 10) });
    expect(frames).to.not.have.any.keys("innermost", "path");
    expect(frames.revert).to.deep.include({ type: "customError", name: "ERC20InsufficientBalance" });
  });

  it("names Ferry's contracts of a chain by their configured names, addresses lowercase", () => {
    const named = frameNames({ contracts: { attestedReceiver: RECEIVER.toUpperCase().replace("0X", "0x") } as never });
    expect(named.contracts.get(RECEIVER)).to.equal("attestedReceiver");
  });
});

/** ts/service/transactions/callRevert.ts and revertReason's CallReverted: every revert shape of the spec. */
import { expect } from "chai";
import { encodeErrorResult, getAddress, parseAbi, type Hex } from "viem";
import { multicallerAbi } from "../../../ts/abi/Multicaller.ts";
import { decodeCallRevert } from "../../../ts/service/transactions/callRevert.ts";
import { decodeRevert } from "../../../ts/service/transactions/revertReason.ts";

const ERRORS = parseAbi([
  "error Error(string message)",
  "error Panic(uint256 code)",
  "error ERC4626ExceededMaxDeposit(address receiver, uint256 assets, uint256 max)",
  "error Unknown(uint256 a)",
]);
const RECEIVER = "0x00000000000000000000000000000000000000aa";

describe("callRevert", () => {
  it("errorString_panic_customError_unknownCustomError_empty", () => {
    expect(decodeCallRevert(encodeErrorResult({ abi: ERRORS, errorName: "Error", args: ["vault: paused"] }))).to.deep.equal({
      type: "errorString",
      label: "vault: paused",
      message: "vault: paused",
      selector: "0x08c379a0",
    });
    expect(decodeCallRevert(encodeErrorResult({ abi: ERRORS, errorName: "Panic", args: [0x11n] }))).to.deep.include({
      type: "panic",
      label: "PANIC_0x11",
      message: "arithmetic overflow or underflow",
    });
    const custom = decodeCallRevert(encodeErrorResult({ abi: ERRORS, errorName: "ERC4626ExceededMaxDeposit", args: [RECEIVER, 5n, 4n] }));
    expect(custom).to.deep.include({ type: "customError", name: "ERC4626ExceededMaxDeposit", label: "ERC4626ExceededMaxDeposit" });
    expect(custom.args).to.deep.equal({ receiver: getAddress(RECEIVER), assets: "5", max: "4" });
    const unknown = encodeErrorResult({ abi: ERRORS, errorName: "Unknown", args: [7n] });
    expect(decodeCallRevert(unknown)).to.deep.include({
      type: "unknownCustomError",
      label: `UNKNOWN_CUSTOM_ERROR_${unknown.slice(0, 10)}`,
      rawArgsHex: `0x${unknown.slice(10)}`,
    });
    expect(decodeCallRevert("0x")).to.deep.include({ type: "empty" });
    expect(decodeCallRevert(null)).to.deep.include({ type: "empty" });
  });

  it("decodeRevert_CallReverted_isExecutionReverted_withTheCallsIndexAndRevert", () => {
    const inner = encodeErrorResult({ abi: ERRORS, errorName: "Error", args: ["nope"] });
    const data = encodeErrorResult({ abi: multicallerAbi, errorName: "CallReverted", args: [3n, inner] }) as Hex;
    const decoded = decodeRevert(data);
    expect(decoded).to.deep.include({ failReason: "EXECUTION_REVERTED", errorName: "CallReverted" });
    expect(decoded.details).to.deep.equal({ callIndex: 3, revert: { type: "errorString", label: "nope", message: "nope", selector: "0x08c379a0" } });
  });
});

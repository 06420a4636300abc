// The pure parts of ts/service/quote/callOutputs.ts: which calldata counts as ABI-shaped (its outputs
// can be looked for in its words) and which addresses the calls name.
import { expect } from "chai";
import { encodeFunctionData, encodePacked, erc20Abi, type Hex } from "viem";
import { callTokenCandidates, unlistableCall } from "../../../ts/service/quote/callOutputs.ts";
import { canonicalAddress, canonicalHex } from "../../../ts/service/model/values.ts";

const TOKEN = canonicalAddress("0x1111111111111111111111111111111111111111");
const ROUTER = canonicalAddress("0x2222222222222222222222222222222222222222");
const approve = canonicalHex(encodeFunctionData({ abi: erc20Abi, functionName: "approve", args: [ROUTER, 5n] }));
const call = (data: Hex) => ({ to: ROUTER, data: canonicalHex(data) });

describe("callOutputs", () => {
  it("unlistableCall_acceptsEmptyAndAbiShapedCalldata", () => {
    expect(unlistableCall([call("0x"), call(approve), call("0x12345678")])).to.equal(-1);
  });

  it("unlistableCall_namesTheFirstPackedCall", () => {
    const packed = encodePacked(["address", "bool", "uint128"], [TOKEN, true, 30n]); // 37 bytes
    expect(unlistableCall([call(approve), call(packed), call("0x01")])).to.equal(1);
    expect(unlistableCall([call("0x010203")])).to.equal(0); // shorter than a selector
    expect(unlistableCall([call(`${approve}00`)])).to.equal(0); // one byte past a whole word
  });

  it("callTokenCandidates_listsTargetsAndAddressWords", () => {
    expect(callTokenCandidates([{ to: TOKEN, data: approve }], [])).to.deep.equal([TOKEN, ROUTER]);
    expect(callTokenCandidates([{ to: TOKEN, data: approve }], [TOKEN])).to.deep.equal([ROUTER]);
  });
});

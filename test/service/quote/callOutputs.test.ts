// The pure parts of ts/service/quote/callOutputs.ts: which calldata counts as ABI-shaped (its outputs
// can be looked for in its words) and which addresses the calls name.
import { expect } from "chai";
import { encodeFunctionData, encodePacked, erc20Abi, type Hex } from "viem";
import { callTokenCandidates, MAX_SWEEP_TOKENS, tokensTransferredTo, traceCallOutputs, TRANSFER_TOPIC, unlistableCall, withTracedOutputs, type CallFrame } from "../../../ts/service/quote/callOutputs.ts";
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

describe("callOutputs: traced transfers", () => {
  const MULTICALLER = "0x3333333333333333333333333333333333333333" as const;
  const OTHER = "0x4444444444444444444444444444444444444444";
  const WETH = "0x5555555555555555555555555555555555555555";
  const SHARES = "0x6666666666666666666666666666666666666666";
  const word = (address: string) => `0x${"0".repeat(24)}${address.slice(2)}`;
  const transfer = (token: string, from: string, to: string) => ({ address: token, topics: [TRANSFER_TOPIC, word(from), word(to)], data: `0x${"0".repeat(63)}1` });

  it("tokensTransferredTo_collectsErc20TransfersToTheHolderInNestedFrames", () => {
    const trace: CallFrame = {
      logs: [transfer(TOKEN, ROUTER, MULTICALLER)],
      calls: [
        { calls: [{ logs: [transfer(WETH, OTHER, MULTICALLER.toUpperCase().replace("0X", "0x")), transfer(TOKEN, OTHER, MULTICALLER)] }] },
        { logs: [transfer(SHARES, MULTICALLER, OTHER)] }, // from the Multicaller: not an output
      ],
    };
    expect(tokensTransferredTo(trace, MULTICALLER)).to.deep.equal([TOKEN, WETH]);
  });

  it("tokensTransferredTo_ignoresRevertedFramesNftTransfersAndOtherEvents", () => {
    const nft = { address: SHARES, topics: [TRANSFER_TOPIC, word(OTHER), word(MULTICALLER), word("0x0000000000000000000000000000000000000007")] };
    const approval = { address: OTHER, topics: ["0x8c5be1e5ebec7d5bd14f71427d1e84f3dd0314c0f7b2291e5b200ac8c7c3b925", word(OTHER), word(MULTICALLER)] };
    const trace: CallFrame = { logs: [nft, approval], calls: [{ error: "execution reverted", logs: [transfer(WETH, OTHER, MULTICALLER)] }] };
    expect(tokensTransferredTo(trace, MULTICALLER)).to.deep.equal([]);
  });

  it("withTracedOutputs_appendsNewTokensAndRefusesPastTheCap", () => {
    expect(withTracedOutputs([TOKEN], [TOKEN, WETH, WETH])).to.deep.equal([TOKEN, WETH]);
    const many = Array.from({ length: MAX_SWEEP_TOKENS }, (_, i) => canonicalAddress(`0x${(i + 1).toString(16).padStart(40, "0")}`));
    expect(withTracedOutputs([TOKEN], many.slice(0, MAX_SWEEP_TOKENS - 1))).to.have.length(MAX_SWEEP_TOKENS);
    expect(() => withTracedOutputs([TOKEN], many)).to.throw().with.property("code", "INVALID_REQUEST");
  });

  it("traceCallOutputs_fallsBackWhenTheNodeCannotTraceOrTheFillReverts", async () => {
    const tx = { to: ROUTER, data: approve, value: 0n } as const;
    const args = { from: OTHER, tx, multicaller: MULTICALLER } as const;
    const notFound = Object.assign(new Error("Method not found"), { code: -32601 });
    expect(await traceCallOutputs({ request: () => Promise.reject(notFound) }, args)).to.equal("unsupported");
    expect(await traceCallOutputs({ request: () => Promise.resolve({ error: "execution reverted", logs: [transfer(WETH, OTHER, MULTICALLER)] }) }, args)).to.equal("reverted");
    let sent: unknown;
    const traced = await traceCallOutputs({ request: (req) => ((sent = req), Promise.resolve({ calls: [{ logs: [transfer(WETH, OTHER, MULTICALLER)] }] })) }, args);
    expect(traced).to.deep.equal([WETH]);
    expect(sent).to.deep.include({ method: "debug_traceCall" });
    expect((sent as { params: unknown[] }).params[2]).to.deep.equal({ tracer: "callTracer", tracerConfig: { withLog: true } });
    const down = Object.assign(new Error("connection refused"), { code: -32603 });
    await traceCallOutputs({ request: () => Promise.reject(down) }, args).then(
      () => expect.fail("a node that is down is not a node without the tracer"),
      (error: Error) => expect(error).to.equal(down),
    );
  });
});

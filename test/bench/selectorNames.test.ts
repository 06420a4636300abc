import { expect } from "chai";
import { nameSelector } from "../../scripts/bench/selectorNames.ts";

describe("bench: contract calls named by selector", () => {
  it("namesFerrysAndErc20Functions_andLeavesAnUnknownSelectorAsItIs", () => {
    expect(nameSelector("eth_call 0x70a08231")).to.equal("eth_call balanceOf");
    expect(nameSelector("eth_call 0x3a693a81")).to.equal("eth_call filledDigest");
    expect(nameSelector("eth_call 0xd3ecebd7")).to.equal("eth_call executed");
    expect(nameSelector("eth_estimateGas 0xdeadbeef")).to.equal("eth_estimateGas 0xdeadbeef");
    expect(nameSelector("eth_call (no selector)")).to.equal("eth_call (no selector)");
  });
});

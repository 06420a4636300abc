import { expect } from "chai";
import { DevnetNodeError, parseDevnetNode } from "../../ts/devnet/devnetNode.ts";
import { anvilBinary } from "../../ts/devnet/anvilNode.ts";
import { execFileSync } from "node:child_process";

describe("devnet node (FERRY_DEVNET_NODE, FERRY_DEVNET_BLOCK_TIME)", () => {
  it("defaults to EDR mining a block per transaction", () => {
    expect(parseDevnetNode({})).to.deep.equal({ kind: "edr" });
    expect(parseDevnetNode({ FERRY_DEVNET_NODE: "", FERRY_DEVNET_BLOCK_TIME: "" })).to.deep.equal({ kind: "edr" });
  });

  it("takes anvil and a block time in whole seconds from 1 to 60", () => {
    expect(parseDevnetNode({ FERRY_DEVNET_NODE: "anvil" })).to.deep.equal({ kind: "anvil" });
    expect(parseDevnetNode({ FERRY_DEVNET_NODE: "anvil", FERRY_DEVNET_BLOCK_TIME: "2" })).to.deep.equal({ kind: "anvil", blockTimeSeconds: 2 });
    expect(parseDevnetNode({ FERRY_DEVNET_BLOCK_TIME: "60" })).to.deep.equal({ kind: "edr", blockTimeSeconds: 60 });
  });

  for (const [env, names] of [
    [{ FERRY_DEVNET_NODE: "geth" }, "FERRY_DEVNET_NODE"],
    [{ FERRY_DEVNET_NODE: "Anvil" }, "FERRY_DEVNET_NODE"],
    [{ FERRY_DEVNET_BLOCK_TIME: "0" }, "FERRY_DEVNET_BLOCK_TIME"],
    [{ FERRY_DEVNET_BLOCK_TIME: "61" }, "FERRY_DEVNET_BLOCK_TIME"],
    [{ FERRY_DEVNET_BLOCK_TIME: "1.5" }, "FERRY_DEVNET_BLOCK_TIME"],
    [{ FERRY_DEVNET_BLOCK_TIME: "-1" }, "FERRY_DEVNET_BLOCK_TIME"],
    [{ FERRY_DEVNET_BLOCK_TIME: "2s" }, "FERRY_DEVNET_BLOCK_TIME"],
  ] as const) {
    it(`refuses ${JSON.stringify(env)} naming ${names}`, () => {
      expect(() => parseDevnetNode(env)).to.throw(DevnetNodeError, names);
    });
  }

  it("finds this platform's Anvil binary in the installed package", () => {
    expect(execFileSync(anvilBinary(), ["--version"], { encoding: "utf8" })).to.match(/^anvil Version: 1\.7\.1/);
  });
});

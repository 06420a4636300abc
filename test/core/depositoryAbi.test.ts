import { expect } from "chai";
import { readFileSync } from "node:fs";
import { toEventSelector, toFunctionSelector, type AbiEvent, type AbiFunction } from "viem";
import { DEPOSIT_ERC20_FUNCTION, DEPOSIT_NATIVE_FUNCTION, DEPOSITORY_DEPOSIT_ABI } from "../../ts/core/depositoryAbi.ts";
import { DEPOSITORY_RECLAIM_ABI } from "../../ts/core/reclaimableDeposit.ts";

describe("depositoryAbi", () => {
  // Compiled by `hardhat test` before the mocha run.
  const artifact = JSON.parse(
    readFileSync(new URL("../../artifacts/contracts/interfaces/IDepository.sol/IDepository.json", import.meta.url), "utf8"),
  ) as { abi: (AbiFunction | AbiEvent)[] };

  it("matches the compiled IDepository fragment for fragment (the reclaimable deposits' too)", () => {
    for (const fragment of [...DEPOSITORY_DEPOSIT_ABI, ...DEPOSITORY_RECLAIM_ABI]) {
      const selector = fragment.type === "function" ? toFunctionSelector(fragment) : toEventSelector(fragment);
      const compiled = artifact.abi.find(
        (entry) => entry.type === fragment.type && (entry.type === "function" ? toFunctionSelector(entry) : toEventSelector(entry)) === selector,
      );
      expect(compiled, `${fragment.name} ${selector}`).to.not.equal(undefined);
      expect(compiled!.inputs.map((i) => [i.name, i.type])).to.deep.equal(fragment.inputs.map((i) => [i.name, i.type]));
      if (fragment.type === "function") expect((compiled as AbiFunction).stateMutability).to.equal(fragment.stateMutability);
      else expect((compiled as AbiEvent).inputs.map((i) => i.indexed ?? false)).to.deep.equal(fragment.inputs.map((i) => i.indexed));
    }
  });

  it("has the sender-credited deposits first, dispatched first (selectors 0x000000…, ascending)", () => {
    const [native, erc20] = DEPOSITORY_DEPOSIT_ABI.filter((f) => f.type === "function").map((f) => BigInt(toFunctionSelector(f)));
    expect(native! < erc20!).to.equal(true);
    expect(erc20! < 0x100n).to.equal(true);
  });

  it("has the deposit selectors of docs/architecture.md", () => {
    const functions = DEPOSITORY_DEPOSIT_ABI.filter((f) => f.type === "function");
    expect(functions.map((f) => toFunctionSelector(f))).to.deep.equal([
      toFunctionSelector(`${DEPOSIT_NATIVE_FUNCTION}(bytes32)`),
      toFunctionSelector(`${DEPOSIT_ERC20_FUNCTION}(address,uint256,bytes32)`),
      toFunctionSelector("depositNative(address,bytes32)"),
      toFunctionSelector("depositErc20(address,address,uint256,bytes32)"),
      toFunctionSelector("depositErc20(address,address,bytes32)"),
    ]);
  });
});

import { expect } from "chai";
import { encodeFunctionData, getAddress, keccak256, size, toFunctionSelector, toHex, zeroAddress, type Address } from "viem";
import { decodeDeposit, encodeDeposit } from "../../ts/core/depositCalldata.ts";
import { DEPOSIT_ERC20_FUNCTION, DEPOSIT_NATIVE_FUNCTION, DEPOSITORY_DEPOSIT_ABI } from "../../ts/core/depositoryAbi.ts";
import type { FerryError } from "../../ts/core/errors.ts";

const ID = keccak256(toHex("order"));
const USDC: Address = getAddress("0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48");
const ALICE: Address = "0x70997970C51812dc3A010C7d01b50e0d17dc79C8";

describe("depositCalldata", () => {
  it("encodes a native deposit as depositNative_…(id) with the amount as value (36 bytes)", () => {
    const { data, value } = encodeDeposit({ currency: zeroAddress, amount: 10n ** 18n, id: ID });
    expect(value).to.equal(10n ** 18n);
    expect(size(data)).to.equal(36);
    expect(data.slice(0, 10)).to.equal(toFunctionSelector(`${DEPOSIT_NATIVE_FUNCTION}(bytes32)`));
    expect(data.slice(0, 8)).to.equal("0x000000", "a mined selector: three zero bytes");
    expect(decodeDeposit(data)).to.deep.equal({ kind: "native", functionName: DEPOSIT_NATIVE_FUNCTION, depositor: zeroAddress, id: ID });
  });

  it("encodes an ERC-20 deposit as depositErc20_…(token, amount, id) with no value (100 bytes)", () => {
    const { data, value } = encodeDeposit({ currency: USDC, amount: 1_000_000n, id: ID });
    expect(value).to.equal(0n);
    expect(size(data)).to.equal(100);
    expect(data.slice(0, 10)).to.equal(toFunctionSelector(`${DEPOSIT_ERC20_FUNCTION}(address,uint256,bytes32)`));
    expect(data.slice(0, 8)).to.equal("0x000000");
    expect(decodeDeposit(data)).to.deep.equal({ kind: "erc20", functionName: DEPOSIT_ERC20_FUNCTION, depositor: zeroAddress, token: USDC, amount: 1_000_000n, id: ID });
  });

  it("decodes the forms that name a depositor, the allowance form without an amount", () => {
    const encode = (functionName: "depositNative" | "depositErc20", args: readonly unknown[]) =>
      encodeFunctionData({ abi: DEPOSITORY_DEPOSIT_ABI, functionName, args } as never);
    expect(decodeDeposit(encode("depositNative", [ALICE, ID]))).to.deep.equal({ kind: "native", functionName: "depositNative", depositor: ALICE, id: ID });
    expect(decodeDeposit(encode("depositErc20", [ALICE, USDC, 5n, ID]))).to.deep.equal({ kind: "erc20", functionName: "depositErc20", depositor: ALICE, token: USDC, amount: 5n, id: ID });
    expect(decodeDeposit(encode("depositErc20", [zeroAddress, USDC, ID]))).to.deep.equal({ kind: "erc20", functionName: "depositErc20", depositor: zeroAddress, token: USDC, amount: null, id: ID });
  });

  it("refuses calldata that is no deposit, and bad input, naming the field", () => {
    const code = (fn: () => unknown) => {
      try {
        fn();
      } catch (error) {
        return [(error as FerryError).code, (error as Error).message.split(":")[0]];
      }
      return ["none"];
    };
    expect(code(() => decodeDeposit("0xa9059cbb"))).to.deep.equal(["INVALID_INPUT", "data"]);
    expect(code(() => encodeDeposit({ currency: zeroAddress, amount: 1n, id: "0x12" }))).to.deep.equal(["INVALID_INPUT", "id"]);
    expect(code(() => encodeDeposit({ currency: "0x12" as Address, amount: 1n, id: ID }))[0]).to.equal("INVALID_ADDRESS");
  });
});

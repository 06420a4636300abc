import { expect } from "chai";
import { readFileSync } from "node:fs";
import { encodeFunctionData, size, toFunctionSelector, zeroAddress, type AbiFunction, type Address } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { toCompactSignature } from "../../ts/core/compactSignature.ts";
import type { FerryError } from "../../ts/core/errors.ts";
import { EXECUTE_ABI, EXECUTE_COMPACT_FUNCTION, decodeExecute, encodeExecute } from "../../ts/core/executeCalldata.ts";
import { signPayoutRequest, type PayoutRequest } from "../../ts/core/payoutRequest.ts";
import { highSTwin } from "./signatureFixtures.ts";

const allocator = privateKeyToAccount(generatePrivateKey());
const depository: Address = "0x00000000000000000000000000000000000000de";
const request: PayoutRequest = {
  calls: [{ to: "0x1111111111111111111111111111111111111111", token: zeroAddress, amount: 5n * 10n ** 16n }],
  nonce: 1n,
  expiration: 2_000_000_000n,
};

/** Names, types and components of ABI parameters, recursively (internalType left out). */
type Param = { name?: string; type: string; components?: readonly Param[] };
function shape(params: readonly Param[]): unknown[] {
  return params.map((p) => [p.name, p.type, p.components ? shape(p.components) : null]);
}

describe("executeCalldata", () => {
  it("matches the compiled IDepository fragment for fragment", () => {
    const artifact = JSON.parse(
      readFileSync(new URL("../../artifacts/contracts/interfaces/IDepository.sol/IDepository.json", import.meta.url), "utf8"),
    ) as { abi: AbiFunction[] };
    for (const fragment of EXECUTE_ABI) {
      const compiled = artifact.abi.find((entry) => entry.type === "function" && toFunctionSelector(entry) === toFunctionSelector(fragment));
      expect(compiled, fragment.name).to.not.equal(undefined);
      expect(shape(compiled!.inputs)).to.deep.equal(shape(fragment.inputs));
    }
  });

  it("encodes the compact form: a mined selector and (r, vs) instead of a bytes argument (96 bytes shorter)", async () => {
    const signature = await signPayoutRequest({ account: allocator, chainId: 31337, depository, request });
    const compact = encodeExecute({ request, signature });
    const legacy = encodeFunctionData({ abi: EXECUTE_ABI, functionName: "execute", args: [request, signature] });
    expect(compact.slice(0, 10)).to.equal(toFunctionSelector(EXECUTE_ABI[0]));
    expect(compact.slice(0, 8)).to.equal("0x000000");
    expect(EXECUTE_ABI[0].name).to.equal(EXECUTE_COMPACT_FUNCTION);
    expect(size(legacy) - size(compact)).to.equal(96);
    expect(encodeExecute({ request, signature: toCompactSignature(signature) })).to.equal(compact);
  });

  it("decodes both forms to the same request and 65-byte signature", async () => {
    const signature = await signPayoutRequest({ account: allocator, chainId: 31337, depository, request });
    const legacy = encodeFunctionData({ abi: EXECUTE_ABI, functionName: "execute", args: [request, signature] });
    expect(decodeExecute(encodeExecute({ request, signature }))).to.deep.equal({ compact: true, request, signature });
    expect(decodeExecute(legacy)).to.deep.equal({ compact: false, request, signature });
  });

  it("refuses a signature with no compact form and calldata that is not execute", async () => {
    const signature = await signPayoutRequest({ account: allocator, chainId: 31337, depository, request });
    const code = (fn: () => unknown) => {
      try {
        fn();
      } catch (error) {
        return (error as FerryError).code;
      }
      return "none";
    };
    expect(code(() => encodeExecute({ request, signature: highSTwin(signature) }))).to.equal("SIGNATURE_MALLEABLE");
    expect(code(() => decodeExecute("0x12345678"))).to.equal("INVALID_INPUT");
  });
});

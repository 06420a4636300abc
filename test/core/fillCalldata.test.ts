import { expect } from "chai";
import { readFileSync } from "node:fs";
import { concat, encodeFunctionData, keccak256, numberToHex, size, slice, toFunctionSelector, toHex, type AbiFunction, type Address, type Hex } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { fillDigest, type FillAttestation } from "../../ts/core/attestationDigest.ts";
import { toCompactSignature } from "../../ts/core/compactSignature.ts";
import type { FerryError, FillTargetMismatchError } from "../../ts/core/errors.ts";
import {
  FILL_ABI,
  FILL_FUNCTION,
  FILL_SELECTOR,
  PACKED_FILL_LENGTH,
  assertFillTarget,
  decodeFill,
  encodeFill,
  encodeFillAndCall,
  fillTargetMismatches,
  packFill,
  unpackFill,
} from "../../ts/core/fillCalldata.ts";
import { recoverPersonalSignerStrict } from "../../ts/core/recoverStrict.ts";
import { signAttestationDigest } from "../../ts/core/signAttestation.ts";
import { highSTwin } from "./signatureFixtures.ts";

const RECEIVER: Address = "0x5FbDB2315678afecb367f032d93F642f64180aa3";
const OTHER_RECEIVER: Address = "0xe7f1725E7734CE288F8367e1Bb143E90bb3F0512";
const signer = privateKeyToAccount(generatePrivateKey());
const target = { chainId: 31338, receiver: RECEIVER };

const attestation: FillAttestation = {
  requestId: keccak256(toHex("request")),
  orderId: keccak256(toHex("order")),
  originChainId: 31337n,
  originUser: `0x${"00".repeat(12)}70997970c51812dc3a010c7d01b50e0d17dc79c8`,
  originCurrency: `0x${"00".repeat(32)}`,
  originAmount: 10n ** 18n,
  destinationChainId: 31338n,
  destinationUser: `0x${"00".repeat(12)}3c44cdddb6a900fa2b585dd299e03d12fa4293bc`,
  destinationCurrency: `0x${"00".repeat(12)}a0b86991c6218b36c1d19d4a2e9eb0ce3606eb48`,
  destinationAmount: 999n * 10n ** 15n,
  deadline: 1_767_225_600n,
  receiver: RECEIVER,
};

/** Names, types and components of ABI parameters, recursively (internalType left out). */
type Param = { name?: string; type: string; components?: readonly Param[] };
function shape(params: readonly Param[]): unknown[] {
  return params.map((p) => [p.name, p.type, p.components ? shape(p.components) : null]);
}

function failure(fn: () => unknown): { code: string; message: string } {
  try {
    fn();
  } catch (error) {
    return { code: (error as FerryError).code, message: (error as Error).message };
  }
  throw new Error("expected a throw");
}

describe("fillCalldata", () => {
  it("matches the compiled IAttestedReceiver fragment for fragment; fill's selector is the mined 0x00000026", () => {
    const artifact = JSON.parse(
      readFileSync(new URL("../../artifacts/contracts/interfaces/IAttestedReceiver.sol/IAttestedReceiver.json", import.meta.url), "utf8"),
    ) as { abi: AbiFunction[] };
    for (const fragment of FILL_ABI) {
      const compiled = artifact.abi.find((entry) => entry.type === "function" && toFunctionSelector(entry) === toFunctionSelector(fragment));
      expect(compiled, fragment.name).to.not.equal(undefined);
      expect(shape(compiled!.inputs)).to.deep.equal(shape(fragment.inputs));
      expect(compiled!.stateMutability).to.equal(fragment.stateMutability);
    }
    expect(FILL_SELECTOR).to.equal("0x00000026");
    expect(toFunctionSelector(`${FILL_FUNCTION}()`)).to.equal(FILL_SELECTOR);
  });

  it("packs the attestation and signature field by field (AttestationLib's layout, 277 bytes)", async () => {
    const signature = await signAttestationDigest(signer, fillDigest(attestation));
    const compact = toCompactSignature(signature);
    const packed = packFill(attestation, signature);
    expect(size(packed)).to.equal(PACKED_FILL_LENGTH);
    const expected = concat([
      attestation.requestId,
      attestation.orderId,
      numberToHex(attestation.originChainId, { size: 8 }),
      attestation.originUser,
      attestation.originCurrency,
      numberToHex(attestation.originAmount, { size: 16 }),
      "0x3c44cdddb6a900fa2b585dd299e03d12fa4293bc",
      "0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48",
      numberToHex(attestation.destinationAmount, { size: 16 }),
      numberToHex(attestation.deadline, { size: 5 }),
      compact.r,
      compact.vs,
    ]);
    expect(packed).to.equal(expected);
    // Field offsets as AttestationLib declares them.
    expect(slice(packed, 152, 172)).to.equal("0x3c44cdddb6a900fa2b585dd299e03d12fa4293bc");
    expect(slice(packed, 213, 245)).to.equal(compact.r);
    expect(packFill(attestation, compact)).to.equal(packed);
  });

  it("encodes fill_7hVe as its selector and the packed fill (281 bytes), and decodes it back", async () => {
    const signature = await signAttestationDigest(signer, fillDigest(attestation));
    const data = encodeFill({ attestation, signature, target });
    expect(size(data)).to.equal(281);
    expect(data).to.equal(concat([FILL_SELECTOR, packFill(attestation, signature)]));
    const decoded = decodeFill(data, target);
    expect(decoded.functionName).to.equal(FILL_FUNCTION);
    expect(decoded.attestation).to.deep.equal(attestation);
    expect(decoded.signature65).to.equal(signature);
    expect(await recoverPersonalSignerStrict(fillDigest(decoded.attestation), decoded.signature65)).to.equal(signer.address);

    // Sent to another receiver, the same bytes hash to another digest: the signature recovers elsewhere.
    const elsewhere = decodeFill(data, { chainId: 31338, receiver: OTHER_RECEIVER });
    expect(fillDigest(elsewhere.attestation)).to.not.equal(fillDigest(attestation));
    expect(await recoverPersonalSignerStrict(fillDigest(elsewhere.attestation), elsewhere.signature65)).to.not.equal(signer.address);
  });

  it("encodes and decodes fillAndCall with the same packed bytes", async () => {
    const signature = await signAttestationDigest(signer, fillDigest(attestation));
    const calls = [{ target: OTHER_RECEIVER, allowFailure: true, value: 5n, data: "0x1234" as Hex }];
    const sweepTokens = [RECEIVER];
    const data = encodeFillAndCall({ attestation, signature, target, calls, sweepTokens });
    expect(data).to.equal(encodeFunctionData({ abi: FILL_ABI, functionName: "fillAndCall", args: [packFill(attestation, signature), calls, sweepTokens] }));
    const decoded = decodeFill(data, target);
    expect(decoded.functionName).to.equal("fillAndCall");
    expect(decoded.attestation).to.deep.equal(attestation);
    expect(decoded.calls).to.deep.equal(calls);
    expect(decoded.sweepTokens).to.deep.equal(sweepTokens);
  });

  it("refuses to encode a fill for another chain or receiver, naming the field (FILL_TARGET_MISMATCH)", async () => {
    const signature = await signAttestationDigest(signer, fillDigest(attestation));
    for (const [wrong, field] of [
      [{ chainId: 8453, receiver: RECEIVER }, "destinationChainId"],
      [{ chainId: 31338, receiver: OTHER_RECEIVER }, "receiver"],
    ] as const) {
      try {
        encodeFill({ attestation, signature, target: wrong });
        expect.fail("encoded");
      } catch (error) {
        expect((error as FerryError).code).to.equal("FILL_TARGET_MISMATCH");
        expect((error as FillTargetMismatchError).field).to.equal(field);
      }
    }
    expect(fillTargetMismatches(attestation, { chainId: 1n, receiver: OTHER_RECEIVER }).map((m) => m.field)).to.deep.equal(["destinationChainId", "receiver"]);
    expect(fillTargetMismatches(attestation, { chainId: 31338n, receiver: RECEIVER.toLowerCase() as Address })).to.deep.equal([]);
    expect(() => assertFillTarget(attestation, target)).to.not.throw();
  });

  it("refuses values the packed layout cannot carry, naming the field (INVALID_INPUT)", async () => {
    const signature = await signAttestationDigest(signer, fillDigest(attestation));
    const cases: [Partial<FillAttestation>, string][] = [
      [{ originChainId: 1n << 64n }, "originChainId"],
      [{ originAmount: 1n << 128n }, "originAmount"],
      [{ destinationAmount: 1n << 128n }, "destinationAmount"],
      [{ deadline: 1n << 40n }, "deadline"],
      [{ destinationUser: keccak256(toHex("a 32-byte non-EVM account")) }, "destinationUser"],
      [{ destinationCurrency: keccak256(toHex("a 32-byte non-EVM token")) }, "destinationCurrency"],
    ];
    for (const [change, field] of cases) {
      const f = failure(() => packFill({ ...attestation, ...change }, signature));
      expect(f.code, field).to.equal("INVALID_INPUT");
      expect(f.message.startsWith(`${field}:`), f.message).to.equal(true);
    }
    // The largest values that fit do pack, and unpack to the same attestation.
    const max = { ...attestation, originChainId: (1n << 64n) - 1n, originAmount: (1n << 128n) - 1n, destinationAmount: (1n << 128n) - 1n, deadline: (1n << 40n) - 1n };
    expect(unpackFill(packFill(max, signature), target).attestation).to.deep.equal(max);
  });

  it("refuses a signature with no compact form, a packed fill of another length, and calldata that is no fill", async () => {
    const signature = await signAttestationDigest(signer, fillDigest(attestation));
    expect(failure(() => encodeFill({ attestation, signature: highSTwin(signature), target })).code).to.equal("SIGNATURE_MALLEABLE");
    expect(failure(() => unpackFill(concat([packFill(attestation, signature), "0x00"]), target)).code).to.equal("INVALID_INPUT");
    expect(failure(() => decodeFill(concat([FILL_SELECTOR, "0x1234"]), target)).code).to.equal("INVALID_INPUT");
    expect(failure(() => decodeFill("0x12345678", target)).code).to.equal("INVALID_INPUT");
  });
});

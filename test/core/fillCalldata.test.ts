import { expect } from "chai";
import { readFileSync } from "node:fs";
import { encodeFunctionData, hexToBytes, keccak256, size, toFunctionSelector, toHex, type AbiFunction, type Address, type Hex } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { fillDigest, type FillAttestation } from "../../ts/core/attestationDigest.ts";
import { toCompactSignature } from "../../ts/core/compactSignature.ts";
import type { FerryError, FillTargetMismatchError } from "../../ts/core/errors.ts";
import {
  FILL_ABI,
  assertFillTarget,
  completeFillAttestation,
  decodeFill,
  encodeFill,
  encodeFillAndCall,
  fillTargetMismatches,
  toCompactFillAttestation,
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
  destinationCurrency: `0x${"00".repeat(32)}`,
  destinationAmount: 999n * 10n ** 15n,
  deadline: 1_767_225_600n,
  receiver: RECEIVER,
};

function codeOf(fn: () => unknown): string {
  try {
    fn();
  } catch (error) {
    return (error as FerryError).code;
  }
  throw new Error("expected a throw");
}

/** Names, types and components of ABI parameters, recursively (internalType left out). */
type Param = { name?: string; type: string; components?: readonly Param[] };
function shape(params: readonly Param[]): unknown[] {
  return params.map((p) => [p.name, p.type, p.components ? shape(p.components) : null]);
}

describe("fillCalldata", () => {
  it("matches the compiled IAttestedReceiver fragment for fragment", () => {
    const artifact = JSON.parse(
      readFileSync(new URL("../../artifacts/contracts/interfaces/IAttestedReceiver.sol/IAttestedReceiver.json", import.meta.url), "utf8"),
    ) as { abi: AbiFunction[] };
    for (const fragment of FILL_ABI) {
      const compiled = artifact.abi.find((entry) => entry.type === "function" && toFunctionSelector(entry) === toFunctionSelector(fragment));
      expect(compiled, fragment.name).to.not.equal(undefined);
      expect(shape(compiled!.inputs)).to.deep.equal(shape(fragment.inputs));
      expect(compiled!.stateMutability).to.equal(fragment.stateMutability);
    }
  });

  it("encodes fill as 388 bytes: the selector, ten attestation words, r and vs", async () => {
    const signature = await signAttestationDigest(signer, fillDigest(attestation));
    const data = encodeFill({ attestation, signature, target });
    expect(size(data)).to.equal(388);
    const compact = toCompactSignature(signature);
    const words = [attestation.requestId, attestation.orderId, toHex(attestation.originChainId, { size: 32 }), attestation.originUser, attestation.originCurrency,
      toHex(attestation.originAmount, { size: 32 }), attestation.destinationUser, attestation.destinationCurrency, toHex(attestation.destinationAmount, { size: 32 }),
      toHex(attestation.deadline, { size: 32 }), compact.r, compact.vs];
    expect(data).to.equal(`${toFunctionSelector(FILL_ABI[0])}${words.map((w) => w.slice(2)).join("")}`);
    // A compact signature passed as such gives the same bytes.
    expect(encodeFill({ attestation, signature: compact, target })).to.equal(data);
  });

  it("decodes fill calldata back into the attestation the receiver at the target hashes", async () => {
    const signature = await signAttestationDigest(signer, fillDigest(attestation));
    const decoded = decodeFill(encodeFill({ attestation, signature, target }), target);
    expect(decoded.functionName).to.equal("fill");
    expect(decoded.attestation).to.deep.equal(attestation);
    expect(decoded.signature65).to.equal(signature);
    expect(await recoverPersonalSignerStrict(fillDigest(decoded.attestation), decoded.signature65)).to.equal(signer.address);

    // Sent to another receiver, the same bytes hash to another digest: the signature recovers elsewhere.
    const elsewhere = decodeFill(encodeFill({ attestation, signature, target }), { chainId: 31338, receiver: OTHER_RECEIVER });
    expect(fillDigest(elsewhere.attestation)).to.not.equal(fillDigest(attestation));
    expect(await recoverPersonalSignerStrict(fillDigest(elsewhere.attestation), elsewhere.signature65)).to.not.equal(signer.address);
  });

  it("encodes and decodes fillAndCall", async () => {
    const signature = await signAttestationDigest(signer, fillDigest(attestation));
    const calls = [{ target: OTHER_RECEIVER, allowFailure: true, value: 5n, data: "0x1234" as Hex }];
    const sweepTokens = [RECEIVER];
    const data = encodeFillAndCall({ attestation, signature, target, calls, sweepTokens });
    expect(data).to.equal(
      encodeFunctionData({ abi: FILL_ABI, functionName: "fillAndCall", args: [toCompactFillAttestation(attestation), toCompactSignature(signature), calls, sweepTokens] }),
    );
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

  it("refuses a signature with no compact form (high s) and calldata that is not a fill", async () => {
    const signature = await signAttestationDigest(signer, fillDigest(attestation));
    expect(codeOf(() => encodeFill({ attestation, signature: highSTwin(signature), target }))).to.equal("SIGNATURE_MALLEABLE");
    expect(codeOf(() => decodeFill("0x12345678", target))).to.equal("INVALID_INPUT");
  });

  it("drops and restores exactly destinationChainId and receiver", () => {
    const compact = toCompactFillAttestation(attestation);
    expect(Object.keys(compact)).to.deep.equal(FILL_ABI[0].inputs[0].components.map((c) => c.name));
    expect(completeFillAttestation(compact, target)).to.deep.equal(attestation);
    expect(hexToBytes(encodeFill({ attestation, signature: { r: attestation.requestId, vs: attestation.orderId }, target })).length).to.equal(388);
  });
});

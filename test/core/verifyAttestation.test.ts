import { expect } from "chai";
import { maxUint256 } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { FerryError } from "../../ts/core/errors.ts";
import { signAttestation } from "../../ts/core/signAttestation.ts";
import { assertAttestation, verifyAttestation, type VerifyAttestationParams } from "../../ts/core/verifyAttestation.ts";
import { loadAttestationVectors } from "../vectors/vectorFiles.ts";
import { highSTwin } from "./signatureFixtures.ts";

const vectors = loadAttestationVectors();
const v1 = vectors.v1[0]!;
const v2 = vectors.v2[0]!; // deadline 1767225600
const deadline = BigInt(v2.input.deadline);

async function codeOf(params: VerifyAttestationParams): Promise<string | undefined> {
  const result = await verifyAttestation(params);
  return result.valid ? undefined : result.error.code;
}

describe("verifyAttestation", () => {
  it("accepts every vector with its signer in the set", async () => {
    for (const v of vectors.v1) {
      const result = await verifyAttestation({ format: "v1", attestation: v.input, signature: v.signature, signers: [v.signer] });
      expect(result, v.name).to.deep.equal({ valid: true, signer: v.signer, digest: v.digest });
    }
    for (const v of vectors.v2) {
      const result = await verifyAttestation({ format: "v2", attestation: v.input, signature: v.signature, signers: [v.signer], now: 0n });
      expect(result, v.name).to.deep.equal({ valid: true, signer: v.signer, digest: v.digest });
    }
  });

  it("compares signers case-insensitively", async () => {
    for (const signer of [v1.signer.toLowerCase(), `0x${v1.signer.slice(2).toUpperCase()}`]) {
      expect(await codeOf({ format: "v1", attestation: v1.input, signature: v1.signature, signers: ["0x0000000000000000000000000000000000000001", signer] })).to.equal(undefined);
    }
  });

  it("rejects a signer outside the set (or an empty set) with SIGNER_NOT_ALLOWED", async () => {
    const other = privateKeyToAccount(generatePrivateKey()).address;
    expect(await codeOf({ format: "v1", attestation: v1.input, signature: v1.signature, signers: [other] })).to.equal("SIGNER_NOT_ALLOWED");
    expect(await codeOf({ format: "v1", attestation: v1.input, signature: v1.signature, signers: [] })).to.equal("SIGNER_NOT_ALLOWED");
  });

  it("rejects a tampered attestation: the signature then recovers someone else", async () => {
    const tampered = { ...v1.input, originAmount: (BigInt(v1.input.originAmount) + 1n).toString() };
    expect(await codeOf({ format: "v1", attestation: tampered, signature: v1.signature, signers: [v1.signer] })).to.equal("SIGNER_NOT_ALLOWED");
  });

  it("rejects a v1 signature presented as v2 and the other way round", async () => {
    const asV2 = { ...v1.input, orderId: v1.input.requestId, destinationCurrency: v1.input.originCurrency, destinationAmount: "0", deadline: "0", receiver: v2.input.receiver };
    expect(await codeOf({ format: "v2", attestation: asV2, signature: v1.signature, signers: [v1.signer], now: 0 })).to.equal("SIGNER_NOT_ALLOWED");
    expect(await codeOf({ format: "v1", attestation: v2.input, signature: v2.signature, signers: [v2.signer] })).to.equal("SIGNER_NOT_ALLOWED");
  });

  it("rejects the high-s twin with SIGNATURE_MALLEABLE and a short signature with INVALID_SIGNATURE_LENGTH", async () => {
    expect(await codeOf({ format: "v1", attestation: v1.input, signature: highSTwin(v1.signature), signers: [v1.signer] })).to.equal("SIGNATURE_MALLEABLE");
    expect(await codeOf({ format: "v1", attestation: v1.input, signature: `0x${v1.signature.slice(4)}`, signers: [v1.signer] })).to.equal("INVALID_SIGNATURE_LENGTH");
  });

  describe("v2 deadline", () => {
    const params = { format: "v2", attestation: v2.input, signature: v2.signature, signers: [v2.signer] } as const;

    it("is valid through the deadline second itself (contract: block.timestamp > deadline reverts)", async () => {
      expect(await codeOf({ ...params, now: deadline })).to.equal(undefined);
      expect(await codeOf({ ...params, now: Number(deadline) - 1 })).to.equal(undefined);
    });

    it("is expired one second later with ATTESTATION_EXPIRED", async () => {
      const result = await verifyAttestation({ ...params, now: deadline + 1n });
      expect(result.valid).to.equal(false);
      if (!result.valid) expect(result.error).to.include({ code: "ATTESTATION_EXPIRED", deadline, now: deadline + 1n });
    });

    it("is checked before the signature, as AttestedReceiver does", async () => {
      expect(await codeOf({ ...params, signature: highSTwin(v2.signature), now: deadline + 1n })).to.equal("ATTESTATION_EXPIRED");
    });

    it("never expires at max uint256", async () => {
      const forever = vectors.v2.find((v) => v.input.deadline === maxUint256.toString())!;
      expect(await codeOf({ format: "v2", attestation: forever.input, signature: forever.signature, signers: [forever.signer], now: maxUint256 })).to.equal(undefined);
    });

    it("requires now for v2 (INVALID_INPUT) and ignores it for v1", async () => {
      expect(await codeOf({ ...params })).to.equal("INVALID_INPUT");
      expect(await codeOf({ ...params, now: -1 })).to.equal("INVALID_INPUT");
      expect(await codeOf({ ...params, now: 1.5 })).to.equal("INVALID_INPUT");
      expect(await codeOf({ format: "v1", attestation: v1.input, signature: v1.signature, signers: [v1.signer], now: maxUint256 })).to.equal(undefined);
    });
  });

  it("returns bad input as a typed result instead of throwing", async () => {
    expect(await codeOf({ format: "v1", attestation: { ...v1.input, originUser: "0x12" }, signature: v1.signature, signers: [v1.signer] })).to.equal("INVALID_ADDRESS");
    expect(await codeOf({ format: "v1", attestation: null, signature: v1.signature, signers: [v1.signer] })).to.equal("INVALID_INPUT");
    expect(await codeOf({ format: "v1", attestation: v1.input, signature: v1.signature, signers: ["0x1234"] })).to.equal("INVALID_ADDRESS");
  });

  it("verifies what signAttestation produces with a fresh key", async () => {
    const account = privateKeyToAccount(generatePrivateKey());
    const signed = await signAttestation({ account, format: "v2", attestation: v2.input });
    expect(await codeOf({ format: "v2", attestation: v2.input, signature: signed.signature, signers: [account.address], now: 0 })).to.equal(undefined);
  });

  describe("assertAttestation", () => {
    it("returns the signer and digest", async () => {
      expect(await assertAttestation({ format: "v1", attestation: v1.input, signature: v1.signature, signers: [v1.signer] })).to.deep.equal({ signer: v1.signer, digest: v1.digest });
    });

    it("throws the typed error", async () => {
      const error = await assertAttestation({ format: "v1", attestation: v1.input, signature: highSTwin(v1.signature), signers: [v1.signer] }).catch((e: unknown) => e);
      expect(error).to.be.instanceOf(FerryError).and.have.property("code", "SIGNATURE_MALLEABLE");
    });
  });
});

import { expect } from "chai";
import { verifyMessage } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { VECTOR_PRIVATE_KEY } from "../vectors/generate.ts";
import { signAttestation, signAttestationDigest } from "../../ts/core/signAttestation.ts";
import { loadAttestationVectors } from "../vectors/vectorFiles.ts";

const vectors = loadAttestationVectors();
const account = privateKeyToAccount(VECTOR_PRIVATE_KEY);

describe("signAttestation", () => {
  it("reproduces every vector signature byte for byte (RFC 6979 signatures are deterministic)", async () => {
    for (const v of vectors.v1) expect(await signAttestationDigest(account, v.digest), v.name).to.equal(v.signature);
    for (const v of vectors.v2) expect(await signAttestationDigest(account, v.digest), v.name).to.equal(v.signature);
  });

  it("signs the 32 raw digest bytes, not the digest's hex text", async () => {
    const { digest } = vectors.v1[0]!;
    const signature = await signAttestationDigest(account, digest);
    expect(await verifyMessage({ address: account.address, message: { raw: digest }, signature })).to.equal(true);
    expect(await verifyMessage({ address: account.address, message: digest, signature })).to.equal(false);
  });

  it("normalizes, digests and signs loose input of both formats", async () => {
    const other = privateKeyToAccount(generatePrivateKey());
    for (const [format, v] of [["v1", vectors.v1[2]!], ["v2", vectors.v2[1]!]] as const) {
      const signed = await signAttestation({ account: other, format, attestation: v.input });
      expect(signed).to.include({ format, digest: v.digest, signer: other.address });
      expect(await verifyMessage({ address: other.address, message: { raw: v.digest }, signature: signed.signature })).to.equal(true);
    }
  });

  it("rejects a digest that is not 32 bytes with INVALID_INPUT", async () => {
    const error = await signAttestationDigest(account, "0x1234").catch((e: unknown) => e);
    expect(error).to.have.property("code", "INVALID_INPUT");
  });

  it("rejects bad attestation input with a typed error before signing", async () => {
    const error = await signAttestation({ account, format: "v2", attestation: { ...vectors.v2[0]!.input, receiver: "0x12" } }).catch((e: unknown) => e);
    expect(error).to.have.property("code", "INVALID_ADDRESS");
  });
});

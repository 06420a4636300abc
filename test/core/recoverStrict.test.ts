import { expect } from "chai";
import { concat, hexToBytes, keccak256, recoverAddress, stringToHex, type Hex } from "viem";
import type { FerryError } from "../../ts/core/errors.ts";
import {
  SECP256K1_HALF_N,
  SECP256K1_N,
  recoverPersonalSignerStrict,
  recoverStrict,
  toPersonalSignHash,
} from "../../ts/core/recoverStrict.ts";
import { loadAttestationVectors } from "../vectors/vectorFiles.ts";
import { highSTwin, withParts } from "./signatureFixtures.ts";

const vectors = loadAttestationVectors();
const sample = vectors.v1[0]!;
const hash = toPersonalSignHash(sample.digest);

async function rejectionCode(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
  } catch (error) {
    return (error as FerryError).code;
  }
  throw new Error("expected a rejection");
}

describe("recoverStrict", () => {
  it("toPersonalSignHash is keccak256(\"\\x19Ethereum Signed Message:\\n32\" ‖ digest)", () => {
    for (const v of [...vectors.v1, ...vectors.v2]) {
      expect(toPersonalSignHash(v.digest)).to.equal(keccak256(concat([stringToHex("\x19Ethereum Signed Message:\n32"), v.digest])));
    }
  });

  it("recovers the signer of every vector, from hex or bytes", async () => {
    for (const v of [...vectors.v1, ...vectors.v2]) {
      expect(await recoverPersonalSignerStrict(v.digest, v.signature), v.name).to.equal(v.signer);
      expect(await recoverStrict(toPersonalSignHash(v.digest), hexToBytes(v.signature)), v.name).to.equal(v.signer);
    }
  });

  it("rejects any length but 65 with INVALID_SIGNATURE_LENGTH", async () => {
    for (const bad of ["0x", sample.signature.slice(0, 130), `${sample.signature}00`, sample.signature.slice(0, 2 + 128)] as Hex[]) {
      expect(await rejectionCode(recoverStrict(hash, bad))).to.equal("INVALID_SIGNATURE_LENGTH");
    }
  });

  it("rejects the high-s twin with SIGNATURE_MALLEABLE although plain ecrecover accepts it", async () => {
    const twin = highSTwin(sample.signature);
    expect(await recoverAddress({ hash, signature: twin })).to.equal(sample.signer);
    expect(await rejectionCode(recoverStrict(hash, twin))).to.equal("SIGNATURE_MALLEABLE");
  });

  it("puts the malleability boundary at n/2 exactly", async () => {
    expect(await rejectionCode(recoverStrict(hash, withParts(sample.signature, { s: SECP256K1_HALF_N + 1n })))).to.equal("SIGNATURE_MALLEABLE");
    // s = n/2 passes the malleability check; whatever it recovers, it is not reported as malleable.
    const atBoundary = await recoverStrict(hash, withParts(sample.signature, { s: SECP256K1_HALF_N })).then(
      () => "recovered",
      (error: FerryError) => error.code,
    );
    expect(atBoundary).to.not.equal("SIGNATURE_MALLEABLE");
  });

  it("checks malleability before v, like OpenZeppelin", async () => {
    expect(await rejectionCode(recoverStrict(hash, withParts(highSTwin(sample.signature), { v: 0 })))).to.equal("SIGNATURE_MALLEABLE");
  });

  it("rejects v other than 27/28 (including 0/1) with INVALID_SIGNATURE", async () => {
    for (const v of [0, 1, 26, 29, 255]) {
      expect(await rejectionCode(recoverStrict(hash, withParts(sample.signature, { v }))), `v=${v}`).to.equal("INVALID_SIGNATURE");
    }
  });

  it("rejects r = 0, r ≥ n and s = 0 with INVALID_SIGNATURE", async () => {
    expect(await rejectionCode(recoverStrict(hash, withParts(sample.signature, { r: 0n })))).to.equal("INVALID_SIGNATURE");
    expect(await rejectionCode(recoverStrict(hash, withParts(sample.signature, { r: SECP256K1_N })))).to.equal("INVALID_SIGNATURE");
    expect(await rejectionCode(recoverStrict(hash, withParts(sample.signature, { s: 0n })))).to.equal("INVALID_SIGNATURE");
  });

  it("rejects an r that is no curve point's x with INVALID_SIGNATURE", async () => {
    // x = 5 has no y on secp256k1 (5³ + 7 = 132 is not a square mod p).
    expect(await rejectionCode(recoverStrict(hash, withParts(sample.signature, { r: 5n })))).to.equal("INVALID_SIGNATURE");
  });

  it("rejects non-hex input with INVALID_SIGNATURE and a bad hash with INVALID_INPUT", async () => {
    expect(await rejectionCode(recoverStrict(hash, `0x${"zz".repeat(65)}` as Hex))).to.equal("INVALID_SIGNATURE");
    expect(await rejectionCode(recoverStrict("0x1234", sample.signature))).to.equal("INVALID_INPUT");
  });
});

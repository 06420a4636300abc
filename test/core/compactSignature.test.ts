import { expect } from "chai";
import { concat, hexToBigInt, keccak256, numberToHex, parseSignature, serializeCompactSignature, signatureToCompactSignature, slice, toHex, type Hex } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import {
  fromCompactSignature,
  parseCompactSignature,
  recoverCompactStrict,
  toCompactSignature,
} from "../../ts/core/compactSignature.ts";
import type { FerryError } from "../../ts/core/errors.ts";
import { SECP256K1_HALF_N, SECP256K1_N } from "../../ts/core/recoverStrict.ts";
import { highSTwin, withParts } from "./signatureFixtures.ts";

const account = privateKeyToAccount(generatePrivateKey());
const hash = keccak256(toHex("compact signature"));

function codeOf(fn: () => unknown): string {
  try {
    fn();
  } catch (error) {
    return (error as FerryError).code;
  }
  throw new Error("expected a throw");
}

async function asyncCodeOf(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
  } catch (error) {
    return (error as FerryError).code;
  }
  throw new Error("expected a rejection");
}

describe("compactSignature", () => {
  it("converts a 65-byte signature to EIP-2098 form and back, as viem does", async () => {
    for (let i = 0; i < 20; i++) {
      const signature = await account.sign({ hash: keccak256(toHex(`message ${i}`)) });
      const compact = toCompactSignature(signature);
      const viemCompact = signatureToCompactSignature(parseSignature(signature));
      expect(compact).to.deep.equal({ r: viemCompact.r, vs: viemCompact.yParityAndS });
      expect(serializeCompactSignature(viemCompact)).to.equal(concat([compact.r, compact.vs]));
      expect(fromCompactSignature(compact)).to.equal(signature);
      expect(hexToBigInt(compact.vs) >> 255n).to.equal(hexToBigInt(slice(signature, 64, 65)) - 27n, "parity bit");
    }
  });

  it("refuses what recoverStrict refuses, with its codes", async () => {
    const good = await account.sign({ hash });
    expect(codeOf(() => toCompactSignature(slice(good, 0, 64)))).to.equal("INVALID_SIGNATURE_LENGTH");
    expect(codeOf(() => toCompactSignature(highSTwin(good)))).to.equal("SIGNATURE_MALLEABLE");
    expect(codeOf(() => toCompactSignature(withParts(good, { v: 0 })))).to.equal("INVALID_SIGNATURE");
    expect(codeOf(() => toCompactSignature(withParts(good, { v: 29 })))).to.equal("INVALID_SIGNATURE");
    expect(codeOf(() => toCompactSignature(withParts(good, { r: 0n })))).to.equal("INVALID_SIGNATURE");
    expect(codeOf(() => toCompactSignature(withParts(good, { r: SECP256K1_N })))).to.equal("INVALID_SIGNATURE");
    expect(codeOf(() => toCompactSignature(withParts(good, { s: 0n })))).to.equal("INVALID_SIGNATURE");
    expect(codeOf(() => toCompactSignature("0x1234" as Hex))).to.equal("INVALID_SIGNATURE_LENGTH");
    expect(codeOf(() => toCompactSignature("not hex" as Hex))).to.equal("INVALID_SIGNATURE");
  });

  it("parses { r, vs } and the 64-byte r ‖ vs form, and names the field when it cannot", async () => {
    const compact = toCompactSignature(await account.sign({ hash }));
    expect(parseCompactSignature(compact)).to.deep.equal(compact);
    expect(parseCompactSignature(concat([compact.r, compact.vs]).toUpperCase().replace("0X", "0x"))).to.deep.equal(compact);
    expect(codeOf(() => parseCompactSignature(concat([compact.r, compact.vs, "0x00"])))).to.equal("INVALID_INPUT");
    expect(codeOf(() => parseCompactSignature({ r: compact.r }))).to.equal("INVALID_INPUT");
  });

  it("recovers the signer with AttestationLib's rules: SIGNATURE_MALLEABLE, then INVALID_SIGNATURE", async () => {
    const compact = toCompactSignature(await account.sign({ hash }));
    expect(await recoverCompactStrict(hash, compact)).to.equal(account.address);

    const highS = { r: compact.r, vs: numberToHex(SECP256K1_HALF_N + 1n, { size: 32 }) };
    expect(await asyncCodeOf(recoverCompactStrict(hash, highS))).to.equal("SIGNATURE_MALLEABLE");
    // Malleability is checked before r: a high s with r = 0 is still SIGNATURE_MALLEABLE (the contract's order).
    expect(await asyncCodeOf(recoverCompactStrict(hash, { ...highS, r: `0x${"00".repeat(32)}` }))).to.equal("SIGNATURE_MALLEABLE");
    expect(await asyncCodeOf(recoverCompactStrict(hash, { r: `0x${"00".repeat(32)}`, vs: compact.vs }))).to.equal("INVALID_SIGNATURE");
    expect(await asyncCodeOf(recoverCompactStrict(hash, { r: compact.r, vs: `0x${"00".repeat(32)}` }))).to.equal("INVALID_SIGNATURE");
    expect(await asyncCodeOf(recoverCompactStrict(hash, { r: numberToHex(5n, { size: 32 }), vs: compact.vs }))).to.equal("INVALID_SIGNATURE");
  });

  it("recovers another address when the parity bit is flipped (v is not checkable in compact form)", async () => {
    const compact = toCompactSignature(await account.sign({ hash }));
    const flipped = numberToHex(hexToBigInt(compact.vs) ^ (1n << 255n), { size: 32 });
    const other = await recoverCompactStrict(hash, { r: compact.r, vs: flipped }).catch(() => undefined);
    expect(other).to.not.equal(account.address);
  });
});

/**
 * Sign in TypeScript, verify onchain: random v1/v2 attestations (fuzzed fields, including zero and
 * max values) are signed with viem accounts in TS; AttestationLib (through AttestationLibHarness on
 * a real EDR chain) must compute the same digests and recover the same signers, and TS and Solidity
 * must reject the same malformed signatures for the same reason.
 */
import { expect } from "chai";
import { network } from "hardhat";
import {
  BaseError,
  ContractFunctionRevertedError,
  concat,
  hexToBigInt,
  keccak256,
  maxUint256,
  numberToHex,
  slice,
  toHex,
  type Hex,
} from "viem";
import { privateKeyToAccount, type PrivateKeyAccount } from "viem/accounts";
import {
  CALLS_FILL_TYPEHASH,
  FILL_TYPEHASH,
  GATE_TYPEHASH,
  callsFillDigest,
  fillDigest,
  gateDigest,
  requestDigest,
  type FillAttestation,
  type RequestAttestation,
} from "../../ts/core/attestationDigest.ts";
import { recoverStrict, SECP256K1_N, toPersonalSignHash } from "../../ts/core/recoverStrict.ts";
import { recoverCompactStrict, toCompactSignature } from "../../ts/core/compactSignature.ts";
import { fitsPackedFill, packFill } from "../../ts/core/fillCalldata.ts";
import { signAttestationDigest } from "../../ts/core/signAttestation.ts";
import { verifyAttestation } from "../../ts/core/verifyAttestation.ts";
import type { FerryError } from "../../ts/core/errors.ts";

const RUNS = 50;

/** Deterministic randomness (keccak stream), so a failing case can be replayed from its index. */
function randomStream(seed: string) {
  let counter = 0n;
  const next = (): Hex => keccak256(concat([toHex(seed), numberToHex(counter++, { size: 32 })]));
  const uint = (): bigint => {
    const pick = Number(hexToBigInt(next()) % 6n);
    if (pick === 0) return 0n;
    if (pick === 1) return maxUint256;
    if (pick === 2) return hexToBigInt(next()) % 2n ** 64n;
    if (pick === 3) return 1n;
    return hexToBigInt(next());
  };
  const word = (): Hex => {
    const pick = Number(hexToBigInt(next()) % 5n);
    if (pick === 0) return `0x${"00".repeat(32)}`;
    if (pick === 1) return `0x${"ff".repeat(32)}`;
    if (pick === 2) return `0x${"00".repeat(12)}${next().slice(26)}`; // a left-padded EVM address
    return next(); // a 32-byte non-EVM account
  };
  const address = (): Hex => {
    const pick = Number(hexToBigInt(next()) % 4n);
    if (pick === 0) return "0x0000000000000000000000000000000000000000";
    if (pick === 1) return "0xFFfFfFffFFfffFFfFFfFFFFFffFFFffffFfFFFfF";
    return privateKeyToAccount(next()).address; // a checksummed address
  };
  const account = (): PrivateKeyAccount => privateKeyToAccount(numberToHex((hexToBigInt(next()) % (SECP256K1_N - 1n)) + 1n, { size: 32 }));
  return { next, uint, word, address, account };
}

function randomRequest(r: ReturnType<typeof randomStream>): RequestAttestation {
  return {
    requestId: r.next(),
    originChainId: r.uint(),
    originUser: r.word(),
    originCurrency: r.word(),
    originAmount: r.uint(),
    destinationChainId: r.uint(),
    destinationUser: r.word(),
  };
}

function randomFill(r: ReturnType<typeof randomStream>): FillAttestation {
  return {
    ...randomRequest(r),
    orderId: r.next(),
    destinationCurrency: r.word(),
    destinationAmount: r.uint(),
    deadline: r.uint(),
    receiver: r.address(),
  };
}

/** `att` cut to the packed fill's widths (64-bit origin chain, 128-bit amounts, 40-bit deadline, EVM destination user and currency). */
function packable(att: FillAttestation): FillAttestation {
  const mask = (value: bigint, bits: bigint) => value & ((1n << bits) - 1n);
  const evm = (word: Hex): Hex => numberToHex(mask(hexToBigInt(word), 160n), { size: 32 });
  return {
    ...att,
    originChainId: mask(att.originChainId, 64n),
    originAmount: mask(att.originAmount, 128n),
    destinationUser: evm(att.destinationUser),
    destinationCurrency: evm(att.destinationCurrency),
    destinationAmount: mask(att.destinationAmount, 128n),
    deadline: mask(att.deadline, 40n),
  };
}

function highSTwin(signature: Hex): Hex {
  const s = hexToBigInt(slice(signature, 32, 64));
  const v = hexToBigInt(slice(signature, 64, 65));
  return concat([slice(signature, 0, 32), numberToHex(SECP256K1_N - s, { size: 32 }), v === 27n ? "0x1c" : "0x1b"]);
}

/** The custom error name a call reverted with. */
async function revertName(call: Promise<unknown>): Promise<string> {
  try {
    await call;
  } catch (error) {
    const reverted = error instanceof BaseError ? error.walk((e) => e instanceof ContractFunctionRevertedError) : undefined;
    if (reverted instanceof ContractFunctionRevertedError && reverted.data?.errorName) return reverted.data.errorName;
    throw error;
  }
  throw new Error("expected a revert");
}

async function tsCode(call: Promise<unknown>): Promise<string> {
  try {
    await call;
  } catch (error) {
    return (error as FerryError).code;
  }
  throw new Error("expected a rejection");
}

describe("sign in TS, verify onchain (AttestationLib)", () => {
  let harness: Awaited<ReturnType<typeof deploy>>;

  async function deploy() {
    const { viem } = await network.create();
    return viem.deployContract("AttestationLibHarness");
  }

  before(async () => {
    harness = await deploy();
  });

  it("has the same FILL_TYPEHASH", async () => {
    expect(await harness.read.fillTypehash()).to.equal(FILL_TYPEHASH);
  });

  it(`agrees on ${RUNS} random v1 attestations: digest and signer`, async () => {
    const r = randomStream("ferry/v1");
    for (let i = 0; i < RUNS; i++) {
      const account = r.account();
      const att = randomRequest(r);
      const digest = requestDigest(att);
      const signature = await signAttestationDigest(account, digest);
      expect(await harness.read.requestDigest([att]), `case ${i}`).to.equal(digest);
      expect(await harness.read.toPersonalSignHash([digest]), `case ${i}`).to.equal(toPersonalSignHash(digest));
      expect(await harness.read.recoverStrict([toPersonalSignHash(digest), signature]), `case ${i}`).to.equal(account.address);
      expect(await harness.read.recoverRequestSigner([att, signature]), `case ${i}`).to.equal(account.address);
      const verdict = await verifyAttestation({ format: "v1", attestation: att, signature, signers: [account.address] });
      expect(verdict.valid, `case ${i}`).to.equal(true);
    }
  });

  it(`agrees on ${RUNS} random v2 attestations: digest and signer`, async () => {
    const r = randomStream("ferry/v2");
    for (let i = 0; i < RUNS; i++) {
      const account = r.account();
      const att = randomFill(r);
      const digest = fillDigest(att);
      const signature = await signAttestationDigest(account, digest);
      expect(await harness.read.fillDigest([att]), `case ${i}`).to.equal(digest);
      expect(await harness.read.recoverStrict([toPersonalSignHash(digest), signature]), `case ${i}`).to.equal(account.address);
      expect(await harness.read.recoverFillSigner([att, signature]), `case ${i}`).to.equal(account.address);
      const verdict = await verifyAttestation({ format: "v2", attestation: att, signature, signers: [account.address], now: 0n });
      expect(verdict.valid, `case ${i}`).to.equal(true);
    }
  });

  it("has the same CALLS_FILL_TYPEHASH and GATE_TYPEHASH", async () => {
    expect(await harness.read.callsFillTypehash()).to.equal(CALLS_FILL_TYPEHASH);
    expect(await harness.read.gateTypehash()).to.equal(GATE_TYPEHASH);
  });

  it(`agrees on ${RUNS} random calls attestations and gate attestations: digest and signer`, async () => {
    const r = randomStream("ferry/calls-gate");
    for (let i = 0; i < RUNS; i++) {
      const account = r.account();
      const att = randomFill(r);
      const calls = callsFillDigest(att);
      expect(await harness.read.callsFillDigest([att]), `case ${i}`).to.equal(calls);
      expect(calls, `case ${i}`).to.not.equal(fillDigest(att));
      const callsSignature = await signAttestationDigest(account, calls);
      expect(await harness.read.recoverStrict([toPersonalSignHash(calls), callsSignature]), `case ${i}`).to.equal(account.address);
      const gate = r.address();
      const chainId = r.uint();
      for (const inner of [fillDigest(att), requestDigest(randomRequest(r))]) {
        const bound = gateDigest({ digest: inner, gate, chainId });
        expect(await harness.read.gateDigest([inner, gate, chainId]), `case ${i}`).to.equal(bound);
        const signature = await signAttestationDigest(account, bound);
        expect(await harness.read.recoverStrict([toPersonalSignHash(bound), signature]), `case ${i}`).to.equal(account.address);
      }
    }
  });

  it(`agrees on ${RUNS} random v2 attestations in packed form: digest rebuilt from chain and receiver, EIP-2098 signer`, async () => {
    const r = randomStream("ferry/v2-compact");
    for (let i = 0; i < RUNS; i++) {
      const account = r.account();
      const att = packable(randomFill(r));
      expect(fitsPackedFill(att), `case ${i}`).to.equal(true);
      const digest = fillDigest(att);
      const signature = toCompactSignature(await signAttestationDigest(account, digest));
      expect(await harness.read.recoverStrictCompact([toPersonalSignHash(digest), signature]), `case ${i}`).to.equal(account.address);
      const packed = packFill(att, signature);
      expect(await harness.read.packedFillDigest([packed, att.destinationChainId, att.receiver]), `case ${i}`).to.equal(digest);
      expect(await harness.read.recoverPackedFillSigner([packed, att.destinationChainId, att.receiver]), `case ${i}`).to.equal(account.address);
      expect(await recoverCompactStrict(toPersonalSignHash(digest), signature), `case ${i}`).to.equal(account.address);
    }
  });

  it("rejects malformed compact signatures for the same reason in TS and onchain", async () => {
    const r = randomStream("ferry/compact-malformed");
    const account = r.account();
    const hash = toPersonalSignHash(requestDigest(randomRequest(r)));
    const good = toCompactSignature(await account.sign({ hash }));
    const word = (value: bigint) => numberToHex(value, { size: 32 });
    const parity = hexToBigInt(good.vs) >> 255n;
    const cases: [string, { r: Hex; vs: Hex }, string, string][] = [
      ["r = 0", { r: word(0n), vs: good.vs }, "INVALID_SIGNATURE", "InvalidSignature"],
      ["r = n", { r: word(SECP256K1_N), vs: good.vs }, "INVALID_SIGNATURE", "InvalidSignature"],
      ["r off the curve", { r: word(5n), vs: good.vs }, "INVALID_SIGNATURE", "InvalidSignature"],
      ["s = 0", { r: good.r, vs: word(parity << 255n) }, "INVALID_SIGNATURE", "InvalidSignature"],
      ["s = n/2 + 1", { r: good.r, vs: word((parity << 255n) | (SECP256K1_N / 2n + 1n)) }, "SIGNATURE_MALLEABLE", "SignatureMalleable"],
      ["s = 2^255 - 1", { r: good.r, vs: word((1n << 256n) - 1n) }, "SIGNATURE_MALLEABLE", "SignatureMalleable"],
    ];
    expect(await harness.read.recoverStrictCompact([hash, good])).to.equal(account.address);
    for (const [name, signature, code, errorName] of cases) {
      expect(await tsCode(recoverCompactStrict(hash, signature)), name).to.equal(code);
      expect(await revertName(harness.read.recoverStrictCompact([hash, signature])), name).to.equal(errorName);
    }
  });

  it("rejects the high-s twin in TS (SIGNATURE_MALLEABLE) and onchain (SignatureMalleable)", async () => {
    const r = randomStream("ferry/high-s");
    for (let i = 0; i < 10; i++) {
      const account = r.account();
      const att = randomFill(r);
      const digest = fillDigest(att);
      const twin = highSTwin(await signAttestationDigest(account, digest));
      const verdict = await verifyAttestation({ format: "v2", attestation: att, signature: twin, signers: [account.address], now: 0n });
      expect(verdict.valid ? undefined : verdict.error.code, `case ${i}`).to.equal("SIGNATURE_MALLEABLE");
      expect(await revertName(harness.read.recoverFillSigner([att, twin])), `case ${i}`).to.equal("SignatureMalleable");
      expect(await revertName(harness.read.recoverStrict([toPersonalSignHash(digest), twin])), `case ${i}`).to.equal("SignatureMalleable");
    }
  });

  it("rejects every other malformed signature for the same reason in TS and onchain", async () => {
    const r = randomStream("ferry/malformed");
    const account = r.account();
    const hash = toPersonalSignHash(requestDigest(randomRequest(r)));
    const good = await account.sign({ hash });
    // Replaces word `index` (0 = r, 1 = s) with a 32-byte value.
    const part = (index: number, word: Hex) => concat([slice(good, 0, 32 * index), word, slice(good, 32 * index + 32)]);
    const cases: [string, Hex, string, string][] = [
      ["64 bytes", slice(good, 0, 64), "INVALID_SIGNATURE_LENGTH", "InvalidSignatureLength"],
      ["66 bytes", concat([good, "0x00"]), "INVALID_SIGNATURE_LENGTH", "InvalidSignatureLength"],
      ["empty", "0x", "INVALID_SIGNATURE_LENGTH", "InvalidSignatureLength"],
      ["v = 0", concat([slice(good, 0, 64), "0x00"]), "INVALID_SIGNATURE", "InvalidSignature"],
      ["v = 1", concat([slice(good, 0, 64), "0x01"]), "INVALID_SIGNATURE", "InvalidSignature"],
      ["v = 29", concat([slice(good, 0, 64), "0x1d"]), "INVALID_SIGNATURE", "InvalidSignature"],
      ["r = 0", part(0, `0x${"00".repeat(32)}`), "INVALID_SIGNATURE", "InvalidSignature"],
      ["r = n", part(0, numberToHex(SECP256K1_N, { size: 32 })), "INVALID_SIGNATURE", "InvalidSignature"],
      ["r off the curve", part(0, numberToHex(5n, { size: 32 })), "INVALID_SIGNATURE", "InvalidSignature"],
      ["s = 0", part(1, `0x${"00".repeat(32)}`), "INVALID_SIGNATURE", "InvalidSignature"],
      ["s = n/2 + 1", part(1, numberToHex(SECP256K1_N / 2n + 1n, { size: 32 })), "SIGNATURE_MALLEABLE", "SignatureMalleable"],
    ];
    expect(await harness.read.recoverStrict([hash, good])).to.equal(account.address);
    for (const [name, signature, code, errorName] of cases) {
      expect(await tsCode(recoverStrict(hash, signature)), name).to.equal(code);
      expect(await revertName(harness.read.recoverStrict([hash, signature])), name).to.equal(errorName);
    }
  });

  it("toAddress accepts left-padded addresses and rejects 32-byte accounts (NotAnEvmAddress)", async () => {
    const r = randomStream("ferry/to-address");
    const address = r.address();
    expect(await harness.read.toAddress([`0x${"00".repeat(12)}${address.slice(2)}`])).to.equal(address);
    expect(await revertName(harness.read.toAddress([`0x01${"00".repeat(11)}${address.slice(2)}`]))).to.equal("NotAnEvmAddress");
  });
});

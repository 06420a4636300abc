import { expect } from "chai";
import { readFileSync } from "node:fs";
import { concat, encodeAbiParameters, hashStruct, keccak256, numberToHex, pad, stringToBytes, type Hex } from "viem";
import {
  FILL_ATTESTATION_TYPE,
  FILL_TYPEHASH,
  attestationDigest,
  fillDigest,
  normalizeAttestation,
  normalizeFillAttestation,
  normalizeRequestAttestation,
  requestDigest,
} from "../../ts/core/attestationDigest.ts";
import { loadAttestationVectors, type V1VectorInput } from "../vectors/vectorFiles.ts";

const vectors = loadAttestationVectors();

/** The v1 encoding written out word by word: seven static 32-byte words, no viem ABI coder. */
function handRolledRequestDigest(input: V1VectorInput): Hex {
  const word = (value: string): Hex => (value.startsWith("0x") ? pad(value as Hex, { size: 32 }) : numberToHex(BigInt(value), { size: 32 }));
  return keccak256(
    concat([
      word(input.requestId),
      word(input.originChainId),
      word(input.originUser),
      word(input.originCurrency),
      word(input.originAmount),
      word(input.destinationChainId),
      word(input.destinationUser),
    ]),
  );
}

/** The v2 struct declared here again, independently of ts/core, for viem's EIP-712 hashStruct. */
const FILL_TYPES_FOR_TEST = {
  FillAttestation: [
    { name: "requestId", type: "bytes32" },
    { name: "orderId", type: "bytes32" },
    { name: "originChainId", type: "uint256" },
    { name: "originUser", type: "bytes32" },
    { name: "originCurrency", type: "bytes32" },
    { name: "originAmount", type: "uint256" },
    { name: "destinationChainId", type: "uint256" },
    { name: "destinationUser", type: "bytes32" },
    { name: "destinationCurrency", type: "bytes32" },
    { name: "destinationAmount", type: "uint256" },
    { name: "deadline", type: "uint256" },
    { name: "receiver", type: "address" },
  ],
} as const;

/** A loose twin of canonical input: 20-byte addresses where the word is one, JSON numbers where safe, upper-case hex. */
function loosen(input: Record<string, string>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(input)) {
    if (/^0x0{24}[0-9a-f]{40}$/.test(value) && key !== "requestId" && key !== "orderId") out[key] = `0x${value.slice(26)}`;
    else if (/^[0-9]+$/.test(value) && Number.isSafeInteger(Number(value))) out[key] = Number(value);
    else if (value.startsWith("0x") && key !== "receiver") out[key] = `0x${value.slice(2).toUpperCase()}`;
    else out[key] = value;
  }
  return out;
}

describe("attestationDigest", () => {
  it("FILL_TYPEHASH is keccak256 of the type string in AttestationLib.sol", () => {
    const source = readFileSync(new URL("../../contracts/libraries/AttestationLib.sol", import.meta.url), "utf8");
    const typeString = /FILL_TYPEHASH = keccak256\(\s*"([^"]+)"/.exec(source)?.[1];
    expect(typeString).to.equal(FILL_ATTESTATION_TYPE);
    expect(FILL_TYPEHASH).to.equal(keccak256(stringToBytes(typeString!)));
    expect(FILL_TYPEHASH).to.equal(vectors.fillTypehash);
  });

  describe("requestDigest (v1)", () => {
    it("reproduces every vector byte for byte", () => {
      for (const v of vectors.v1) expect(requestDigest(normalizeRequestAttestation(v.input)), v.name).to.equal(v.digest);
    });

    it("equals keccak256(encodeAbiParameters(...)) and a word-by-word encoding of each vector", () => {
      for (const v of vectors.v1) {
        const i = v.input;
        const viaAbi = keccak256(
          encodeAbiParameters(
            [{ type: "bytes32" }, { type: "uint256" }, { type: "bytes32" }, { type: "bytes32" }, { type: "uint256" }, { type: "uint256" }, { type: "bytes32" }],
            [i.requestId as Hex, BigInt(i.originChainId), i.originUser as Hex, i.originCurrency as Hex, BigInt(i.originAmount), BigInt(i.destinationChainId), i.destinationUser as Hex],
          ),
        );
        expect(viaAbi, v.name).to.equal(v.digest);
        expect(handRolledRequestDigest(i), v.name).to.equal(v.digest);
      }
    });

    it("gives the same digest for loose input (20-byte addresses, JSON numbers, upper-case hex)", () => {
      for (const v of vectors.v1) expect(attestationDigest("v1", loosen(v.input)), v.name).to.equal(v.digest);
    });

    it("changes when any single field changes", () => {
      const base = vectors.v1[0]!.input;
      const digests = new Set([requestDigest(normalizeRequestAttestation(base))]);
      for (const key of Object.keys(base) as (keyof V1VectorInput)[]) {
        const value = base[key];
        const changed = value.startsWith("0x") ? `${value.slice(0, -1)}${value.endsWith("0") ? "1" : "0"}` : (BigInt(value) + 1n).toString();
        digests.add(requestDigest(normalizeRequestAttestation({ ...base, [key]: changed })));
      }
      expect(digests.size).to.equal(Object.keys(base).length + 1);
    });
  });

  describe("fillDigest (v2)", () => {
    it("reproduces every vector byte for byte", () => {
      for (const v of vectors.v2) expect(fillDigest(normalizeFillAttestation(v.input)), v.name).to.equal(v.digest);
    });

    it("equals the EIP-712 hashStruct of FillAttestation for each vector", () => {
      for (const v of vectors.v2) {
        const i = v.input;
        const viaEip712 = hashStruct({
          types: FILL_TYPES_FOR_TEST,
          primaryType: "FillAttestation",
          data: {
            requestId: i.requestId as Hex,
            orderId: i.orderId as Hex,
            originChainId: BigInt(i.originChainId),
            originUser: i.originUser as Hex,
            originCurrency: i.originCurrency as Hex,
            originAmount: BigInt(i.originAmount),
            destinationChainId: BigInt(i.destinationChainId),
            destinationUser: i.destinationUser as Hex,
            destinationCurrency: i.destinationCurrency as Hex,
            destinationAmount: BigInt(i.destinationAmount),
            deadline: BigInt(i.deadline),
            receiver: i.receiver as Hex,
          },
        });
        expect(viaEip712, v.name).to.equal(v.digest);
      }
    });

    it("gives the same digest for loose input", () => {
      for (const v of vectors.v2) expect(attestationDigest("v2", loosen(v.input)), v.name).to.equal(v.digest);
    });
  });

  describe("normalizers", () => {
    const v1 = vectors.v1[0]!.input;
    const v2 = vectors.v2[1]!.input;

    it("return bigints and lower-case words", () => {
      const att = normalizeRequestAttestation(loosen(v1));
      expect(att.originAmount).to.equal(BigInt(v1.originAmount));
      expect(att.originUser).to.equal(v1.originUser);
      expect(normalizeAttestation("v2", v2).receiver).to.equal(v2.receiver);
      expect(normalizeFillAttestation(v2).deadline).to.equal(BigInt(v2.deadline));
    });

    it("reject a missing field with INVALID_INPUT naming it", () => {
      const { destinationUser: _omitted, ...missing } = v1;
      expect(() => normalizeRequestAttestation(missing)).to.throw().with.property("path", "destinationUser");
      expect(() => normalizeRequestAttestation(missing)).to.throw().with.property("code", "INVALID_INPUT");
      const { receiver: _r, ...noReceiver } = v2;
      expect(() => normalizeFillAttestation(noReceiver)).to.throw().with.property("path", "receiver");
    });

    it("reject users that are neither 20 nor 32 bytes with INVALID_ADDRESS", () => {
      for (const bad of ["0x1234", `0x${"11".repeat(21)}`, `0x${"11".repeat(33)}`, "not-hex", 7]) {
        expect(() => normalizeRequestAttestation({ ...v1, originUser: bad })).to.throw().with.property("code", "INVALID_ADDRESS");
      }
    });

    it("reject a 32-byte receiver: the receiver is an EVM contract", () => {
      expect(() => normalizeFillAttestation({ ...v2, receiver: v2.originUser })).to.throw().with.property("code", "INVALID_ADDRESS");
    });

    it("reject bad numbers and ids with INVALID_INPUT", () => {
      expect(() => normalizeRequestAttestation({ ...v1, originAmount: 2 ** 60 })).to.throw().with.property("code", "INVALID_INPUT");
      expect(() => normalizeRequestAttestation({ ...v1, originAmount: "-5" })).to.throw().with.property("code", "INVALID_INPUT");
      expect(() => normalizeRequestAttestation({ ...v1, requestId: "0x1234" })).to.throw().with.property("code", "INVALID_INPUT");
      expect(() => normalizeFillAttestation({ ...v2, orderId: undefined })).to.throw().with.property("code", "INVALID_INPUT");
      expect(() => normalizeRequestAttestation("not an object")).to.throw().with.property("code", "INVALID_INPUT");
    });

    it("reject an unknown format", () => {
      expect(() => attestationDigest("v3" as "v1", v1)).to.throw().with.property("code", "INVALID_INPUT");
      expect(() => normalizeAttestation("v3" as "v1", v1)).to.throw().with.property("code", "INVALID_INPUT");
    });
  });
});

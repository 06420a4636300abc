import { expect } from "chai";
import { readFileSync } from "node:fs";
import { hashStruct, keccak256, maxUint256, numberToHex, recoverMessageAddress, slice, toFunctionSelector, toHex } from "viem";
import { mnemonicToAccount, privateKeyToAccount } from "viem/accounts";
import { normalizeFillAttestation } from "../../ts/core/attestationDigest.ts";
import { fitsPackedFill } from "../../ts/core/fillCalldata.ts";
import { VECTOR_PRIVATE_KEY, generateVectors } from "./generate.ts";
import { ATTESTATION_VECTORS_PATH, CALLDATA_VECTORS_PATH, ORDER_ID_VECTORS_PATH, loadAttestationVectors, loadCalldataVectors } from "./vectorFiles.ts";

const vectors = loadAttestationVectors();
const ZERO32 = `0x${"00".repeat(32)}`;
const isNonEvmWord = (word: string) => /^0x[0-9a-f]{64}$/.test(word) && !word.startsWith(`0x${"00".repeat(12)}`);

describe("shared vectors", () => {
  it("are signed with Hardhat account #0", () => {
    const hardhat0 = mnemonicToAccount("test test test test test test test test test test test junk");
    expect(privateKeyToAccount(VECTOR_PRIVATE_KEY).address).to.equal(hardhat0.address);
    expect(vectors.signer).to.equal(hardhat0.address);
    for (const v of [...vectors.v1, ...vectors.v2]) expect(v.signer, v.name).to.equal(hardhat0.address);
  });

  it("are what test/vectors/generate.ts produces (the committed files are current)", async () => {
    const { attestations, orderIds, calldata } = await generateVectors();
    expect(JSON.parse(readFileSync(ATTESTATION_VECTORS_PATH, "utf8"))).to.deep.equal(attestations);
    expect(JSON.parse(readFileSync(ORDER_ID_VECTORS_PATH, "utf8"))).to.deep.equal(orderIds);
    expect(JSON.parse(readFileSync(CALLDATA_VECTORS_PATH, "utf8"))).to.deep.equal(calldata);
  });

  for (const format of ["v1", "v2"] as const) {
    describe(format, () => {
      const cases = vectors[format] as { name: string; input: Record<string, string> }[];

      it("has at least 8 cases with unique names and string-only input fields", () => {
        expect(cases.length).to.be.at.least(8);
        expect(new Set(cases.map((c) => c.name)).size).to.equal(cases.length);
        for (const c of cases) for (const value of Object.values(c.input)) expect(value, c.name).to.be.a("string");
      });

      it("covers zero amounts, max uint256, 32-byte non-EVM users and the native zero currency", () => {
        const values = cases.flatMap((c) => Object.entries(c.input));
        expect(values.some(([k, v]) => k.endsWith("Amount") && v === "0")).to.equal(true);
        expect(values.some(([k, v]) => k.endsWith("Amount") && v === maxUint256.toString())).to.equal(true);
        expect(values.some(([k, v]) => k.endsWith("User") && isNonEvmWord(v) && v !== `0x${"ff".repeat(32)}`)).to.equal(true);
        expect(values.some(([k, v]) => k.endsWith("Currency") && v === ZERO32)).to.equal(true);
      });
    });
  }

  describe("calls and gate attestations", () => {
    // Recomputed here without ts/core: viem's EIP-712 hashStruct of the calls type, and the gate
    // digest's four words encoded by hand.
    const CALLS_TYPES = {
      CallsFillAttestation: [
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

    it("each v2 vector's calls digest is the EIP-712 hashStruct of CallsFillAttestation, and differs from its fill digest", async () => {
      const fields = CALLS_TYPES.CallsFillAttestation.map((f) => `${f.type} ${f.name}`).join(",");
      expect(vectors.callsFillTypehash).to.equal(keccak256(toHex(`CallsFillAttestation(${fields})`)));
      for (const v of vectors.v2) {
        const message = normalizeFillAttestation(v.input);
        expect(v.callsDigest, v.name).to.equal(hashStruct({ data: message, primaryType: "CallsFillAttestation", types: CALLS_TYPES }));
        expect(v.callsDigest, v.name).to.not.equal(v.digest);
        expect(await recoverMessageAddress({ message: { raw: v.callsDigest }, signature: v.callsSignature }), v.name).to.equal(vectors.signer);
      }
    });

    it("each gate vector binds its attestation's digest to the gate and the origin chain", async () => {
      expect(vectors.gateTypehash).to.equal(keccak256(toHex("GateAttestation(bytes32 attestation,address gate,uint256 chainId)")));
      expect(vectors.gate.length).to.be.at.least(6);
      for (const g of vectors.gate) {
        const source = (g.format === "v1" ? vectors.v1 : vectors.v2).find((v) => `${g.format} ${v.name}` === g.name)!;
        expect(g.attestationDigest, g.name).to.equal(source.digest);
        expect(g.chainId, g.name).to.equal(source.input.originChainId);
        const words = `0x${vectors.gateTypehash.slice(2)}${g.attestationDigest.slice(2)}${g.gate.slice(2).toLowerCase().padStart(64, "0")}${BigInt(g.chainId).toString(16).padStart(64, "0")}` as const;
        expect(g.digest, g.name).to.equal(keccak256(words));
        expect(await recoverMessageAddress({ message: { raw: g.digest }, signature: g.signature }), g.name).to.equal(vectors.signer);
      }
    });
  });

  describe("compact calldata", () => {
    const calldata = loadCalldataVectors();
    const word = (value: string | bigint) => numberToHex(BigInt(value), { size: 32 }).slice(2);

    it("has one fill per v2 vector with a packed form, sent to the vector's own chain and receiver, with the v2 digest", () => {
      const fits = vectors.v2.filter((v) => fitsPackedFill(normalizeFillAttestation(v.input)));
      expect(calldata.fill.map((v) => v.name)).to.deep.equal(fits.map((v) => v.name));
      expect(calldata.noPackedForm).to.deep.equal(vectors.v2.filter((v) => !fits.includes(v)).map((v) => v.name));
      expect(calldata.fill.length).to.be.at.least(5);
      for (const [i, v] of calldata.fill.entries()) {
        expect(v.digest, v.name).to.equal(fits[i]!.digest);
        expect(v.signature, v.name).to.equal(fits[i]!.signature);
        expect(v.target, v.name).to.deep.equal({ chainId: fits[i]!.input.destinationChainId, receiver: fits[i]!.input.receiver });
      }
    });

    it("fill calldata is fill_7hVe's selector and the packed fields at their widths and (r, vs), written out by hand", () => {
      const selector = toFunctionSelector("fill_7hVe()");
      expect(selector).to.equal("0x00000026");
      const fits = vectors.v2.filter((v) => fitsPackedFill(normalizeFillAttestation(v.input)));
      for (const [i, v] of calldata.fill.entries()) {
        const a = normalizeFillAttestation(fits[i]!.input);
        const n = (value: bigint, bytes: number) => numberToHex(value, { size: bytes }).slice(2);
        const packed = [a.requestId.slice(2), a.orderId.slice(2), n(a.originChainId, 8), a.originUser.slice(2), a.originCurrency.slice(2),
          n(a.originAmount, 16), a.destinationUser.slice(26), a.destinationCurrency.slice(26), n(a.destinationAmount, 16), n(a.deadline, 5),
          v.compactSignature.r.slice(2), v.compactSignature.vs.slice(2)].join("");
        expect(packed.length / 2, v.name).to.equal(277);
        expect(v.packed, v.name).to.equal(`0x${packed}`);
        expect(v.calldata, v.name).to.equal(`${selector}${packed}`);
        // EIP-2098 by hand: vs = (v - 27) << 255 | s.
        const s = BigInt(slice(v.signature, 32, 64));
        const parity = BigInt(slice(v.signature, 64, 65)) - 27n;
        expect(v.compactSignature, v.name).to.deep.equal({ r: slice(v.signature, 0, 32), vs: numberToHex((parity << 255n) | s, { size: 32 }) });
      }
    });

    it("deposit and execute calldata are the mined selectors and the ABI words, by hand", () => {
      for (const v of calldata.deposits) {
        const expected =
          v.kind === "native"
            ? `${toFunctionSelector("depositNative_irOEa(bytes32)")}${v.id.slice(2)}`
            : `${toFunctionSelector("depositErc20_6R0X4(address,uint256,bytes32)")}${v.token.slice(2).toLowerCase().padStart(64, "0")}${word(v.amount)}${v.id.slice(2)}`;
        expect(v.calldata, v.name).to.equal(expected);
        expect(v.value, v.name).to.equal(v.kind === "native" ? v.amount : "0");
      }
      for (const v of calldata.execute) {
        expect(v.calldata.slice(0, 10), v.name).to.equal(toFunctionSelector("execute_kJ9b8(((address,address,uint256)[],uint256,uint256),(bytes32,bytes32))"));
        expect(v.calldata.slice(0, 8), v.name).to.equal("0x000000");
        // The head: the request's offset (three head words), then r and vs in place.
        expect(v.calldata.slice(10, 10 + 64 * 3), v.name).to.equal(`${word(0x60n)}${v.compactSignature.r.slice(2)}${v.compactSignature.vs.slice(2)}`);
      }
    });
  });
});

import { expect } from "chai";
import { readFileSync } from "node:fs";
import { maxUint256 } from "viem";
import { mnemonicToAccount, privateKeyToAccount } from "viem/accounts";
import { VECTOR_PRIVATE_KEY, generateVectors } from "./generate.ts";
import { ATTESTATION_VECTORS_PATH, ORDER_ID_VECTORS_PATH, loadAttestationVectors } from "./vectorFiles.ts";

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
    const { attestations, orderIds } = await generateVectors();
    expect(JSON.parse(readFileSync(ATTESTATION_VECTORS_PATH, "utf8"))).to.deep.equal(attestations);
    expect(JSON.parse(readFileSync(ORDER_ID_VECTORS_PATH, "utf8"))).to.deep.equal(orderIds);
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
});

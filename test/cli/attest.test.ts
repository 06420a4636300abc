import { expect } from "chai";
import { encodeAbiParameters, getAddress, hashStruct, keccak256, maxUint256, verifyMessage, type Hex } from "viem";
import { loadAttestationVectors } from "../vectors/vectorFiles.ts";
import { VECTOR_PRIVATE_KEY } from "../vectors/generate.ts";
import { highSTwin } from "../core/signatureFixtures.ts";
import { errorLine, runCli, runCliInProcess, tempFiles } from "./runCli.ts";

const vectors = loadAttestationVectors();
const v1 = vectors.v1[0]!;
const v2 = vectors.v2[1]!; // deadline 1767225600
const files = tempFiles({
  "v1.json": JSON.stringify(v1.input),
  "v2.json": JSON.stringify(v2.input),
  "v1-loose.json": JSON.stringify({ ...v1.input, originChainId: 1, originUser: `0x${v1.input.originUser.slice(26)}`, originAmount: 1000000 }),
  "v1-huge-number.json": `{"requestId":"${v1.input.requestId}","originChainId":1,"originUser":"${v1.input.originUser}","originCurrency":"${v1.input.originCurrency}","originAmount":${maxUint256},"destinationChainId":8453,"destinationUser":"${v1.input.destinationUser}"}`,
  "v1-bad-user.json": JSON.stringify({ ...v1.input, originUser: "0x1234" }),
  "broken.json": "{ not json",
});
const KEY_ENV = { FERRY_ATTESTER_KEY: VECTOR_PRIVATE_KEY };

describe("ferry attest", () => {
  describe("digest", () => {
    it("prints every vector's digest on one line", async () => {
      for (const [format, cases] of [["v1", vectors.v1], ["v2", vectors.v2]] as const) {
        for (const v of cases) {
          const run = await runCliInProcess(["attest", "digest", "--format", format, "-"], { input: JSON.stringify(v.input) });
          expect(run.status, `${format} ${v.name}: ${run.stderr}`).to.equal(0);
          expect(run.stdout, v.name).to.equal(`${v.digest}\n`);
        }
      }
    });

    it("matches digests computed here with viem's ABI encoder and EIP-712 hashStruct", async () => {
      const i = v1.input;
      const expectedV1 = keccak256(
        encodeAbiParameters(
          [{ type: "bytes32" }, { type: "uint256" }, { type: "bytes32" }, { type: "bytes32" }, { type: "uint256" }, { type: "uint256" }, { type: "bytes32" }],
          [i.requestId as Hex, BigInt(i.originChainId), i.originUser as Hex, i.originCurrency as Hex, BigInt(i.originAmount), BigInt(i.destinationChainId), i.destinationUser as Hex],
        ),
      );
      expect((await runCliInProcess(["attest", "digest", "--format", "v1", files["v1.json"]])).stdout.trim()).to.equal(expectedV1);

      const j = v2.input;
      const b32 = (name: string) => ({ name, type: "bytes32" }) as const;
      const u256 = (name: string) => ({ name, type: "uint256" }) as const;
      const expectedV2 = hashStruct({
        types: {
          FillAttestation: [b32("requestId"), b32("orderId"), u256("originChainId"), b32("originUser"), b32("originCurrency"), u256("originAmount"), u256("destinationChainId"), b32("destinationUser"), b32("destinationCurrency"), u256("destinationAmount"), u256("deadline"), { name: "receiver", type: "address" }],
        },
        primaryType: "FillAttestation",
        data: { ...j, originChainId: BigInt(j.originChainId), originAmount: BigInt(j.originAmount), destinationChainId: BigInt(j.destinationChainId), destinationAmount: BigInt(j.destinationAmount), deadline: BigInt(j.deadline) } as never,
      });
      expect((await runCliInProcess(["attest", "digest", "--format", "v2", files["v2.json"]])).stdout.trim()).to.equal(expectedV2);
    });

    it("accepts loose input (20-byte addresses, JSON numbers) and --json anywhere", async () => {
      expect(runCli(["attest", "digest", "--format", "v1", files["v1-loose.json"]]).stdout).to.equal(`${v1.digest}\n`);
      for (const args of [
        ["attest", "digest", "--json", "--format", "v1", files["v1.json"]],
        ["--json", "attest", "digest", "--format", "v1", files["v1.json"]],
        ["attest", "--json", "digest", "--format", "v1", files["v1.json"]],
      ]) {
        const run = await runCliInProcess(args);
        expect(run.status).to.equal(0);
        expect(JSON.parse(run.stdout)).to.deep.equal({ format: "v1", digest: v1.digest });
      }
    });

    it("exits 2 with one stderr line on bad input", async () => {
      const cases: [string[], string][] = [
        [["attest", "digest", "--format", "v1", files["broken.json"]], "INVALID_INPUT"],
        [["attest", "digest", "--format", "v1", "/nonexistent/att.json"], "INVALID_INPUT"],
        [["attest", "digest", "--format", "v1", files["v1-bad-user.json"]], "INVALID_ADDRESS"],
        [["attest", "digest", "--format", "v1", files["v1-huge-number.json"]], "INVALID_INPUT"],
        [["attest", "digest", "--format", "v2", files["v1.json"]], "INVALID_INPUT"],
        [["attest", "digest", "--format", "v3", files["v1.json"]], "USAGE"],
        [["attest", "digest", files["v1.json"]], "USAGE"],
        [["attest", "digest", "--format", "v1"], "USAGE"],
        [["attest", "digest", "--format", "v1", files["v1.json"], files["v2.json"]], "USAGE"],
        [["attest", "digest", "--format", "v1", "--frobnicate", files["v1.json"]], "USAGE"],
      ];
      for (const [args, code] of cases) {
        const run = await runCliInProcess(args);
        expect(run.status, args.join(" ")).to.equal(2);
        expect(run.stdout, args.join(" ")).to.equal("");
        expect(errorLine(run), args.join(" ")).to.match(new RegExp(`^ferry: ${code}: `));
      }
    });

    it("reports errors as one JSON line on stderr with --json", async () => {
      const run = await runCliInProcess(["attest", "digest", "--json", "--format", "v1", files["v1-bad-user.json"]]);
      expect(run.status).to.equal(2);
      expect(JSON.parse(errorLine(run))).to.have.nested.property("error.code", "INVALID_ADDRESS");
    });

    it("refuses a v2 document under --format v1: exit 2, one stderr line naming the v2 fields", async () => {
      for (const command of [["digest"], ["sign"], ["verify", "--signature", v2.signature, "--signer", "0x0000000000000000000000000000000000000001"]]) {
        const run = await runCliInProcess(["attest", ...command, "--format", "v1", files["v2.json"]], { env: KEY_ENV });
        expect(run.status, command[0]).to.equal(2);
        expect(run.stdout, command[0]).to.equal("");
        expect(run.stderr.trimEnd().split("\n"), command[0]).to.have.length(1);
        expect(errorLine(run)).to.match(/^ferry: INVALID_INPUT: .*v2 attestation.*orderId.*--format v2/);
      }
    });
  });

  describe("sign", () => {
    it("prints the vector signature with the key from FERRY_ATTESTER_KEY, never the key", async () => {
      for (const [format, v, file] of [["v1", v1, files["v1.json"]], ["v2", v2, files["v2.json"]]] as const) {
        const run = await runCliInProcess(["attest", "sign", "--format", format, file], { env: KEY_ENV });
        expect(run.status, run.stderr).to.equal(0);
        expect(run.stdout).to.equal(`${v.signature}\n`);
        expect(run.stdout + run.stderr).to.not.include(VECTOR_PRIVATE_KEY.slice(2));
      }
    });

    it("signs the raw digest (checked with viem's verifyMessage) and gives digest and signer with --json", async () => {
      const run = runCli(["attest", "sign", "--json", "--format", "v1", "-"], { env: KEY_ENV, input: JSON.stringify(v1.input) });
      const out = JSON.parse(run.stdout) as { digest: Hex; signature: Hex; signer: Hex };
      expect(out).to.deep.equal({ format: "v1", digest: v1.digest, signature: v1.signature, signer: v1.signer });
      expect(await verifyMessage({ address: v1.signer, message: { raw: v1.digest }, signature: out.signature })).to.equal(true);
    });

    it("exits 2 without a usable key and does not echo it", async () => {
      const missing = runCli(["attest", "sign", "--format", "v1", files["v1.json"]]);
      expect(missing.status).to.equal(2);
      expect(errorLine(missing)).to.match(/^ferry: USAGE: FERRY_ATTESTER_KEY/);
      for (const key of ["0x1234", `0x${"zz".repeat(32)}`, `0x${"00".repeat(32)}`, `0x${"ff".repeat(32)}`, VECTOR_PRIVATE_KEY.slice(2)]) {
        const run = await runCliInProcess(["attest", "sign", "--format", "v1", files["v1.json"]], { env: { FERRY_ATTESTER_KEY: key } });
        expect(run.status, key).to.equal(2);
        expect(run.stdout + run.stderr, key).to.not.include(key.replace(/^0x/, ""));
      }
    });

    it("has no flag for the key", async () => {
      const run = await runCliInProcess(["attest", "sign", "--format", "v1", "--key", VECTOR_PRIVATE_KEY, files["v1.json"]]);
      expect(run.status).to.equal(2);
    });
  });

  describe("verify", () => {
    const verifyArgs = (file: string, extra: string[]) => ["attest", "verify", "--format", file === files["v1.json"] ? "v1" : "v2", ...extra, file];
    const verify = (file: string, ...extra: string[]) => runCliInProcess(verifyArgs(file, extra));
    // The bin's own exit code for each verdict (0 valid, 1 invalid); the other cases run in process.
    const verifySpawned = (file: string, ...extra: string[]) => runCli(verifyArgs(file, extra));

    it("exits 0 for a valid signature (signers case-insensitive, repeatable or comma-separated)", async () => {
      for (const [index, signers] of [["--signer", v1.signer], ["--signer", v1.signer.toLowerCase()], ["--signer", "0x0000000000000000000000000000000000000001", "--signer", v1.signer], ["--signer", `0x0000000000000000000000000000000000000001,${v1.signer}`]].entries()) {
        const run = await (index === 0 ? verifySpawned : verify)(files["v1.json"], "--signature", v1.signature, ...signers);
        expect(run.status, run.stderr).to.equal(0);
        expect(run.stdout).to.include(v1.signer);
      }
    });

    it("exits 1 with the reason code on stderr for an invalid one", async () => {
      const cases: [string[], string][] = [
        [[files["v1.json"], "--signature", v1.signature, "--signer", "0x0000000000000000000000000000000000000001"], "SIGNER_NOT_ALLOWED"],
        [[files["v1.json"], "--signature", highSTwin(v1.signature), "--signer", v1.signer], "SIGNATURE_MALLEABLE"],
        [[files["v1.json"], "--signature", v1.signature.slice(0, 130), "--signer", v1.signer], "INVALID_SIGNATURE_LENGTH"],
        [[files["v1.json"], "--signature", "nothex", "--signer", v1.signer], "INVALID_SIGNATURE"],
        [[files["v2.json"], "--signature", v2.signature, "--signer", v2.signer, "--now", String(BigInt(v2.input.deadline) + 1n)], "ATTESTATION_EXPIRED"],
      ];
      for (const [index, [[file, ...extra], code]] of cases.entries()) {
        const run = await (index === 0 ? verifySpawned : verify)(file!, ...extra);
        expect(run.status, `${code}: ${run.stderr}`).to.equal(1);
        expect(errorLine(run)).to.match(new RegExp(`^ferry: ${code}: `));
      }
    });

    it("with --chain-id and --receiver, names the field that differs from where the fill goes (FILL_TARGET_MISMATCH)", async () => {
      const base = [files["v2.json"], "--signature", v2.signature, "--signer", v2.signer, "--now", v2.input.deadline];
      const here = ["--chain-id", String(v2.input.destinationChainId), "--receiver", v2.input.receiver];
      expect((await verify(...(base as [string, ...string[]]), ...here)).status).to.equal(0);
      const otherChain = await verify(...(base as [string, ...string[]]), "--chain-id", "999", "--receiver", v2.input.receiver);
      expect(otherChain.status, otherChain.stderr).to.equal(1);
      expect(errorLine(otherChain)).to.match(/^ferry: FILL_TARGET_MISMATCH: attestation destinationChainId /);
      const otherReceiver = await verify(...(base as [string, ...string[]]), "--chain-id", String(v2.input.destinationChainId), "--receiver", "0x0000000000000000000000000000000000000001");
      expect(otherReceiver.status, otherReceiver.stderr).to.equal(1);
      expect(errorLine(otherReceiver)).to.match(/^ferry: FILL_TARGET_MISMATCH: attestation receiver /);
      // Half a target, or a target for v1, is a usage error.
      expect((await verify(...(base as [string, ...string[]]), "--chain-id", "1")).status).to.equal(2);
    });

    it("uses --now for the v2 deadline (valid through the deadline second)", async () => {
      expect((await verify(files["v2.json"], "--signature", v2.signature, "--signer", v2.signer, "--now", v2.input.deadline)).status).to.equal(0);
    });

    it("gives a JSON verdict with --json", async () => {
      const ok = await verify(files["v1.json"], "--json", "--signature", v1.signature, "--signer", v1.signer);
      expect(JSON.parse(ok.stdout)).to.deep.equal({ valid: true, format: "v1", signer: v1.signer, digest: v1.digest });
      const bad = await verify(files["v1.json"], "--json", "--signature", highSTwin(v1.signature), "--signer", v1.signer);
      expect(bad.status).to.equal(1);
      expect(JSON.parse(bad.stdout)).to.have.nested.property("error.code", "SIGNATURE_MALLEABLE");
      expect(JSON.parse(errorLine(bad))).to.have.nested.property("error.code", "SIGNATURE_MALLEABLE");
    });

    it("exits 2 on bad input rather than calling it invalid", async () => {
      const cases: string[][] = [
        [files["v1.json"], "--signature", v1.signature],
        [files["v1.json"], "--signer", v1.signer],
        [files["v1.json"], "--signature", v1.signature, "--signer", "0x1234"],
        [files["v2.json"], "--signature", v2.signature, "--signer", v2.signer, "--now", "yesterday"],
        [files["v1-bad-user.json"], "--signature", v1.signature, "--signer", v1.signer],
      ];
      for (const [file, ...extra] of cases) expect((await verify(file!, ...extra)).status, extra.join(" ")).to.equal(2);
    });

    it("reads addresses as EIP-55 says: all-uppercase is accepted, a mixed case that is not the checksum is INVALID_ADDRESS (exit 2)", async () => {
      const upper = `0x${v2.signer.slice(2).toUpperCase()}`;
      const ok = await verify(files["v2.json"], "--signature", v2.signature, "--signer", upper, "--now", v2.input.deadline);
      expect(ok.status, ok.stderr).to.equal(0);
      const receiverUpper = `0x${v2.input.receiver.slice(2).toUpperCase()}`;
      const target = await verify(files["v2.json"], "--signature", v2.signature, "--signer", v2.signer, "--now", v2.input.deadline, "--chain-id", String(v2.input.destinationChainId), "--receiver", receiverUpper);
      expect(target.status, target.stderr).to.equal(0);
      // One character's case flipped: a typo the checksum catches.
      const flip = (address: string) => {
        const i = [...address].findIndex((c, j) => j > 1 && /[a-fA-F]/.test(c));
        const c = address[i]!;
        return address.slice(0, i) + (c === c.toUpperCase() ? c.toLowerCase() : c.toUpperCase()) + address.slice(i + 1);
      };
      const mixed = getAddress(v2.signer);
      for (const extra of [
        ["--signer", flip(mixed)],
        ["--signer", v2.signer, "--chain-id", String(v2.input.destinationChainId), "--receiver", flip(getAddress(v2.input.receiver))],
      ]) {
        const run = await verify(files["v2.json"], "--signature", v2.signature, "--now", v2.input.deadline, ...extra);
        expect(run.status, extra.join(" ")).to.equal(2);
        expect(errorLine(run)).to.match(/^ferry: INVALID_ADDRESS: /);
      }
    });
  });
});

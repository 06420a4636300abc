import { expect } from "chai";
import { createHmac } from "node:crypto";
import { errorLine, runCli, tempFiles } from "./runCli.ts";

const SECRET = "ferry_api_key_for_tests";
const TIMESTAMP = "1767225600";
const BODY = Buffer.from('{"event":"request.status.updated","timestamp":1767225600000,"data":{"status":"success"}}\r\n\n  ', "utf8");
const BINARY = Buffer.from([0x00, 0xff, 0xfe, 0x0a, 0x0d, 0x20]);
const hmac = (body: Buffer, timestamp = TIMESTAMP, secret = SECRET) =>
  createHmac("sha256", secret).update(Buffer.concat([Buffer.from(`${timestamp}.`), body])).digest("hex");
const files = tempFiles({ "body.json": BODY, "binary.bin": BINARY, "empty.txt": "" });

describe("ferry webhook", () => {
  describe("sign", () => {
    it("prints the lower-case hex HMAC over the file's exact bytes (trailing whitespace and binary included)", () => {
      for (const [file, bytes] of [[files["body.json"], BODY], [files["binary.bin"], BINARY], [files["empty.txt"], Buffer.alloc(0)]] as const) {
        const run = runCli(["webhook", "sign", "--secret", SECRET, "--timestamp", TIMESTAMP, file]);
        expect(run.status, run.stderr).to.equal(0);
        expect(run.stdout).to.equal(`${hmac(bytes)}\n`);
      }
    });

    it("reads stdin with -, the secret from FERRY_WEBHOOK_SECRET, and prints JSON with --json", () => {
      const run = runCli(["webhook", "sign", "--json", "--timestamp", TIMESTAMP, "-"], { input: BODY, env: { FERRY_WEBHOOK_SECRET: SECRET } });
      expect(run.status, run.stderr).to.equal(0);
      expect(JSON.parse(run.stdout)).to.deep.equal({ timestamp: TIMESTAMP, signature: hmac(BODY) });
    });

    it("exits 2 without a secret or timestamp, or with a bad timestamp", () => {
      for (const args of [["--timestamp", TIMESTAMP], ["--secret", SECRET], ["--secret", SECRET, "--timestamp", "12.5"], ["--secret", SECRET, "--timestamp", "-1"]]) {
        const run = runCli(["webhook", "sign", ...args, files["body.json"]]);
        expect(run.status, args.join(" ")).to.equal(2);
        expect(errorLine(run)).to.match(/^ferry: USAGE: /);
      }
    });
  });

  describe("verify", () => {
    const verify = (extra: string[], file = files["body.json"]) =>
      runCli(["webhook", "verify", "--secret", SECRET, "--timestamp", TIMESTAMP, ...extra, file]);

    it("exits 0 for a good signature within the tolerance", () => {
      expect(verify(["--signature", hmac(BODY), "--now", TIMESTAMP]).status).to.equal(0);
      expect(verify(["--signature", hmac(BODY), "--now", String(Number(TIMESTAMP) + 300)]).status).to.equal(0);
      expect(verify(["--signature", hmac(BINARY), "--now", TIMESTAMP], files["binary.bin"]).status).to.equal(0);
    });

    it("accepts the signature with a 0x prefix", () => {
      for (const prefix of ["0x", "0X"]) {
        const run = verify(["--signature", `${prefix}${hmac(BODY)}`, "--now", TIMESTAMP]);
        expect(run.status, `${prefix}: ${run.stderr}`).to.equal(0);
      }
      expect(verify(["--signature", `0x${hmac(BODY, TIMESTAMP, "other-secret")}`, "--now", TIMESTAMP]).status).to.equal(1);
    });

    it("exits 1 with the reason for a wrong signature, a changed body or a stale timestamp", () => {
      const cases: [string[], string, string?][] = [
        [["--signature", hmac(BODY, TIMESTAMP, "other-secret"), "--now", TIMESTAMP], "WEBHOOK_SIGNATURE_MISMATCH"],
        [["--signature", hmac(BODY.subarray(0, -1)), "--now", TIMESTAMP], "WEBHOOK_SIGNATURE_MISMATCH"],
        [["--signature", hmac(BODY).slice(2), "--now", TIMESTAMP], "WEBHOOK_SIGNATURE_MISMATCH"],
        [["--signature", hmac(BODY), "--now", String(Number(TIMESTAMP) + 301)], "WEBHOOK_TIMESTAMP_OUT_OF_TOLERANCE"],
        [["--signature", hmac(BODY), "--now", String(Number(TIMESTAMP) + 11), "--tolerance", "10"], "WEBHOOK_TIMESTAMP_OUT_OF_TOLERANCE"],
      ];
      for (const [extra, code] of cases) {
        const run = verify(extra);
        expect(run.status, extra.join(" ")).to.equal(1);
        expect(errorLine(run)).to.match(new RegExp(`^ferry: ${code}: `));
      }
    });

    it("gives a JSON verdict with --json", () => {
      const ok = verify(["--json", "--signature", hmac(BODY), "--now", TIMESTAMP]);
      expect(JSON.parse(ok.stdout)).to.deep.equal({ valid: true, timestamp: Number(TIMESTAMP) });
      const bad = verify(["--json", "--signature", "00", "--now", TIMESTAMP]);
      expect(bad.status).to.equal(1);
      expect(JSON.parse(bad.stdout)).to.have.nested.property("error.code", "WEBHOOK_SIGNATURE_MISMATCH");
    });

    it("exits 2 on bad flags", () => {
      for (const extra of [[], ["--signature", hmac(BODY), "--tolerance", "five"], ["--signature", hmac(BODY), "--now", "now"], ["--signature", hmac(BODY), "--bogus"]]) {
        expect(verify(extra).status, extra.join(" ")).to.equal(2);
      }
      expect(runCli(["webhook", "verify", "--secret", SECRET, "--timestamp", TIMESTAMP, "--signature", hmac(BODY), "/nonexistent"]).status).to.equal(2);
    });
  });
});

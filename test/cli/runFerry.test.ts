import { expect } from "chai";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { errorLine, REPO_ROOT, runCli } from "./runCli.ts";

describe("ferry dispatcher", () => {
  it("prints the version of the package it runs from with --version and -V (and as JSON with --json), exit 0", () => {
    const { version } = JSON.parse(readFileSync(join(REPO_ROOT, "package.json"), "utf8")) as { version: string };
    for (const args of [["--version"], ["-V"]]) {
      const run = runCli(args);
      expect(run.status, `${args[0]}: ${run.stderr}`).to.equal(0);
      expect(run.stdout).to.equal(`${version}\n`);
    }
    const json = runCli(["--json", "--version"]);
    expect(JSON.parse(json.stdout)).to.deep.equal({ name: "ferry", version });
    expect(runCli(["--help"]).stdout).to.include("--version");
  });

  it("prints help with --help, -h and help, listing the commands, exit 0", () => {
    for (const args of [["--help"], ["-h"], ["help"]]) {
      const run = runCli(args);
      expect(run.status, args.join(" ")).to.equal(0);
      expect(run.stdout).to.match(/^Usage: ferry/);
      for (const command of ["attest", "order-id", "webhook"]) expect(run.stdout).to.include(command);
    }
  });

  it("prints per-command help, exit 0", () => {
    for (const args of [["attest", "--help"], ["attest", "digest", "--help"], ["attest", "verify", "-h"], ["help", "attest"], ["order-id", "--help"], ["webhook", "--help"], ["webhook", "sign", "--help"], ["--help", "webhook"]]) {
      const run = runCli(args);
      expect(run.status, args.join(" ")).to.equal(0);
      expect(run.stdout, args.join(" ")).to.match(/^Usage: ferry (attest|order-id|webhook)/);
    }
  });

  it("prints each subcommand's own help: its usage line and its options only, exit 0", () => {
    const cases: [string[], RegExp, RegExp][] = [
      [["attest", "digest", "--help"], /^Usage: ferry attest digest /, /--signature/],
      [["attest", "verify", "-h"], /^Usage: ferry attest verify [^]*--signer/, /print the 0x digest/],
      [["webhook", "verify", "--help"], /^Usage: ferry webhook verify [^]*--tolerance/, /print the X-Signature-SHA256 value/],
      [["keys", "create", "--help"], /^Usage: ferry keys create [^]*--rate-limit/, /revoke a key/],
      [["webhooks", "log", "--help"], /^Usage: ferry webhooks log [^]*--request/, /--url/],
      [["--help", "webhooks", "show"], /^Usage: ferry webhooks show /, /redeliver/],
    ];
    for (const [args, shows, omits] of cases) {
      const run = runCli(args);
      expect(run.status, args.join(" ")).to.equal(0);
      expect(run.stdout, args.join(" ")).to.match(shows);
      expect(run.stdout, args.join(" ")).not.to.match(omits);
    }
  });

  it("exits 2 with one stderr line for unknown or missing commands and flags", () => {
    for (const args of [[], ["deploy"], ["devnet"], ["keys", "create"], ["attest"], ["attest", "frobnicate"], ["webhook", "send"], ["--verbose", "attest"], ["help", "nope"]]) {
      const run = runCli(args);
      expect(run.status, args.join(" ")).to.equal(2);
      expect(run.stdout, args.join(" ")).to.equal("");
      expect(errorLine(run), args.join(" ")).to.match(/^ferry: USAGE: /);
    }
  });

  it("writes errors as JSON on stderr with --json", () => {
    const run = runCli(["--json", "frobnicate"]);
    expect(run.status).to.equal(2);
    expect(JSON.parse(errorLine(run))).to.deep.include({ error: { code: "USAGE", message: 'unknown command "frobnicate" (see ferry --help)' } });
  });
});

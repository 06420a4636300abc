import { expect } from "chai";
import { execFileSync, spawnSync } from "node:child_process";
import { loadAttestationVectors } from "../vectors/vectorFiles.ts";
import { BIN, REPO_ROOT, runCli, tempFiles } from "./runCli.ts";

const v1 = loadAttestationVectors().v1[0]!;
const files = tempFiles({ "v1.json": JSON.stringify(v1.input) });

/** A Node older than 22.18 on this machine (the system Node 20 on project machines), if any. */
function oldNode(): string | undefined {
  for (const candidate of ["/usr/bin/node", "/usr/local/bin/node"]) {
    try {
      const version = execFileSync(candidate, ["-p", "process.versions.node"], { encoding: "utf8" }).trim();
      const [major, minor] = version.split(".").map(Number);
      if (major! < 22 || (major === 22 && minor! < 18)) return candidate;
    } catch {
      // not there
    }
  }
  return undefined;
}

describe("ferry bin", () => {
  it("runs as `npx ferry` from the repo root", () => {
    const run = spawnSync(`npx ferry attest digest --format v1 ${JSON.stringify(files["v1.json"])}`, { cwd: REPO_ROOT, shell: true, encoding: "utf8", timeout: 60_000 });
    expect(run.status, run.stderr).to.equal(0);
    expect(run.stdout).to.equal(`${v1.digest}\n`);
  });

  it("runs ts/cli/ferry.ts directly on Node 22", () => {
    const run = spawnSync(process.execPath, ["ts/cli/ferry.ts", "attest", "digest", "--format", "v1", files["v1.json"]], { cwd: REPO_ROOT, encoding: "utf8" });
    expect(run.stdout).to.equal(`${v1.digest}\n`);
  });

  it("re-executes with the bundled Node 22 when started by an older Node, forwarding stdio and exit codes", function () {
    const node = oldNode();
    if (node === undefined) this.skip();
    const ok = runCli(["attest", "digest", "--format", "v1", "-"], { node, input: JSON.stringify(v1.input) });
    expect(ok.status, ok.stderr).to.equal(0);
    expect(ok.stdout).to.equal(`${v1.digest}\n`);
    expect(runCli(["attest", "verify", "--format", "v1", "--signature", v1.signature, "--signer", "0x0000000000000000000000000000000000000001", files["v1.json"]], { node }).status).to.equal(1);
    expect(runCli(["nope"], { node }).status).to.equal(2);
  });

  it("is executable with a node shebang", () => {
    const run = spawnSync(BIN, ["--help"], { cwd: REPO_ROOT, encoding: "utf8" });
    expect(run.status, run.stderr).to.equal(0);
    expect(run.stdout).to.match(/^Usage: ferry/);
  });
});

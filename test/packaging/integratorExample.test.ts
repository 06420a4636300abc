/**
 * The `ferry` package as an integrator gets it before the registry has it: the release's tarball
 * (`npm run release`, packedProject.ts), installed by its path with `npm install <path>/ferry-<version>.tgz`
 * (scripts on) into a copy of examples/integrator-hardhat in a temp dir, whose own
 * Hardhat 3 tests then run there (a contract inheriting AttestationGate, deployFerry(), attestations
 * signed with ferry/core, a fork test) along with its type check against the shipped .d.ts, and its
 * typed-client script bridges on an in-process devnet. Slow (npm install, two builds): it runs with
 * FERRY_TEST_PACKAGING=1, which `npm run test:packaging` sets.
 */
import { expect } from "chai";
import { existsSync } from "node:fs";
import { readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { installExample, releasedTarballs, runOk, tarballFiles } from "./packedProject.ts";
import { startE2eDevnet } from "../e2e/e2eDevnet.ts";

const ENABLED = process.env.FERRY_TEST_PACKAGING === "1";

describe("packaging: the ferry package in an outside Hardhat project", function () {
  this.timeout(600_000);
  let tarball: string;
  let app: Awaited<ReturnType<typeof installExample>> | undefined;

  before(async function () {
    if (!ENABLED) {
      console.log("    (skipped: run with `npm run test:packaging`, which sets FERRY_TEST_PACKAGING=1)");
      this.skip();
    }
    // The release's tarball, installed by its path: what a user does before the registry has the package.
    tarball = (await releasedTarballs()).tarballs["ferry"];
    app = await installExample("integrator-hardhat", [tarball]);
  });

  after(async () => {
    await app?.cleanup();
  });

  it("ships sources, artifacts and compiled JS + .d.ts only: no TypeScript sources, tests or mocks", async () => {
    const files = await tarballFiles(tarball);
    expect(files).to.include.members([
      "package.json",
      "README.md",
      "contracts/AttestationGate.sol",
      "contracts/libraries/AttestationLib.sol",
      "contracts/interfaces/IDepository.sol",
      "build/contracts/Depository.json",
      "dist/ts/core/index.js",
      "dist/ts/core/index.d.ts",
      "dist/ts/testing/index.js",
      "dist/ts/client/index.js",
      "dist/ts/abi/index.js",
    ]);
    const unwanted = files.filter(
      (file) =>
        (file.endsWith(".ts") && !file.endsWith(".d.ts")) ||
        file.startsWith("contracts/mocks/") ||
        file.startsWith("test/") ||
        /\.t\.sol$/.test(file) ||
        file.includes("service/") ||
        file.includes("cli/") ||
        file.includes("devnet/") ||
        file.endsWith(".map"),
    );
    expect(unwanted).to.deep.equal([]);
  });

  it("declares no install scripts and depends on no service or Hardhat plugin", async () => {
    const manifest = JSON.parse(await readFile(path.join(app!.dir, "node_modules/ferry/package.json"), "utf8"));
    const scripts = Object.keys(manifest.scripts ?? {});
    expect(scripts.filter((name) => /install|prepare/.test(name))).to.deep.equal([]);
    expect(Object.keys(manifest.dependencies)).to.have.members(["@openzeppelin/contracts", "solady"]);
    expect(manifest.peerDependenciesMeta.hardhat.optional).to.equal(true);
    expect(manifest.peerDependenciesMeta["@nomicfoundation/hardhat-viem"].optional).to.equal(true);
    expect(manifest.sideEffects).to.equal(false);
    for (const heavy of ["fastify", "@electric-sql/pglite", "pg", "@nomicfoundation/hardhat-ignition"]) {
      expect(existsSync(path.join(app!.dir, "node_modules", heavy)), heavy).to.equal(false);
    }
  });

  it("runs the example's tests: AttestationGate inherited, deployFerry(), core-signed attestations, a fork", async () => {
    const tests = await runOk("npx", ["hardhat", "test", "mocha"], { cwd: app!.dir });
    expect(tests.stdout).to.match(/\b5 passing\b/);
    expect(tests.stdout).not.to.match(/failing/);
  });

  it("type-checks the example against the shipped declarations", async () => {
    await runOk("npm", ["run", "typecheck"], { cwd: app!.dir });
  });

  it("bridges on the devnet with ferry/client from the installed package", async () => {
    const devnet = await startE2eDevnet();
    try {
      const file = path.join(app!.dir, "devnet.json");
      await writeFile(file, JSON.stringify(devnet.file));
      const bridged = await runOk("node", ["scripts/bridge.ts", file, "20000000000000000"], { cwd: app!.dir, timeoutMs: 180_000 });
      const result = JSON.parse(bridged.stdout.trim().split("\n").at(-1)!);
      expect(result.status).to.equal("success");
      expect(result.received).to.equal(result.quoted);
      const status = await devnet.client.getStatus(result.requestId);
      expect(status.status).to.equal("success");
    } finally {
      await devnet.close();
    }
  });
});

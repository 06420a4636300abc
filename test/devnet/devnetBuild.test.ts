/**
 * The devnet's contract build says what it is doing (ts/devnet/devnetBuild.ts): a first build is
 * announced with its expected length and ticks while solc runs; an up-to-date build says so. solc
 * warnings located under node_modules are dropped (the formatted messages are Hardhat's, as its
 * build prints them); errors and the project's own warnings are kept. The real first build (over a
 * minute of solc) is not rerun here: npm start's child-process test (devnet.test.ts) sees the lines
 * of the build it runs.
 */
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { expect } from "chai";
import { buildContracts, MARKER_ARTIFACT, withoutDependencyWarnings } from "../../ts/devnet/devnetBuild.ts";

const warning = (path: string) => ({
  severity: "warning",
  formattedMessage: `Warning: Transient storage as defined by EIP-1153 can break the composability of smart contracts\n   --> ${path}:108:13:\n    |\n108 |             tstore(slot, value)\n`,
});

describe("devnet contract build", () => {
  it("drops solc warnings about files under node_modules, keeps errors and the project's warnings", () => {
    const dependency = warning("./node_modules/@openzeppelin/contracts/utils/TransientSlot.sol");
    const solady = warning("node_modules/solady/src/utils/ReentrancyGuardTransient.sol");
    const ours = warning("contracts/Depository.sol");
    const error = { ...warning("./node_modules/solady/src/utils/LibBit.sol"), severity: "error" };
    const noLocation = { severity: "warning", formattedMessage: "Warning: SPDX license identifier not provided" };
    expect(withoutDependencyWarnings([dependency, solady, ours, error, noLocation])).to.deep.equal([ours, error, noLocation]);
  });

  it("a first build (no artifacts) is announced, ticks while it runs and says how long it took", async () => {
    const root = mkdtempSync(join(tmpdir(), "ferry-build-"));
    const lines: string[] = [];
    const ticks = () => lines.filter((line) => /^ {2}still compiling… \d+ s$/.test(line)).length;
    // The build ends once three ticks were printed (not after a fixed time: a loaded machine ticks late).
    const build = () =>
      new Promise<void>((resolve, reject) => {
        const started = Date.now();
        const check = setInterval(() => {
          if (ticks() >= 3) resolve();
          else if (Date.now() - started > 20_000) reject(new Error(`only ${ticks()} ticks in 20 s`));
          else return;
          clearInterval(check);
        }, 10);
      });
    const result = await buildContracts({ root, log: (line) => lines.push(line), tickMs: 40, build });
    expect(result.firstBuild).to.equal(true);
    expect(lines[0]).to.equal("compiling the contracts (first run: ~1–2 min; later starts reuse the build)…");
    expect(ticks()).to.be.at.least(3);
    expect(lines.at(-1)).to.match(/^contracts compiled in \d+ s$/);
  });

  it("an up-to-date build: checked, then 'contracts up to date'; no tick after it ends", async () => {
    const root = mkdtempSync(join(tmpdir(), "ferry-build-"));
    mkdirSync(dirname(join(root, MARKER_ARTIFACT)), { recursive: true });
    writeFileSync(join(root, MARKER_ARTIFACT), "{}");
    const lines: string[] = [];
    await buildContracts({ root, log: (line) => lines.push(line), tickMs: 20, build: async () => {} });
    await new Promise((resolve) => setTimeout(resolve, 60));
    expect(lines).to.deep.equal(["checking the contract build (recompiles only what changed)…", "contracts up to date"]);
  });
});

// `npm run test:coverage`: line and branch coverage of contracts/ (mocks excluded), measured by
// running the project's forge-std Solidity tests under Foundry (Hardhat 3 reports lines only, no
// branches). Prints the per-file table and the totals, and exits 1 below 95% lines or 90% branches.
import { spawnSync } from "node:child_process";
import { createRequire } from "node:module";
import { mkdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const MIN_LINES = 95;
const MIN_BRANCHES = 90;
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const lcovFile = path.join(root, "coverage/forge-lcov.info");
mkdirSync(path.dirname(lcovFile), { recursive: true });

// Legacy pipeline, optimizer off (forge's default for coverage): source maps cover inline assembly,
// which an --ir-minimum build does not attribute to lines.
// The Foundry binary ships in a per-platform npm package (an optional dependency: Linux x64 only).
let forgeBinary = "forge";
try {
  forgeBinary = path.join(path.dirname(createRequire(import.meta.url).resolve("@foundry-rs/forge-linux-amd64/package.json")), "bin/forge");
} catch {
  // fall back to a forge on PATH
}
const forge = spawnSync(
  forgeBinary,
  ["coverage", "--no-match-coverage", "(mocks|test)/", "--report", "summary", "--report", "lcov", "--report-file", lcovFile],
  { cwd: root, stdio: ["ignore", "pipe", "inherit"], encoding: "utf8" },
);
if (forge.error) {
  console.error(
    `cannot run forge (${forge.error.message}): it comes from the optional dependency ` +
      `@foundry-rs/forge-linux-amd64, which npm installs on Linux x64 only`,
  );
  process.exit(1);
}
const summaryStart = forge.stdout.indexOf("╭");
process.stdout.write(summaryStart >= 0 ? forge.stdout.slice(summaryStart) : forge.stdout);
if (forge.status !== 0) {
  console.error(`forge coverage failed (exit ${forge.status})`);
  process.exit(1);
}

type Totals = { linesFound: number; linesHit: number; branchesFound: number; branchesHit: number };
export function sumLcov(lcov: string, include: (file: string) => boolean): Totals {
  const totals: Totals = { linesFound: 0, linesHit: 0, branchesFound: 0, branchesHit: 0 };
  let counted = false;
  for (const line of lcov.split("\n")) {
    if (line.startsWith("SF:")) counted = include(line.slice(3));
    else if (!counted) continue;
    else if (line.startsWith("LF:")) totals.linesFound += Number(line.slice(3));
    else if (line.startsWith("LH:")) totals.linesHit += Number(line.slice(3));
    else if (line.startsWith("BRF:")) totals.branchesFound += Number(line.slice(4));
    else if (line.startsWith("BRH:")) totals.branchesHit += Number(line.slice(4));
  }
  return totals;
}

const totals = sumLcov(
  readFileSync(lcovFile, "utf8"),
  (file) => file.startsWith("contracts/") && !file.startsWith("contracts/mocks/"),
);
const pct = (hit: number, found: number) => (found === 0 ? 100 : (100 * hit) / found);
const lines = pct(totals.linesHit, totals.linesFound);
const branches = pct(totals.branchesHit, totals.branchesFound);
console.log(
  `\ncontracts/ (mocks excluded): lines ${lines.toFixed(2)}% (${totals.linesHit}/${totals.linesFound}), ` +
    `branches ${branches.toFixed(2)}% (${totals.branchesHit}/${totals.branchesFound}); ` +
    `required: lines >= ${MIN_LINES}%, branches >= ${MIN_BRANCHES}%`,
);
if (lines < MIN_LINES || branches < MIN_BRANCHES) {
  console.error("coverage below the required minimum");
  process.exit(1);
}

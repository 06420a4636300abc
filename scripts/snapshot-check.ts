// `npm test`'s gas snapshot check: `hardhat test solidity --snapshot-check`, and when the snapshot is
// what failed, one more paragraph saying how to get the build the committed .gas-snapshot was made
// from. Gas figures depend on how the test contracts were grouped into compilation units, so an
// incremental build (after `npm run test:mutation`, or after editing a test) can move a fuzz test's
// median by ~1,000 gas without any contract change: rebuild from scratch before believing the diff,
// and regenerate the snapshot only from such a clean build (else every fresh clone fails).
import { spawn } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

export const CLEAN_BUILD_HINT =
  "The gas snapshot check failed. Gas figures move with the compilation units of an incremental build " +
  "(e.g. after `npm run test:mutation` or editing a test), so first rebuild from scratch and run it again:\n" +
  "  rm -rf artifacts cache && npx hardhat build && npx hardhat test solidity --snapshot-check\n" +
  "If it still differs, the change is real: regenerate .gas-snapshot from that clean build with `npm run snapshot`.";

/** Whether `output` is a snapshot failure (as opposed to a failing test or a compile error). */
export function isSnapshotFailure(output: string): boolean {
  return /To update snapshots, run your tests with --snapshot/.test(output);
}

if (process.argv[1] !== undefined && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  // Streamed as it runs (a full run takes minutes), and kept to look for the snapshot failure.
  const child = spawn("npx", ["hardhat", "test", "solidity", "--snapshot-check", ...process.argv.slice(2)], { cwd: root, env: process.env });
  let output = "";
  child.stdout.on("data", (chunk: Buffer) => {
    output += chunk.toString();
    process.stdout.write(chunk);
  });
  child.stderr.on("data", (chunk: Buffer) => {
    output += chunk.toString();
    process.stderr.write(chunk);
  });
  child.on("close", (code) => {
    const status = code ?? 1;
    if (status !== 0 && isSnapshotFailure(output)) console.error(`\n${CLEAN_BUILD_HINT}`);
    process.exit(status);
  });
}

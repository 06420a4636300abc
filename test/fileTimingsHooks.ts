/**
 * The per-file half of test/timingsReporter.ts in mocha's parallel mode (FERRY_TEST_JOBS > 1). There
 * a file runs in a worker and the reporter, in the main process, only sees its events replayed once
 * the file is done, so it cannot time it. Root hooks, though, run once per file in its worker: this
 * module (hardhat.config.ts requires it when FERRY_TEST_TIMINGS is set and the run is parallel) times
 * the file from its first hook to its last, hooks included, and appends `{file, ms}` as one JSON line
 * to FERRY_TEST_TIMINGS_PARTS, which the reporter reads at the end of the run. No tests here.
 */
import { appendFileSync } from "node:fs";
import type Mocha from "mocha";

let startedAt = 0;

export const mochaHooks = {
  beforeAll(): void {
    startedAt = performance.now();
  },
  afterAll(this: Mocha.Context): void {
    const target = process.env.FERRY_TEST_TIMINGS_PARTS;
    const root = this.test?.parent;
    const file = root?.suites.find((suite) => suite.file !== undefined)?.file ?? root?.file;
    if (target === undefined || file === undefined) return;
    appendFileSync(target, `${JSON.stringify({ file, ms: performance.now() - startedAt })}\n`);
  },
};

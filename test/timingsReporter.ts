/**
 * Mocha's spec reporter plus, at the end of the run, each test FILE's wall time — hooks included
 * (before/after: devnets deployed, services started, databases opened), which the spec reporter's
 * per-test durations leave out. hardhat.config.ts selects it when FERRY_TEST_TIMINGS is set:
 *
 *   FERRY_TEST_TIMINGS=1 npx hardhat test mocha                 # the table on stdout after the summary
 *   FERRY_TEST_TIMINGS=timings.json npx hardhat test mocha      # the table, and the rows as JSON there
 *
 * A file's time is the sum over its top-level describes of "suite begin" to "suite end"; importing
 * the test files happens before the run and is not in it (the "outside files" row is what the run
 * spent in no file's suite: root hooks, the gaps between files). No tests here.
 */
import { existsSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { relative } from "node:path";
import Mocha from "mocha";

const { EVENT_SUITE_BEGIN, EVENT_SUITE_END, EVENT_TEST_PASS, EVENT_TEST_FAIL, EVENT_TEST_PENDING, EVENT_RUN_BEGIN, EVENT_RUN_END } =
  Mocha.Runner.constants;

export type FileTiming = { file: string; ms: number; tests: number; failed: number };

/** The rows sorted slowest first, as the table printed after the run. */
export function formatTimings(rows: readonly FileTiming[], totalMs: number): string {
  const sorted = [...rows].sort((a, b) => b.ms - a.ms);
  const inFiles = sorted.reduce((sum, row) => sum + row.ms, 0);
  const outside = "(outside files: root hooks, gaps)";
  const width = Math.max(outside.length, ...sorted.map((row) => row.file.length));
  const line = (file: string, ms: number, tests: string) =>
    `  ${file.padEnd(width)}  ${(ms / 1000).toFixed(1).padStart(8)} s  ${((100 * ms) / Math.max(totalMs, 1)).toFixed(1).padStart(5)} %  ${tests}`;
  return [
    `  Wall time per test file (hooks included), slowest first — ${sorted.length} files`,
    "",
    `  ${"file".padEnd(width)}  ${"time".padStart(10)}  ${"share".padStart(7)}  tests`,
    ...sorted.map((row) => line(row.file, row.ms, `${row.tests}${row.failed > 0 ? ` (${row.failed} failed)` : ""}`)),
    line(outside, Math.max(0, totalMs - inFiles), ""),
    line("(total run)", totalMs, ""),
    "",
  ].join("\n");
}

/** The `{file, ms}` lines the parallel workers appended (none in a serial run, or when the file is absent). */
function readParts(path: string | undefined): Array<{ file: string; ms: number }> {
  if (path === undefined || !existsSync(path)) return [];
  const parts = readFileSync(path, "utf8")
    .split("\n")
    .filter((line) => line.trim() !== "")
    .map((line) => JSON.parse(line) as { file: string; ms: number });
  rmSync(path, { force: true });
  return parts;
}

export default class TimingsReporter extends Mocha.reporters.Spec {
  constructor(runner: Mocha.Runner, options?: Mocha.MochaOptions) {
    super(runner, options);
    const rows = new Map<string, FileTiming>();
    const begun = new Map<Mocha.Suite, number>();
    let runStart = performance.now();
    const rowOf = (file: string | undefined): FileTiming => {
      const name = file === undefined ? "(no file)" : relative(process.cwd(), file);
      let row = rows.get(name);
      if (row === undefined) rows.set(name, (row = { file: name, ms: 0, tests: 0, failed: 0 }));
      return row;
    };
    const topLevel = (suite: Mocha.Suite) => suite.parent?.root === true;
    runner.once(EVENT_RUN_BEGIN, () => (runStart = performance.now()));
    runner.on(EVENT_SUITE_BEGIN, (suite: Mocha.Suite) => {
      if (topLevel(suite)) begun.set(suite, performance.now());
    });
    runner.on(EVENT_SUITE_END, (suite: Mocha.Suite) => {
      const start = begun.get(suite);
      if (start === undefined) return;
      begun.delete(suite);
      rowOf(suite.file).ms += performance.now() - start;
    });
    runner.on(EVENT_TEST_PASS, (test: Mocha.Test) => (rowOf(test.file).tests += 1));
    runner.on(EVENT_TEST_PENDING, (test: Mocha.Test) => (rowOf(test.file).tests += 1));
    runner.on(EVENT_TEST_FAIL, (test: Mocha.Test) => {
      const row = rowOf(test.file);
      row.tests += 1;
      row.failed += 1;
    });
    // Registered after the spec reporter's own "end" listener, so the table follows its summary.
    runner.once(EVENT_RUN_END, () => {
      const totalMs = performance.now() - runStart;
      // Parallel mode: the workers timed their files (./fileTimingsHooks.ts); their rows replace the
      // replayed suites' near-zero spans, and the shares add up to about the number of workers × 100 %.
      for (const part of readParts(process.env.FERRY_TEST_TIMINGS_PARTS)) {
        const row = rowOf(part.file);
        row.ms = part.ms;
      }
      process.stdout.write(formatTimings([...rows.values()], totalMs));
      const target = process.env.FERRY_TEST_TIMINGS;
      if (target !== undefined && target !== "1" && target !== "") {
        const sorted = [...rows.values()].sort((a, b) => b.ms - a.ms);
        writeFileSync(target, `${JSON.stringify({ totalMs, files: sorted }, null, 2)}\n`);
      }
    });
  }
}

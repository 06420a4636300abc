// `ferry solver recover-reorg` as a subprocess: its flags, and its refusals before anything is touched.
// The recovery itself runs on real chains in test/faults/deepReorgRecovery.test.ts.
import { existsSync } from "node:fs";
import { expect } from "chai";
import { errorLine } from "./runCli.ts";
import { pgliteDatabase } from "./serviceDatabase.ts";

describe("ferry solver recover-reorg", function () {
  this.timeout(120_000);

  it("is listed by ferry --help, and its help names the procedure's outcomes", () => {
    const db = pgliteDatabase();
    const top = db.cli(["--help"]);
    expect(top.stdout).to.match(/solver recover-reorg --chain <id>/);
    const help = db.cli(["solver", "recover-reorg", "--help"]);
    expect(help.status).to.equal(0);
    expect(help.stdout).to.match(/DEEP_REORG_DEPOSIT_GONE/).and.match(/--from-block/).and.match(/--dry-run/);
  });

  it("refuses bad input with exit 2 and one line naming it: no --chain, a chain that is not an id, a block that is not an integer, a chain not configured (before the database is opened)", async () => {
    const db = pgliteDatabase();
    try {
      const cases: Array<[RegExp, string[]]> = [
        [/USAGE.*--chain/, ["solver", "recover-reorg"]],
        [/USAGE.*--chain must be a chain id/, ["solver", "recover-reorg", "--chain", "mainnet"]],
        [/USAGE.*--from-block must be a non-negative integer/, ["solver", "recover-reorg", "--chain", "31337", "--from-block", "1.5"]],
        [/CHAIN_NOT_CONFIGURED/, ["solver", "recover-reorg", "--chain", "424242"]],
      ];
      for (const [expected, args] of cases) {
        const run = db.cli(args);
        expect(run.status, `${args.join(" ")}: ${run.stderr}`).to.equal(2);
        expect(errorLine(run), args.join(" ")).to.match(expected);
      }
      expect(existsSync(db.dataDir), "no database opened or created for a refused command").to.equal(false);
    } finally {
      await db.drop();
    }
  });
});

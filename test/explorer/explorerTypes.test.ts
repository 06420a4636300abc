/**
 * The explorer's browser module type-checks with the DOM's types (ts/explorer/tsconfig.json), which
 * the root `tsc --noEmit` leaves out so the Node code never sees them; and it bundles for the
 * browser into one module with nothing left to import.
 */
import { expect } from "chai";
import { spawnSync } from "node:child_process";
import { join } from "node:path";
import { bundleExplorerScript } from "../../scripts/build-explorer.ts";
import { REPO_ROOT } from "../cli/runCli.ts";

describe("explorer: the browser module", function () {
  this.timeout(120_000);

  it("type-checks with the DOM's types (tsc -p ts/explorer)", () => {
    const result = spawnSync(join(REPO_ROOT, "node_modules/.bin/tsc"), ["-p", join(REPO_ROOT, "ts/explorer/tsconfig.json"), "--noEmit"], { encoding: "utf8" });
    expect(result.status, `${result.stdout}${result.stderr}`).to.equal(0);
  });

  it("bundles into one ES module that imports nothing and carries verifyReceipt's checks", async () => {
    const script = await bundleExplorerScript();
    expect(script).to.not.match(/(^|[;\s])import\s*[{*\w]|import\(\s*["']/);
    // A check name of ts/core's verifyReceipt: the verifier itself is in the bundle.
    expect(script).to.include("repayment.requestHash");
  });
});

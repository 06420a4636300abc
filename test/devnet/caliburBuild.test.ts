// The committed Calibur artifact (ts/devnet/vendor/calibur.json) is what the vendored sources compile
// to: Calibur is compiled again (solc 0.8.29 via-IR, minutes) and every byte compared. Slow, so only
// under `npm run test:vendor` (FERRY_TEST_VENDOR=1); plain `npm test` skips it.
import { expect } from "chai";
import { CALIBUR_SOLC_SETTINGS, CALIBUR_SOURCE, compileCalibur, readCaliburArtifact } from "../../ts/devnet/caliburBuild.ts";

const VENDOR_ENABLED = process.env.FERRY_TEST_VENDOR === "1";

describe("Calibur vendored build (npm run test:vendor)", function () {
  this.timeout(1_800_000);

  it("rebuilding the vendored sources gives the committed artifact, byte for byte", function () {
    if (!VENDOR_ENABLED) this.skip();
    const committed = readCaliburArtifact();
    const rebuilt = compileCalibur();
    expect(committed.source).to.deep.equal(CALIBUR_SOURCE);
    expect(committed.compiler.settings).to.deep.equal(CALIBUR_SOLC_SETTINGS);
    expect(rebuilt.compiler.version).to.equal(committed.compiler.version);
    expect(rebuilt.bytecode).to.equal(committed.bytecode);
    expect(rebuilt.deployedBytecode).to.equal(committed.deployedBytecode);
    expect(rebuilt.immutableReferences).to.deep.equal(committed.immutableReferences);
    expect(rebuilt.abi).to.deep.equal(committed.abi);
  });
});

// createPostgresEngine refuses a schema name that is not a plain SQL identifier (it is spliced into
// SQL) before it connects anywhere.
import { expect } from "chai";
import { isFerryError } from "../../../ts/core/errors.ts";
import { createPostgresEngine } from "../../../ts/service/store/postgresEngine.ts";

describe("createPostgresEngine", function () {
  it("createPostgresEngine_aSchemaThatIsNotAnIdentifier_isInvalidInput_beforeConnecting", async function () {
    // Port 1 on loopback: a connection attempt would fail with ECONNREFUSED, not INVALID_INPUT.
    for (const schema of ["Ferry", "a;DROP TABLE x", "1abc", "", "a-b"]) {
      let error: unknown;
      await createPostgresEngine({ databaseUrl: "postgres://nobody@127.0.0.1:1/none", schema }).catch((e: unknown) => (error = e));
      expect(isFerryError(error, "INVALID_INPUT"), `${schema}: ${String(error)}`).to.equal(true);
      expect((error as Error).message).not.to.contain(schema || "\u0000");
    }
  });
});

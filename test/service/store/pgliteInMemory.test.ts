/**
 * In-memory PGlite databases (ts/service/store/pgliteEngine.ts) start from one fresh cluster the
 * process initialised once: each must still be its own, empty database — nothing one wrote shows up
 * in one opened after it, however many are open at once.
 */
import { expect } from "chai";
import { createPgliteEngine } from "../../../ts/service/store/pgliteEngine.ts";

const tables = async (engine: Awaited<ReturnType<typeof createPgliteEngine>>) =>
  (await engine.query<{ table_name: string }>("SELECT table_name FROM information_schema.tables WHERE table_schema = 'public' ORDER BY table_name")).rows.map((r) => r.table_name);

describe("PGlite in memory", () => {
  it("every database opened is empty and its own, even after others were written and while they are open", async () => {
    const [a, b] = await Promise.all([createPgliteEngine(), createPgliteEngine()]);
    try {
      await a.exec("CREATE TABLE written_in_a (x int); INSERT INTO written_in_a VALUES (1);");
      await b.exec("CREATE TABLE written_in_b (x int);");
      expect(await tables(a)).to.deep.equal(["written_in_a"]);
      expect(await tables(b)).to.deep.equal(["written_in_b"]);
      const c = await createPgliteEngine();
      try {
        expect(await tables(c)).to.deep.equal([]);
        // 64-bit integers come back as numbers, as on every PGlite engine.
        expect((await c.query<{ n: unknown }>("SELECT 9007199254740991::int8 AS n")).rows[0]!.n).to.equal(9007199254740991);
      } finally {
        await c.close();
      }
    } finally {
      await Promise.all([a.close(), b.close()]);
    }
  });
});

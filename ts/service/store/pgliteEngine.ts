import { PGlite, types } from "@electric-sql/pglite";
import type { Engine, Queryable, Row } from "./engine.ts";

/** The embedded engine: on disk under `dataDir`, in memory when it is absent. */
export async function createPgliteEngine({ dataDir }: { dataDir?: string } = {}): Promise<Engine> {
  const db = await PGlite.create(dataDir, { parsers: { [types.INT8]: (value: string) => Number(value) } });
  const wrap = (q: Pick<PGlite, "query" | "exec">): Queryable => ({
    async query<T extends Row>(sql: string, params: readonly unknown[] = []) {
      const result = await q.query<T>(sql, [...params]);
      return { rows: result.rows, rowCount: result.affectedRows ?? result.rows.length };
    },
    async exec(sql: string) {
      await q.exec(sql);
    },
  });
  return {
    kind: "pglite",
    ...wrap(db),
    transaction: (fn) => db.transaction((tx) => fn(wrap(tx))),
    close: () => db.close(),
  };
}

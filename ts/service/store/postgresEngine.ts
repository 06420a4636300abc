import pg from "pg";
import { ServiceError } from "../errors/serviceError.ts";
import type { Engine, Queryable, Row } from "./engine.ts";

const INT8_OID = 20;

/**
 * PostgreSQL through a pg Pool. `schema`, when given, is created if missing and becomes every
 * connection's search_path (tests use one fresh schema per run so that runs never collide); a name
 * that is not a lower-case SQL identifier is INVALID_INPUT (it is spliced into SQL).
 */
export async function createPostgresEngine({ databaseUrl, schema }: { databaseUrl: string; schema?: string }): Promise<Engine> {
  if (schema !== undefined && !/^[a-z_][a-z0-9_]*$/.test(schema)) throw new ServiceError("INVALID_INPUT", "schema must be a lower-case SQL identifier ([a-z_][a-z0-9_]*)");
  if (schema !== undefined) {
    const admin = new pg.Client({ connectionString: databaseUrl });
    await admin.connect();
    try {
      await admin.query(`CREATE SCHEMA IF NOT EXISTS ${schema}`);
    } catch (error) {
      // Two connections creating the same schema at once: the loser sees a duplicate, which is fine.
      const code = (error as { code?: string }).code;
      if (code !== "23505" && code !== "42P06") throw error;
    } finally {
      await admin.end();
    }
  }
  const pool = new pg.Pool({
    connectionString: databaseUrl,
    options: schema === undefined ? undefined : `-c search_path=${schema}`,
    types: {
      getTypeParser: ((oid: number, format?: "text" | "binary") =>
        oid === INT8_OID ? (value: string) => Number(value) : pg.types.getTypeParser(oid, format)) as typeof pg.types.getTypeParser,
    },
  });
  // An idle client losing its connection must not crash the process; the next query reconnects.
  pool.on("error", () => {});
  const wrap = (q: pg.Pool | pg.PoolClient): Queryable => ({
    async query<T extends Row>(sql: string, params: readonly unknown[] = []) {
      const result = await q.query(sql, [...params]);
      return { rows: result.rows as T[], rowCount: result.rowCount ?? 0 };
    },
    async exec(sql: string) {
      await q.query(sql);
    },
  });
  return {
    kind: "postgres",
    ...wrap(pool),
    async transaction(fn) {
      const client = await pool.connect();
      try {
        await client.query("BEGIN");
        const result = await fn(wrap(client));
        await client.query("COMMIT");
        return result;
      } catch (error) {
        await client.query("ROLLBACK").catch(() => {});
        throw error;
      } finally {
        client.release();
      }
    },
    close: () => pool.end(),
  };
}

/**
 * The devnet of the e2e tests on either store engine: the embedded PGlite it runs by default, or
 * PostgreSQL in a fresh schema of the test server (FERRY_TEST_DATABASE_URL, else the local one, as
 * the store tests resolve it). The devnet's service reads DATABASE_URL from its copy of the
 * environment, so the schema is named there (`search_path`) for the start only. Unreachable
 * PostgreSQL fails under CI (CI or FERRY_TEST_REQUIRE_POSTGRES set) and skips the run elsewhere.
 */
import { randomBytes } from "node:crypto";
import pg from "pg";
import { resolvePostgres } from "../service/store/engines.ts";
import { startE2eDevnet, type E2eDevnet } from "./e2eDevnet.ts";

export const E2E_ENGINES = ["pglite", "postgres"] as const;
export type E2eEngine = (typeof E2E_ENGINES)[number];

/** The devnet on `engine`, the PostgreSQL schema (when any) and how to drop it; skips `context` when PostgreSQL is out of reach outside CI. */
export async function startE2eDevnetOn(
  engine: E2eEngine,
  context: Mocha.Context,
  options: Parameters<typeof startE2eDevnet>[0] = {},
): Promise<{ devnet: E2eDevnet; schema: string | undefined; close(): Promise<void> }> {
  if (engine === "pglite") {
    const devnet = await startE2eDevnet(options);
    return { devnet, schema: undefined, close: () => devnet.close() };
  }
  const resolved = await resolvePostgres();
  if ("reason" in resolved) {
    if (process.env.CI || process.env.FERRY_TEST_REQUIRE_POSTGRES) throw new Error(`PostgreSQL unreachable under CI: ${resolved.reason}`);
    console.log(`      skipping the PostgreSQL run: ${resolved.reason}`);
    context.skip();
  }
  const url = (resolved as { url: string }).url;
  const schema = `ferry_e2e_${process.pid}_${randomBytes(4).toString("hex")}`;
  const admin = async (sql: string) => {
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      await client.query(sql);
    } finally {
      await client.end();
    }
  };
  await admin(`CREATE SCHEMA ${schema}`);
  const saved = process.env.DATABASE_URL;
  process.env.DATABASE_URL = `${url}${url.includes("?") ? "&" : "?"}options=${encodeURIComponent(`-c search_path=${schema}`)}`;
  let devnet: E2eDevnet;
  try {
    devnet = await startE2eDevnet(options);
  } catch (error) {
    await admin(`DROP SCHEMA IF EXISTS ${schema} CASCADE`).catch(() => {});
    throw error;
  } finally {
    if (saved === undefined) delete process.env.DATABASE_URL;
    else process.env.DATABASE_URL = saved;
  }
  return {
    devnet,
    schema,
    async close() {
      await devnet.close();
      await admin(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
    },
  };
}

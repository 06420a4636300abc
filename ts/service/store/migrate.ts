import { readdirSync, readFileSync } from "node:fs";
import type { Engine } from "./engine.ts";

export type Migration = { version: number; name: string; sql: string };

/** Session-independent key of the advisory lock that serialises migrations across replicas ("FERRY"). */
const MIGRATION_LOCK_KEY = 0x4645525259;

const MIGRATIONS_DIR = new URL("./migrations/", import.meta.url);

/** The numbered SQL files of ./migrations (`0001_initial.sql`), in order. */
export function loadMigrations(dir: URL = MIGRATIONS_DIR): Migration[] {
  return readdirSync(dir)
    .filter((file) => /^\d{4}_[a-z0-9_]+\.sql$/.test(file))
    .sort()
    .map((file) => ({
      version: Number(file.slice(0, 4)),
      name: file.slice(5, -4),
      sql: readFileSync(new URL(file, dir), "utf8"),
    }));
}

/**
 * Applies the migrations not yet recorded in schema_migrations, all in one transaction, under a
 * transaction-scoped advisory lock: replicas starting together wait for each other instead of racing,
 * and a failure leaves the schema as it was. Returns the versions applied by this call.
 */
export async function migrate(engine: Engine, migrations: Migration[] = loadMigrations()): Promise<number[]> {
  return engine.transaction(async (tx) => {
    await tx.query(`SELECT pg_advisory_xact_lock(${MIGRATION_LOCK_KEY})`);
    await tx.exec(`CREATE TABLE IF NOT EXISTS schema_migrations (
      version    integer PRIMARY KEY,
      name       text NOT NULL,
      applied_at timestamptz(3) NOT NULL DEFAULT now()
    )`);
    const { rows } = await tx.query<{ version: number }>("SELECT version FROM schema_migrations");
    const applied = new Set(rows.map((r) => r.version));
    const done: number[] = [];
    for (const m of migrations) {
      if (applied.has(m.version)) continue;
      await tx.exec(m.sql);
      await tx.query("INSERT INTO schema_migrations (version, name) VALUES ($1, $2)", [m.version, m.name]);
      done.push(m.version);
    }
    return done;
  });
}

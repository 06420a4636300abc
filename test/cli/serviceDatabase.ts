/**
 * The service database that `ferry keys` / `ferry webhooks` tests point the CLI at: a temporary PGlite
 * data folder, or a fresh PostgreSQL database (created and dropped here). No tests here.
 */
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";
import { createStore, type Store } from "../../ts/service/store/createStore.ts";
import { copyMigratedDataDir } from "../service/store/migratedDataDir.ts";
import { runCli, runCliInProcess, type CliRun } from "./runCli.ts";

/** Env that would point the CLI elsewhere than the test's database, blanked (empty means unset for the config). */
const NEUTRAL_ENV = { FERRY_CONFIG: "", DATABASE_URL: "", FERRY_DATA_DIR: "", FERRY_WEBHOOK_SECRET_KEY: "" };

export type ServiceDatabase = {
  /** The env the CLI runs with (data dir or DATABASE_URL). */
  env: Record<string, string>;
  /** Runs `ferry …` (the spawned bin) against this database; `env` adds to (or overrides) the database env. */
  cli(args: string[], options?: { env?: Record<string, string>; input?: string }): CliRun;
  /** The same run in this process (runCliInProcess): seconds cheaper than `cli`, same exit code and output. */
  run(args: string[], options?: { env?: Record<string, string>; input?: string }): Promise<CliRun>;
  /** Opens the same database in this process (close it before running the CLI on PGlite). */
  open(): Promise<Store>;
  drop(): Promise<void>;
};

export type PgliteDatabase = ServiceDatabase & {
  dataDir: string;
  /**
   * Makes the folder a migrated, empty database (a copy: test/service/store/migratedDataDir.ts),
   * as a service that has started once leaves it: seconds cheaper than letting the first run create it.
   */
  copyMigrated(): Promise<void>;
};

export function pgliteDatabase(): PgliteDatabase {
  const root = mkdtempSync(join(tmpdir(), "ferry-cli-db-"));
  // A folder that does not exist yet: the CLI creates it, as the service does (or copyMigrated does).
  const dataDir = join(root, "data");
  const env = { ...NEUTRAL_ENV, FERRY_DATA_DIR: dataDir };
  return {
    dataDir,
    env,
    ...runners(env),
    open: () => createStore({ dataDir }),
    copyMigrated: async () => void (await copyMigratedDataDir(dataDir)),
    drop: async () => rmSync(root, { recursive: true, force: true }),
  };
}

function runners(env: Record<string, string>): Pick<ServiceDatabase, "cli" | "run"> {
  const withEnv = (options: { env?: Record<string, string>; input?: string }) => ({
    env: { ...env, ...options.env },
    ...(options.input !== undefined ? { input: options.input } : {}),
  });
  return {
    cli: (args, options = {}) => runCli(args, withEnv(options)),
    run: (args, options = {}) => runCliInProcess(args, withEnv(options)),
  };
}

/** Tried in order when FERRY_TEST_DATABASE_URL is unset (as test/service/store/engines.ts). */
const DEFAULT_URLS = ["postgres://root@127.0.0.1:5432/ferry_test", "postgres://root@/ferry_test?host=/var/run/postgresql"];

/**
 * A fresh PostgreSQL database, or the reason there is none. Callers skip on a reason, except under CI
 * (CI or FERRY_TEST_REQUIRE_POSTGRES), where they fail, like the store suites.
 */
export async function postgresDatabase(): Promise<ServiceDatabase | { reason: string }> {
  const reasons: string[] = [];
  for (const url of process.env.FERRY_TEST_DATABASE_URL ? [process.env.FERRY_TEST_DATABASE_URL] : DEFAULT_URLS) {
    const admin = new pg.Client({ connectionString: url, connectionTimeoutMillis: 3000 });
    try {
      await admin.connect();
      const name = `ferry_cli_${process.pid}_${randomBytes(4).toString("hex")}`;
      await admin.query(`CREATE DATABASE ${name}`);
      const databaseUrl = withDatabase(url, name);
      const env = { ...NEUTRAL_ENV, DATABASE_URL: databaseUrl, FERRY_DATA_DIR: join(tmpdir(), `ferry-cli-unused-${name}`) };
      return {
        env,
        ...runners(env),
        open: () => createStore({ databaseUrl }),
        async drop() {
          const client = new pg.Client({ connectionString: url });
          await client.connect();
          try {
            await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
          } finally {
            await client.end();
          }
        },
      };
    } catch (error) {
      reasons.push(`${url}: ${(error as Error).message}`);
    } finally {
      await admin.end().catch(() => {});
    }
  }
  return { reason: reasons.join("; ") };
}

/** `url` with its database name replaced. */
function withDatabase(url: string, name: string): string {
  const match = /^(postgres(?:ql)?:\/\/[^/]*\/)([^?]*)(.*)$/.exec(url);
  if (!match) throw new Error(`cannot place a database name in ${url}`);
  return `${match[1]}${name}${match[3]}`;
}

/** Skips (or, under CI, fails) a PostgreSQL test when the server is unreachable. */
export function requirePostgres(context: Mocha.Context, database: ServiceDatabase | { reason: string }): asserts database is ServiceDatabase {
  if (!("reason" in database)) return;
  if (process.env.CI || process.env.FERRY_TEST_REQUIRE_POSTGRES) throw new Error(`PostgreSQL unreachable under CI: ${database.reason}`);
  console.log(`      skipping: PostgreSQL unreachable: ${database.reason}`);
  context.skip();
}

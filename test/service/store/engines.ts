/**
 * Runs one store suite on both engines: PGlite (in memory) and PostgreSQL (a fresh schema per run, so
 * runs never collide). PostgreSQL comes from FERRY_TEST_DATABASE_URL, else the local server as
 * TOOLCHAIN sets it up. When it is unreachable the PostgreSQL suites fail under CI (CI or
 * FERRY_TEST_REQUIRE_POSTGRES set; .ci/run sets the latter) and are skipped, with the reason printed, elsewhere.
 */
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";
import { createStore, type Store } from "../../../ts/service/store/createStore.ts";

/** Tried in order when FERRY_TEST_DATABASE_URL is unset: TCP as the brief says, then the local socket (peer auth as root). */
const DEFAULT_URLS = ["postgres://root@127.0.0.1:5432/ferry_test", "postgres://root@/ferry_test?host=/var/run/postgresql"];

let postgresUrl: Promise<{ url: string } | { reason: string }> | undefined;

export function resolvePostgres(): Promise<{ url: string } | { reason: string }> {
  postgresUrl ??= (async () => {
    const env = process.env.FERRY_TEST_DATABASE_URL;
    const reasons: string[] = [];
    for (const url of env ? [env] : DEFAULT_URLS) {
      const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 3000 });
      try {
        await client.connect();
        await client.query("SELECT 1");
        return { url };
      } catch (error) {
        reasons.push(`${url.replace(/:[^:@/]*@/, ":***@")}: ${(error as Error).message}`);
      } finally {
        await client.end().catch(() => {});
      }
    }
    return { reason: reasons.join("; ") };
  })();
  return postgresUrl;
}

/** A controllable clock: `now()` returns `clock.ms` as a Date. */
export type TestClock = { ms: number; now: () => Date };

export function testClock(start = Date.UTC(2026, 0, 1)): TestClock {
  const clock: TestClock = { ms: start, now: () => new Date(clock.ms) };
  return clock;
}

/** A database that more stores can be opened on, one after another or (PostgreSQL) at once. */
export type TestDatabase = { open(now?: () => Date): Promise<Store>; drop(): Promise<void> };

export type EngineUnderTest = {
  kind: "pglite" | "postgres";
  /** The suite's store, emptied before each test. */
  store: Store;
  clock: TestClock;
  /** A new empty database: a PostgreSQL schema, or a PGlite data folder. */
  freshDatabase(): Promise<TestDatabase>;
};

const TABLES = "request_events, requests, quotes, indexer_checkpoints, api_keys, stray_deposits, stray_tracking, permit_failures, app_balances, app_balance_holds, app_balance_entries, app_exposure_windows, app_funding_orders, app_withdrawals, deposit_addresses, deposit_address_quotes, deposit_address_payments, repayment_batches, worker_leases";

export function describeEachEngine(title: string, body: (engine: EngineUnderTest) => void): void {
  for (const kind of ["pglite", "postgres"] as const) {
    describe(`${title} [${kind}]`, function () {
      const clock = testClock();
      const dropAfter: TestDatabase[] = [];
      const engine = { kind, clock } as EngineUnderTest;
      let url = "";

      engine.freshDatabase = async () => {
        let db: TestDatabase;
        if (kind === "postgres") {
          const schema = `ferry_test_${process.pid}_${randomBytes(4).toString("hex")}`;
          db = {
            open: (now = clock.now) => createStore({ databaseUrl: url, schema, now }),
            async drop() {
              const client = new pg.Client({ connectionString: url });
              await client.connect();
              await client.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
              await client.end();
            },
          };
        } else {
          const dataDir = mkdtempSync(join(tmpdir(), "ferry-pglite-"));
          db = { open: (now = clock.now) => createStore({ dataDir, now }), drop: async () => rmSync(dataDir, { recursive: true, force: true }) };
        }
        dropAfter.push(db);
        return db;
      };

      before(async function () {
        if (kind === "postgres") {
          const resolved = await resolvePostgres();
          if ("reason" in resolved) {
            if (process.env.CI || process.env.FERRY_TEST_REQUIRE_POSTGRES) throw new Error(`PostgreSQL unreachable under CI: ${resolved.reason}`);
            console.log(`      skipping PostgreSQL store tests: ${resolved.reason}`);
            this.skip();
          } else {
            url = resolved.url;
          }
          engine.store = await (await engine.freshDatabase()).open();
        } else {
          engine.store = await createStore({ now: clock.now });
        }
      });

      beforeEach(async () => {
        clock.ms = Date.UTC(2026, 0, 1);
        await engine.store.engine.exec(`TRUNCATE ${TABLES} RESTART IDENTITY CASCADE`);
      });

      after(async () => {
        await engine.store?.close();
        for (const db of dropAfter) await db.drop();
      });

      body(engine);
    });
  }
}

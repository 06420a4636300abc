// createPostgresEngine refuses a schema name that is not a plain SQL identifier (it is spliced into
// SQL) before it connects anywhere.
import { expect } from "chai";
import { isFerryError } from "../../../ts/core/errors.ts";
import pg from "pg";
import { randomBytes } from "node:crypto";
import { createPostgresEngine, DEFAULT_POSTGRES_SETTINGS } from "../../../ts/service/store/postgresEngine.ts";
import { statementNames } from "../../../ts/service/store/preparedStatements.ts";

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

describe("createPostgresEngine when the database goes away", function () {
  this.timeout(60_000);
  let url: string | undefined;
  before(async function () {
    url = await postgresOrSkip(this);
  });

  it("transaction_itsConnectionTerminatedMidway_isDatabaseUnavailable_theProcessLives_andTheNextQueryWorks", async () => {
    // Before: the checked-out client had no `error` listener, so the server ending its session was an
    // uncaught 'error' event that took the whole process (here: mocha) down.
    const engine = await createPostgresEngine({ databaseUrl: url! });
    const killer = new pg.Client({ connectionString: url });
    await killer.connect();
    try {
      let error: unknown;
      await engine
        .transaction(async (tx) => {
          const { rows } = await tx.query<{ pid: number }>("SELECT pg_backend_pid() AS pid");
          await killer.query("SELECT pg_terminate_backend($1)", [rows[0]!.pid]);
          // The server's termination notice arrives on the idle, checked-out client first.
          await new Promise((resolve) => setTimeout(resolve, 200));
          await tx.query("SELECT 1");
        })
        .catch((e: unknown) => (error = e));
      expect(isFerryError(error, "DATABASE_UNAVAILABLE"), String(error)).to.equal(true);
      const { rows } = await engine.query<{ one: number }>("SELECT 1 AS one");
      expect(rows[0]!.one).to.equal(1);
    } finally {
      await killer.end();
      await engine.close();
    }
  });

  it("query_aServerThatRefusesConnections_isDatabaseUnavailable", async () => {
    const engine = await createPostgresEngine({ databaseUrl: "postgres://nobody@127.0.0.1:1/none", settings: { ...DEFAULT_POSTGRES_SETTINGS, connectTimeoutMs: 1000 } });
    try {
      let error: unknown;
      await engine.query("SELECT 1").catch((e: unknown) => (error = e));
      expect(isFerryError(error, "DATABASE_UNAVAILABLE"), String(error)).to.equal(true);
      error = undefined;
      await engine.transaction(async () => 1).catch((e: unknown) => (error = e));
      expect(isFerryError(error, "DATABASE_UNAVAILABLE"), String(error)).to.equal(true);
    } finally {
      await engine.close();
    }
  });

  it("listen_hearsANotifyFromAnotherConnection_andReconnectsAfterItsSessionIsTerminated", async () => {
    const engine = await createPostgresEngine({ databaseUrl: url! });
    const other = new pg.Client({ connectionString: url });
    await other.connect();
    const channel = `ferry_test_${process.pid}`;
    let heard = 0;
    const unlisten = await engine.listen!(channel, () => (heard += 1));
    try {
      const afterConnect = heard;
      await other.query(`NOTIFY ${channel}`);
      await until(() => heard > afterConnect);
      // Terminate the listening session: it reconnects, calls back once, and hears the next NOTIFY.
      await other.query("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE query = $1 AND pid <> pg_backend_pid()", [`LISTEN ${channel}`]);
      const beforeReconnect = heard;
      await until(() => heard > beforeReconnect);
      const reconnected = heard;
      await other.query(`NOTIFY ${channel}`);
      await until(() => heard > reconnected);
    } finally {
      await unlisten();
      await other.end();
      await engine.close();
    }
  });
});

describe("createPostgresEngine's prepared statements", function () {
  this.timeout(60_000);
  let url: string | undefined;
  before(async function () {
    url = await postgresOrSkip(this);
  });
  const oneConnection = () =>
    createPostgresEngine({ databaseUrl: url!, schema: `ferry_prep_${process.pid}_${randomBytes(3).toString("hex")}`, settings: { ...DEFAULT_POSTGRES_SETTINGS, poolSize: 1 } });

  it("aDataStatement_isPreparedOnceUnderItsTextsName_thenOnlyExecuted", async () => {
    const engine = await oneConnection();
    try {
      const sql = "SELECT $1::int + 1 AS n";
      for (const n of [1, 2, 3]) expect((await engine.query<{ n: number }>(sql, [n])).rows[0]!.n).to.equal(n + 1);
      const prepared = await engine.query<{ name: string; statement: string }>("SELECT name, statement FROM pg_prepared_statements WHERE statement = $1", [sql]);
      expect(prepared.rows).to.have.length(1);
      expect(prepared.rows[0]!.name).to.equal(statementNames().nameOf(sql));
      // Not a data statement: not prepared.
      await engine.query("SET application_name = 'ferry-test'");
      expect((await engine.query("SELECT 1 FROM pg_prepared_statements WHERE statement LIKE 'SET %'")).rows).to.deep.equal([]);
    } finally {
      await engine.close();
    }
  });

  it("preparedStatementsOff_runsEveryStatementUnnamed", async () => {
    const engine = await createPostgresEngine({ databaseUrl: url!, settings: { ...DEFAULT_POSTGRES_SETTINGS, poolSize: 1, preparedStatements: false } });
    try {
      for (const n of [1, 2]) await engine.query("SELECT $1::int + 2 AS n", [n]);
      expect((await engine.query("SELECT name FROM pg_prepared_statements")).rows).to.deep.equal([]);
    } finally {
      await engine.close();
    }
  });

  it("aPlanMadeStaleByAnotherProcesssMigration_runsAgainUnnamed_andIsNeverNamedAgain", async () => {
    // Another process adds a column: a prepared `SELECT *` may no longer run ("cached plan must not
    // change result type"). Before, every later call of that statement on that connection failed.
    const engine = await oneConnection();
    const other = new pg.Client({ connectionString: url });
    await other.connect();
    try {
      await engine.query("CREATE TABLE stale_plan (a int)");
      await engine.query("INSERT INTO stale_plan (a) VALUES (1)");
      const sql = "SELECT * FROM stale_plan WHERE a = $1";
      expect((await engine.query(sql, [1])).rows).to.deep.equal([{ a: 1 }]);
      const schema = (await engine.query<{ s: string }>("SELECT current_schema() AS s")).rows[0]!.s;
      await other.query(`ALTER TABLE ${schema}.stale_plan ADD COLUMN b int DEFAULT 7`);
      expect((await engine.query(sql, [1])).rows).to.deep.equal([{ a: 1, b: 7 }]);
      expect((await engine.query(sql, [1])).rows).to.deep.equal([{ a: 1, b: 7 }]);
      // Inside a transaction the stale plan fails the transaction (it cannot run again there).
      await other.query(`ALTER TABLE ${schema}.stale_plan ADD COLUMN c int DEFAULT 8`);
      const inTx = "SELECT * FROM stale_plan WHERE a = $1 AND $1 > 0";
      expect((await engine.query(inTx, [1])).rows).to.deep.equal([{ a: 1, b: 7, c: 8 }]);
      await other.query(`ALTER TABLE ${schema}.stale_plan ADD COLUMN d int DEFAULT 9`);
      const failed = await engine.transaction((tx) => tx.query(inTx, [1])).catch((e: unknown) => e);
      expect(failed).to.be.instanceOf(Error);
      expect((await engine.transaction((tx) => tx.query(inTx, [1]))).rows).to.deep.equal([{ a: 1, b: 7, c: 8, d: 9 }]);
    } finally {
      await other.end();
      await engine.exec("DROP TABLE IF EXISTS stale_plan");
      await engine.close();
    }
  });
});

describe("statementNames", () => {
  it("namesDataStatementsByTheirText_notOthers_atMostMax_andForgets", () => {
    const names = statementNames(3);
    const a = names.nameOf("SELECT 1 WHERE $1");
    expect(a).to.match(/^ferry_[A-Za-z0-9_-]{24}$/);
    expect(names.nameOf("SELECT 1 WHERE $1")).to.equal(a);
    expect(statementNames().nameOf("SELECT 1 WHERE $1"), "the same name in every process").to.equal(a);
    for (const sql of ["BEGIN", "COMMIT", "SET x = 1", "CREATE TABLE t (a int)", "LISTEN x"]) expect(names.nameOf(sql), sql).to.equal(undefined);
    for (const sql of ["with q as (select 1) select * from q", "INSERT INTO t VALUES ($1)"]) expect(names.nameOf(sql), sql).to.be.a("string");
    expect(names.nameOf("DELETE FROM t"), "past the cap").to.equal(undefined);
    names.forget("SELECT 1 WHERE $1");
    expect(names.nameOf("SELECT 1 WHERE $1")).to.equal(undefined);
  });
});

async function until(check: () => boolean, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error("timed out");
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** The test server's URL; a suite without one is skipped, or fails under CI. */
async function postgresOrSkip(context: Mocha.Context): Promise<string> {
  const url = await reachablePostgres();
  if (url) return url;
  if (process.env.CI || process.env.FERRY_TEST_REQUIRE_POSTGRES) throw new Error("PostgreSQL unreachable under CI");
  return context.skip();
}

async function reachablePostgres(): Promise<string | undefined> {
  // As test/service/store/engines.ts: TCP first, then the local socket (peer auth as root).
  for (const candidate of [process.env.FERRY_TEST_DATABASE_URL, "postgres://root@127.0.0.1:5432/ferry_test", "postgres://root@/ferry_test?host=/var/run/postgresql"]) {
    if (!candidate) continue;
    const client = new pg.Client({ connectionString: candidate, connectionTimeoutMillis: 3000 });
    try {
      await client.connect();
      return candidate;
    } catch {
      // next
    } finally {
      await client.end().catch(() => {});
    }
  }
  return undefined;
}

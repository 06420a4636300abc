// `ferry keys` against the service's database (a temporary PGlite folder, and once PostgreSQL through
// DATABASE_URL): through the dispatcher in this process (db.run), and as the spawned bin for one run
// of each subcommand and wherever another process matters (the lock a running service holds).
import { existsSync } from "node:fs";
import { expect } from "chai";
import { readFile } from "node:fs/promises";
import { apiKeyStore } from "../../ts/service/store/apiKeys.ts";
import { errorLine } from "./runCli.ts";
import { pgliteDatabase, postgresDatabase, requirePostgres, type PgliteDatabase, type ServiceDatabase } from "./serviceDatabase.ts";

type Created = { id: string; name: string; rateLimit: number | null; key: string };

async function createKey(db: ServiceDatabase, name: string, extra: string[] = []): Promise<Created> {
  const run = await db.run(["keys", "create", "--json", name, ...extra]);
  expect(run.status, run.stderr).to.equal(0);
  return JSON.parse(run.stdout) as Created;
}

describe("ferry keys", function () {
  this.timeout(120_000);
  // Each test's folder does not exist yet: the first test's CLI creates it, and two tests are about
  // its absence. The others start from a copy of a migrated database (db.copyMigrated()), which
  // spares each one the ~5 s of creating it.
  let db: PgliteDatabase;
  beforeEach(() => {
    db = pgliteDatabase();
  });
  afterEach(async () => {
    await db.drop();
  });

  it("create_printsTheKeyOnce_withANote_andStoresOnlyItsHash", async () => {
    const run = db.cli(["keys", "create", "integrator", "--rate-limit", "5000"]);
    expect(run.status, run.stderr).to.equal(0);
    const lines = run.stdout.trimEnd().split("\n");
    expect(lines).to.have.length(3);
    expect(lines[0]).to.match(/^created key_[0-9a-f]{16} "integrator" \(5000\/min\)$/);
    expect(lines[1]).to.match(/^ferry_[A-Za-z0-9_-]{43}$/);
    expect(lines[2]).to.match(/shown only now.*not the key/);
    const key = lines[1]!;

    const store = await db.open();
    try {
      expect(await apiKeyStore(store).verifyApiKey(key)).to.deep.include({ name: "integrator", rateLimit: 5000 });
      const { rows } = await store.engine.query("SELECT * FROM api_keys");
      expect(JSON.stringify(rows)).to.not.include(key);
    } finally {
      await store.close();
    }
    // Listing never shows it again.
    const list = db.cli(["keys", "list"]);
    expect(list.status, list.stderr).to.equal(0);
    expect(list.stdout).to.include("integrator").and.not.include(key);
  });

  it("create_list_revoke_withJson", async () => {
    await db.copyMigrated();
    const a = await createKey(db, "alpha");
    const b = await createKey(db, "beta", ["--rate-limit", "10"]);
    expect(a).to.include({ name: "alpha", rateLimit: null });
    expect(b).to.include({ name: "beta", rateLimit: 10 });
    expect(a.key).to.not.equal(b.key);

    const revoked = db.cli(["--json", "keys", "revoke", a.id]);
    expect(revoked.status, revoked.stderr).to.equal(0);
    expect(JSON.parse(revoked.stdout)).to.deep.equal({ id: a.id, revoked: true, alreadyRevoked: false });

    // Idempotent: a second revoke says so and succeeds.
    const again = await db.run(["keys", "revoke", a.id, "--json"]);
    expect(again.status, again.stderr).to.equal(0);
    expect(JSON.parse(again.stdout)).to.include({ id: a.id, alreadyRevoked: true });

    const list = await db.run(["keys", "list", "--json"]);
    expect(list.status, list.stderr).to.equal(0);
    const { keys } = JSON.parse(list.stdout) as { keys: { id: string; name: string; rateLimit: number | null; revokedAt: string | null }[] };
    expect(keys.map((k) => [k.id, k.name, k.rateLimit, k.revokedAt === null])).to.have.deep.members([
      [a.id, "alpha", null, false],
      [b.id, "beta", 10, true],
    ]);
    expect(list.stdout).to.not.include(a.key).and.not.include(b.key);

    const text = await db.run(["keys", "list"]);
    expect(text.stdout.split("\n")[0]).to.match(/^ID\s+NAME\s+RATE LIMIT\s+REFERRER\s+CREATED\s+REVOKED$/);
    expect(text.stdout).to.include(a.id).and.include(b.id);
  });

  it("referrer_tiesAReferrerToOneKey_clearsIt_andRefusesATakenOneOrAnUnknownKey", async () => {
    await db.copyMigrated();
    const a = await createKey(db, "alpha");
    const b = await createKey(db, "beta");
    const set = db.cli(["--json", "keys", "referrer", a.id, "acme-app"]);
    expect(set.status, set.stderr).to.equal(0);
    expect(JSON.parse(set.stdout)).to.deep.equal({ id: a.id, referrer: "acme-app" });
    const taken = await db.run(["keys", "referrer", b.id, "acme-app"]);
    expect(taken.status).to.not.equal(0);
    expect(taken.stderr).to.include("REFERRER_TAKEN");
    const unknown = await db.run(["keys", "referrer", "key_0000000000000000", "other"]);
    expect(unknown.status).to.not.equal(0);
    expect(unknown.stderr).to.include("UNKNOWN_API_KEY");
    const list = JSON.parse((await db.run(["keys", "list", "--json"])).stdout) as { keys: { id: string; referrer: string | null }[] };
    expect(list.keys.find((k) => k.id === a.id)!.referrer).to.equal("acme-app");
    const cleared = await db.run(["--json", "keys", "referrer", "--clear", a.id]);
    expect(cleared.status, cleared.stderr).to.equal(0);
    expect(JSON.parse(cleared.stdout)).to.deep.equal({ id: a.id, referrer: null });
    expect((await db.run(["keys", "referrer", b.id, "acme-app"])).status).to.equal(0);
  });

  it("list_onAnEmptyDatabase_saysSo_butNeverCreatesOne", async () => {
    // A read of an embedded database that is not there is an error naming the folder, and creates nothing.
    const missing = db.cli(["keys", "list"]);
    expect(missing.status).to.equal(2);
    expect(errorLine(missing)).to.equal(`ferry: DATA_DIR_MISSING: no database at ${db.dataDir}: pass the service's --data-dir / FERRY_DATA_DIR (or DATABASE_URL)`);
    expect(existsSync(db.dataDir)).to.equal(false);
    await (await db.open()).close();
    const run = await db.run(["keys", "list"]);
    expect(run.status, run.stderr).to.equal(0);
    expect(run.stdout).to.match(/^no API keys/);
    expect(JSON.parse((await db.run(["keys", "list", "--json"])).stdout)).to.deep.equal({ keys: [] });
  });

  it("revoke_exits2_forAnUnknownKeyId", async () => {
    await db.copyMigrated();
    const run = await db.run(["keys", "revoke", "key_0000000000000000"]);
    expect(run.status).to.equal(2);
    expect(errorLine(run)).to.match(/^ferry: UNKNOWN_API_KEY: .*key_0000000000000000/);
  });

  it("exits2_onBadUsage_beforeTouchingTheDatabase", async () => {
    const cases: string[][] = [
      ["keys", "create"],
      ["keys", "create", "  "],
      ["keys", "create", "x".repeat(101)],
      ["keys", "create", "a", "b"],
      ["keys", "create", "a", "--rate-limit", "0"],
      ["keys", "create", "a", "--rate-limit", "1.5"],
      ["keys", "create", "a", "--rate-limit", "ten"],
      ["keys", "create", "a", "--bogus"],
      ["keys", "revoke"],
      ["keys", "list", "extra"],
      ["keys", "rotate"],
    ];
    for (const args of cases) {
      const run = await db.run(args);
      expect(run.status, args.join(" ")).to.equal(2);
      expect(errorLine(run), args.join(" ")).to.match(/^ferry: USAGE: /);
    }
    expect(existsSync(db.dataDir), "the data folder was created").to.equal(false);
  });

  it("exits2_withTheHoldersPid_whileTheServiceHasTheEmbeddedDatabaseOpen", async () => {
    await db.copyMigrated();
    await createKey(db, "before");
    // This test process plays the running service.
    const service = await db.open();
    try {
      const run = db.cli(["keys", "list"]);
      expect(run.status).to.equal(2);
      expect(errorLine(run)).to.equal(
        `ferry: DATA_DIR_LOCKED: the embedded database at ${db.dataDir} is in use by process ${process.pid}: stop the service or use DATABASE_URL; while it runs, use its admin API: --api-url <url> with FERRY_ADMIN_TOKEN`,
      );
    } finally {
      await service.close();
    }
    expect((await db.run(["keys", "list"])).status).to.equal(0);
  });

  it("exits2_onAnInvalidConfiguration", async () => {
    const run = await db.run(["keys", "list"], { env: { DATABASE_URL: "mysql://nope" } });
    expect(run.status).to.equal(2);
    expect(errorLine(run)).to.match(/^ferry: CONFIG_INVALID: DATABASE_URL: /);
    expect(run.stderr).to.not.include("mysql://nope");
  });

  it("prints help, exit 0", async () => {
    for (const [index, args] of [["keys", "--help"], ["keys", "create", "--help"], ["help", "keys"]].entries()) {
      const run = index === 0 ? db.cli(args) : await db.run(args);
      expect(run.status, args.join(" ")).to.equal(0);
      expect(run.stdout).to.match(/^Usage: ferry keys/);
    }
  });

  it("create --json prints one JSON line a script can read the key from, as ts/cli/README.md documents", async () => {
    await db.copyMigrated();
    const run = db.cli(["keys", "create", "ci-bot", "--json"]);
    expect(run.status, run.stderr).to.equal(0);
    expect(run.stdout.endsWith("\n")).to.equal(true);
    expect(run.stdout.trimEnd().split("\n")).to.have.length(1);
    const created = JSON.parse(run.stdout) as Record<string, unknown>;
    expect(Object.keys(created)).to.have.members(["id", "name", "rateLimit", "key"]);
    expect(created.key).to.match(/^ferry_[A-Za-z0-9_-]{43}$/);
    const readme = await readFile(new URL("../../ts/cli/README.md", import.meta.url), "utf8");
    expect(readme).to.include("keys create acme --json | jq -r .key");
  });
});

describe("ferry keys [postgres]", function () {
  this.timeout(120_000);

  it("create_list_revoke_onPostgresThroughDatabaseUrl", async function () {
    const db = await postgresDatabase();
    requirePostgres(this, db);
    try {
      const created = await createKey(db, "pg-integrator", ["--rate-limit", "7"]);
      const store = await db.open();
      try {
        expect(await apiKeyStore(store).verifyApiKey(created.key)).to.deep.equal({ id: created.id, name: "pg-integrator", rateLimit: 7 });
      } finally {
        await store.close();
      }
      expect(db.cli(["keys", "revoke", created.id]).status).to.equal(0);
      const list = JSON.parse((await db.run(["keys", "list", "--json"])).stdout) as { keys: { id: string; revokedAt: string | null }[] };
      expect(list.keys).to.have.length(1);
      expect(list.keys[0]).to.include({ id: created.id });
      expect(list.keys[0]!.revokedAt).to.be.a("string");
    } finally {
      await db.drop();
    }
  });
});

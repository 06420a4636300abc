// `ferry keys|webhooks|requests` against a running service through its admin API (--api-url +
// FERRY_ADMIN_TOKEN), on both engines — with the embedded one held open by the service, which the
// CLI could not open itself (DATA_DIR_LOCKED, whose message now names the admin API) — and how the
// CLI picks its target: no target at all is NO_SERVICE naming the options, never an empty store.
import { randomBytes } from "node:crypto";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createServer } from "node:net";
import { expect } from "chai";
import { createStore, type Store } from "../../ts/service/store/createStore.ts";
import { copyMigratedDataDir } from "../service/store/migratedDataDir.ts";
import { fixtureConfig, listen, type Listening } from "../service/http/testApp.ts";
import { hex, testNewRequest } from "../service/fixtures/testRequest.ts";
import { errorLine, runCliAsync, type CliRun } from "./runCli.ts";
import { postgresDatabase, requirePostgres } from "./serviceDatabase.ts";

const TOKEN = randomBytes(32).toString("hex");
const SECRET_KEY_HEX = randomBytes(32).toString("hex");
const HEADER_VALUE = "Bearer hook-secret-value-42";
/** Nothing from the test's own environment may point the CLI elsewhere. */
const NEUTRAL = { FERRY_CONFIG: "", DATABASE_URL: "", FERRY_DATA_DIR: "", FERRY_API_URL: "", FERRY_ADMIN_TOKEN: "", FERRY_DEVNET_DIR: "", FERRY_WEBHOOK_SECRET_KEY: "" };

function ok(run: CliRun): CliRun {
  expect(run.status, run.stderr).to.equal(0);
  return run;
}

for (const kind of ["pglite", "postgres"] as const) {
  describe(`ferry keys|webhooks|requests over the admin API [${kind}]`, function () {
    this.timeout(300_000);
    let store: Store;
    let server: Listening;
    let cleanup: () => Promise<void>;
    let dataDir: string | undefined;
    const cli = (args: string[], env: Record<string, string> = {}, input?: string) =>
      runCliAsync(args, { env: { ...NEUTRAL, FERRY_API_URL: server.url, FERRY_ADMIN_TOKEN: TOKEN, ...env }, ...(input !== undefined ? { input } : {}) });

    before(async function () {
      if (kind === "pglite") {
        const root = mkdtempSync(join(tmpdir(), "ferry-admin-cli-"));
        // A copy of a migrated database, ~5 s cheaper to open than a new one: what is under test is
        // the service holding it, not its creation.
        dataDir = await copyMigratedDataDir(join(root, "data"));
        store = await createStore({ dataDir });
        cleanup = async () => rmSync(root, { recursive: true, force: true });
      } else {
        const database = await postgresDatabase();
        requirePostgres(this, database);
        store = await database.open();
        cleanup = () => database.drop();
      }
      server = await listen({ deps: { store }, config: fixtureConfig({}, { FERRY_ADMIN_TOKEN: TOKEN, FERRY_WEBHOOK_SECRET_KEY: SECRET_KEY_HEX }) });
    });
    after(async () => {
      await server?.close();
      await store?.close();
      await cleanup?.();
    });

    it("creates a key, sets its webhook with a header, shows it, reads the delivery log, and revokes it — while the service holds the database", async () => {
      const created = JSON.parse(ok(await cli(["keys", "create", "acme", "--json"])).stdout) as { id: string; key: string };
      expect(created.key).to.match(/^ferry_/);

      const set = ok(await cli(["webhooks", "set", "--key", "-", "--url", "https://hooks.example.com/ferry", "--header", `Authorization: ${HEADER_VALUE}`], {}, `${created.key}\n`));
      expect(set.stdout).to.include(created.id).and.include("Authorization");
      const shown = ok(await cli(["webhooks", "show"]));
      expect(shown.stdout).to.include("https://hooks.example.com/ferry").and.include("Authorization: [redacted]");
      for (const run of [set, shown]) for (const secret of [created.key, HEADER_VALUE, TOKEN]) expect(run.stdout + run.stderr).to.not.include(secret);

      await store.createRequest(testNewRequest(1, { apiKeyId: created.id }));
      const log = JSON.parse(ok(await cli(["webhooks", "log", "--request", hex(1), "--json"])).stdout) as { deliveries: { status: string; keyId: string }[] };
      expect(log.deliveries.map((d) => [d.status, d.keyId])).to.deep.equal([["waiting", created.id]]);

      if (dataDir) {
        // The embedded database is the service's: opening it directly fails, naming the way that works.
        const locked = await runCliAsync(["keys", "list"], { env: { ...NEUTRAL, FERRY_DATA_DIR: dataDir } });
        expect(locked.status).to.equal(2);
        expect(errorLine(locked)).to.match(/^ferry: DATA_DIR_LOCKED: .*use its admin API: --api-url <url> with FERRY_ADMIN_TOKEN$/);
      }

      ok(await cli(["webhooks", "clear", "--key-id", created.id]));
      expect(ok(await cli(["keys", "revoke", created.id])).stdout).to.match(/^revoked /);
      const keys = JSON.parse(ok(await cli(["keys", "list", "--json"])).stdout) as { keys: { id: string; revokedAt: string | null }[] };
      expect(keys.keys.find((k) => k.id === created.id)!.revokedAt).to.be.a("string");
    });

    it("lists and unparks parked requests", async () => {
      await store.createRequest(testNewRequest(2));
      await store.transitionRequest(hex(2), "pending");
      await store.parkRequest(hex(2), { code: "TRANSACTION_REVERTED", message: "reverted" });
      expect(ok(await cli(["requests", "parked"])).stdout).to.include(hex(2)).and.include("TRANSACTION_REVERTED");
      expect(ok(await cli(["requests", "unpark", hex(2)])).stdout).to.match(/^unparked /);
      const again = await cli(["requests", "unpark", hex(2)]);
      expect(again.status).to.equal(2);
      expect(errorLine(again)).to.match(/^ferry: REQUEST_NOT_PARKED: /);
    });

    it("exits 2 with the service's code for its errors and for a wrong token", async () => {
      const unknown = await cli(["keys", "revoke", "key_0000000000000000"]);
      expect(unknown.status).to.equal(2);
      expect(errorLine(unknown)).to.match(/^ferry: UNKNOWN_API_KEY: /);
      const wrong = await cli(["keys", "list"], { FERRY_ADMIN_TOKEN: `${TOKEN}0` });
      expect(wrong.status).to.equal(2);
      expect(errorLine(wrong)).to.match(/^ferry: ADMIN_UNAUTHORIZED: /);
      expect(wrong.stderr).to.not.include(TOKEN);
    });
  });
}

describe("ferry keys|webhooks|requests: choosing the service", function () {
  this.timeout(300_000);
  let empty: string;
  before(() => {
    empty = mkdtempSync(join(tmpdir(), "ferry-no-service-"));
  });
  after(() => rmSync(empty, { recursive: true, force: true }));

  it("without an API URL, a database or a devnet file, webhooks show is NO_SERVICE naming the options, and creates nothing", async () => {
    const run = await runCliAsync(["webhooks", "show"], { env: NEUTRAL, cwd: empty });
    expect(run.status).to.equal(2);
    expect(errorLine(run)).to.match(/^ferry: NO_SERVICE: name the service: --api-url <url> \(or FERRY_API_URL\) with FERRY_ADMIN_TOKEN.*--data-dir <dir>.*DATABASE_URL/);
    expect(existsSync(join(empty, ".ferry"))).to.equal(false);
  });

  it("--api-url without FERRY_ADMIN_TOKEN, an unreachable URL, and a service without the admin API are one-line errors naming the fix", async () => {
    const closed = `http://127.0.0.1:${await closedPort()}`;
    const noToken = await runCliAsync(["keys", "list", "--api-url", closed], { env: NEUTRAL, cwd: empty });
    expect(noToken.status).to.equal(2);
    expect(errorLine(noToken)).to.match(/^ferry: ADMIN_TOKEN_MISSING: set FERRY_ADMIN_TOKEN/);

    const unreachable = await runCliAsync(["keys", "list", "--api-url", closed], { env: { ...NEUTRAL, FERRY_ADMIN_TOKEN: TOKEN }, cwd: empty });
    expect(unreachable.status).to.equal(2);
    expect(errorLine(unreachable)).to.equal(`ferry: SERVICE_UNREACHABLE: cannot reach the service at ${closed} (ECONNREFUSED): is it running? check --api-url / FERRY_API_URL`);

    const store = await createStore();
    const server = await listen({ deps: { store } });
    try {
      const off = await runCliAsync(["keys", "list", "--api-url", server.url], { env: { ...NEUTRAL, FERRY_ADMIN_TOKEN: TOKEN }, cwd: empty });
      expect(off.status).to.equal(2);
      expect(errorLine(off)).to.match(/^ferry: ADMIN_API_OFF: .* start the service with FERRY_ADMIN_TOKEN set/);
    } finally {
      await server.close();
      await store.close();
    }
  });
});

/** A loopback port nothing listens on (taken, then released). */
function closedPort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

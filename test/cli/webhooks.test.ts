// `ferry webhooks` against the service's database (a temporary PGlite folder, and once PostgreSQL):
// through the dispatcher in this process (db.run), and as the spawned bin for one run of each
// subcommand (db.cli). Delivery attempts are written by the worker's own store functions
// (webhookOutbox.ts).
import { randomBytes } from "node:crypto";
import { expect } from "chai";
import type { Store } from "../../ts/service/store/createStore.ts";
import { claimWebhookEvents, recordWebhookAttempt } from "../../ts/service/store/webhooks/webhookOutbox.ts";
import { decryptWebhookSecret } from "../../ts/service/store/webhooks/webhookSecrets.ts";
import { errorLine, type CliRun } from "./runCli.ts";
import { pgliteDatabase, postgresDatabase, requirePostgres, type PgliteDatabase, type ServiceDatabase } from "./serviceDatabase.ts";
import { withIntent } from "../service/fixtures/testRequest.ts";
import { canonicalHex, canonicalAddress } from "../../ts/service/model/values.ts";

const SECRET_KEY_HEX = randomBytes(32).toString("hex");
const SECRET_KEY = Uint8Array.from(Buffer.from(SECRET_KEY_HEX, "hex"));
const WITH_SECRET = { FERRY_WEBHOOK_SECRET_KEY: SECRET_KEY_HEX };
const AUTH_VALUE = "Bearer s3cr3t-token-value";
const TENANT_VALUE = "acme-tenant-0001";
const URL_A = "https://hooks.example.com/ferry";

type Key = { id: string; key: string };
type Masked = { keyId: string; keyName: string; url: string; headers: Record<string, string>; updatedAt: string };

async function createKey(db: ServiceDatabase, name: string): Promise<Key> {
  const run = await db.run(["keys", "create", "--json", name]);
  expect(run.status, run.stderr).to.equal(0);
  return JSON.parse(run.stdout) as Key;
}

function ok(run: CliRun): CliRun {
  expect(run.status, run.stderr).to.equal(0);
  return run;
}

function json<T>(run: CliRun): T {
  return JSON.parse(ok(run).stdout) as T;
}

const hex32 = (n: number) => `0x${n.toString(16).padStart(64, "0")}` as const;

function newRequest(n: number, apiKeyId: string | null) {
  return withIntent({
    id: canonicalHex(hex32(n)),
    orderId: canonicalHex(hex32(1000 + n)),
    user: canonicalAddress(`0x${"aa".repeat(20)}`),
    recipient: canonicalAddress(`0x${"bb".repeat(20)}`),
    originChainId: 31337,
    destinationChainId: 31338,
    apiKeyId,
  });
}

describe("ferry webhooks", function () {
  this.timeout(180_000);
  let db: PgliteDatabase;
  let key: Key;

  beforeEach(async () => {
    // A copy of a migrated database: creating one is ferry keys' to test (keys.test.ts), ~5 s here.
    db = pgliteDatabase();
    await db.copyMigrated();
    key = await createKey(db, "integrator");
  });
  afterEach(async () => {
    await db.drop();
  });

  const set = (extra: string[], env: Record<string, string> = WITH_SECRET, input?: string) =>
    db.run(["webhooks", "set", ...extra], { env, ...(input !== undefined ? { input } : {}) });

  it("set_show_clear_showsHeaderNamesOnly_andNeverPrintsTheKey", async () => {
    const setRun = ok(db.cli(["webhooks", "set", "--key", key.key, "--url", URL_A, "--header", `Authorization: ${AUTH_VALUE}`, "--header", `X-Tenant:${TENANT_VALUE}`], { env: WITH_SECRET }));
    expect(setRun.stdout).to.include(key.id).and.include(URL_A).and.include("Authorization").and.include("X-Tenant");
    for (const secret of [key.key, AUTH_VALUE, TENANT_VALUE]) expect(setRun.stdout + setRun.stderr).to.not.include(secret);

    // What was stored: the endpoint and exact header values, the key only encrypted.
    const store = await db.open();
    try {
      const { rows } = await store.engine.query<{ webhook_url: string; webhook_headers: Record<string, string> }>("SELECT * FROM api_keys WHERE id = $1", [key.id]);
      expect(rows[0]!.webhook_url).to.equal(URL_A);
      expect(rows[0]!.webhook_headers).to.deep.equal({ Authorization: AUTH_VALUE, "X-Tenant": TENANT_VALUE });
      expect(JSON.stringify(rows)).to.not.include(key.key);
    } finally {
      await store.close();
    }

    const shown = ok(db.cli(["webhooks", "show"]));
    expect(shown.stdout.split("\n")[0]).to.match(/^KEY ID\s+NAME\s+URL\s+UPDATED\s+HEADERS$/);
    expect(shown.stdout).to.include(key.id).and.include("integrator").and.include(URL_A);
    expect(shown.stdout).to.include("Authorization: [redacted]").and.include("X-Tenant: [redacted]");
    const { webhooks } = json<{ webhooks: Masked[] }>(await db.run(["webhooks", "show", "--json", "--key-id", key.id]));
    expect(webhooks).to.have.length(1);
    expect(webhooks[0]).to.deep.include({ keyId: key.id, keyName: "integrator", url: URL_A, headers: { Authorization: "[redacted]", "X-Tenant": "[redacted]" } });
    for (const run of [shown]) for (const secret of [key.key, AUTH_VALUE, TENANT_VALUE]) expect(run.stdout).to.not.include(secret);

    // Setting again replaces the endpoint and its headers.
    const replaced = json<Masked>(await set(["--json", "--key", key.key, "--url", `${URL_A}/v2`]));
    expect(replaced).to.deep.include({ keyId: key.id, url: `${URL_A}/v2`, headers: {} });
    expect(json<{ webhooks: Masked[] }>(await db.run(["webhooks", "show", "--json"])).webhooks.map((w) => w.url)).to.deep.equal([`${URL_A}/v2`]);

    expect(json(db.cli(["webhooks", "clear", "--key-id", key.id, "--json"]))).to.deep.equal({ keyId: key.id, cleared: true });
    expect(ok(await db.run(["webhooks", "show"])).stdout).to.match(/^no webhooks configured/);
    for (const args of [["webhooks", "clear", "--key-id", key.id], ["webhooks", "show", "--key-id", key.id]]) {
      const run = await db.run(args);
      expect(run.status, args.join(" ")).to.equal(2);
      expect(errorLine(run)).to.match(/^ferry: WEBHOOK_NOT_CONFIGURED: /);
    }
  });

  it("set_readsTheKeyFromStdin_withKeyDash", async () => {
    const configured = json<Masked>(await set(["--json", "--key", "-", "--url", URL_A], WITH_SECRET, `${key.key}\n`));
    expect(configured.keyId).to.equal(key.id);
    const empty = await set(["--key", "-", "--url", URL_A], WITH_SECRET, "\n");
    expect(empty.status).to.equal(2);
    expect(errorLine(empty)).to.match(/^ferry: USAGE: /);
  });

  it("set_exits2_onBadInput_withAClearMessage_thatNeverContainsTheKeyOrAHeaderValue", async () => {
    const other = await createKey(db, "revoked-one");
    ok(await db.run(["keys", "revoke", other.id]));
    const cases: [string, string[], Record<string, string>?][] = [
      ["INVALID_WEBHOOK_URL", ["--key", key.key, "--url", "ftp://hooks.example.com/x"]],
      ["INVALID_WEBHOOK_URL", ["--key", key.key, "--url", "not a url"]],
      ["INVALID_WEBHOOK_URL", ["--key", key.key, "--url", "http://hooks.example.com/x"]],
      ["INVALID_WEBHOOK_HEADER", ["--key", key.key, "--url", URL_A, "--header", AUTH_VALUE]],
      ["INVALID_WEBHOOK_HEADER", ["--key", key.key, "--url", URL_A, "--header", `X-Signature-SHA256: ${TENANT_VALUE}`]],
      ["INVALID_WEBHOOK_HEADER", ["--key", key.key, "--url", URL_A, "--header", `Bad Name: ${TENANT_VALUE}`]],
      ["INVALID_WEBHOOK_HEADER", ["--key", key.key, "--url", URL_A, "--header", `X-Tenant: ${TENANT_VALUE}`, "--header", `x-tenant: ${TENANT_VALUE}`]],
      ["INVALID_WEBHOOK_HEADER", ["--key", key.key, "--url", URL_A, "--header", `X-Tenant: ${TENANT_VALUE}\u0007`]],
      ["UNKNOWN_API_KEY", ["--key", `${key.key}x`, "--url", URL_A]],
      ["UNKNOWN_API_KEY", ["--key", other.key, "--url", URL_A]],
      ["WEBHOOK_SECRET_KEY_MISSING", ["--key", key.key, "--url", URL_A], {}],
      ["CONFIG_INVALID", ["--key", key.key, "--url", URL_A], { FERRY_WEBHOOK_SECRET_KEY: "abcd" }],
      ["USAGE", ["--key", key.key]],
      ["USAGE", ["--url", URL_A]],
      ["USAGE", ["--key", key.key, "--url", URL_A, "extra"]],
    ];
    for (const [code, args, env] of cases) {
      const run = await set(args, env);
      const label = `${code} ${args.slice(2).join(" ")}`;
      expect(run.status, label).to.equal(2);
      expect(errorLine(run), label).to.match(new RegExp(`^ferry: ${code}: \\S`));
      for (const secret of [key.key, other.key, AUTH_VALUE, TENANT_VALUE]) expect(run.stdout + run.stderr, label).to.not.include(secret);
    }
    // Nothing was configured by any of them.
    expect(json<{ webhooks: Masked[] }>(await db.run(["webhooks", "show", "--json"])).webhooks).to.deep.equal([]);
  });

  it("log_showsStateAttemptsAndNextAttempt_andRedeliverStartsANewRound", async () => {
    ok(await set(["--key", key.key, "--url", URL_A]));
    const t0 = Date.UTC(2026, 0, 1, 12);
    const nextAttemptAt = new Date(t0 + 60_000);
    const store: Store = await db.open();
    try {
      await store.createRequest(newRequest(1, key.id)); // event 1
      await store.transitionRequest(canonicalHex(hex32(1)), "pending"); // event 2
      await store.createRequest(newRequest(2, null)); // event 3: no API key, nowhere to go
      const claim = (at: number) => claimWebhookEvents(store.engine, new Date(at), { owner: "test", leaseMs: 30_000, maxAttempts: 11, limit: 10, secretKeys: { current: SECRET_KEY } });
      const record = (job: { eventId: number; round: number; attempt: number }, at: number, statusCode: number | null, error: string | null, durationMs: number) =>
        recordWebhookAttempt(
          store.engine,
          "test",
          { ...job, at: new Date(at), statusCode, error, durationMs, delivered: statusCode !== null && statusCode < 300 },
          { maxAttempts: 11, nextAttemptAt, now: new Date(at + durationMs) },
        );

      // Event 1: a 500, then a 200 (the worker records a status code without an error text). Event 3 is skipped on the first claim.
      const first = await claim(t0);
      expect(first.jobs.map((j) => j.eventId)).to.deep.equal([1]);
      expect(first.jobs[0]!.secret).to.equal(key.key);
      await record(first.jobs[0]!, t0, 500, null, 120);
      const second = await claim(nextAttemptAt.getTime());
      expect(second.jobs.map((j) => j.eventId)).to.deep.equal([1]);
      await record(second.jobs[0]!, nextAttemptAt.getTime(), 200, null, 35);
      // Event 2: refused, retried later.
      const third = await claim(nextAttemptAt.getTime() + 1000);
      expect(third.jobs.map((j) => j.eventId)).to.deep.equal([2]);
      await record(third.jobs[0]!, nextAttemptAt.getTime() + 1000, null, "ECONNREFUSED", 3);
    } finally {
      await store.close();
    }

    type Log = {
      deliveries: {
        eventId: number;
        requestId: string;
        status: string;
        keyId: string | null;
        state: string;
        attempts: number;
        nextAttemptAt: string | null;
        lastStatusCode: number | null;
        lastError: string | null;
        deliveredAt: string | null;
        attemptLog: { attempt: number; at: string; statusCode: number | null; error: string | null; durationMs: number }[];
      }[];
    };
    const one = json<Log>(await db.run(["webhooks", "log", "1", "--json"])).deliveries;
    expect(one).to.have.length(1);
    expect(one[0]).to.deep.include({ eventId: 1, requestId: hex32(1), status: "waiting", keyId: key.id, state: "delivered", attempts: 2, nextAttemptAt: null });
    expect(one[0]!.deliveredAt).to.be.a("string");
    expect(one[0]!.attemptLog).to.deep.equal([
      { eventId: 1, attempt: 1, at: new Date(t0).toISOString(), statusCode: 500, error: null, durationMs: 120 },
      { eventId: 1, attempt: 2, at: nextAttemptAt.toISOString(), statusCode: 200, error: null, durationMs: 35 },
    ]);

    const text = ok(db.cli(["webhooks", "log", "1"])).stdout;
    expect(text).to.match(/^event 1 +request 0x0+1 +status waiting +key key_/);
    expect(text).to.match(/state delivered \(2 attempts; delivered at /);
    expect(text).to.match(/1 +2026-01-01T12:00:00\.000Z +500 +120 ms +-/);
    expect(text).to.match(/2 +2026-01-01T12:01:00\.000Z +200 +35 ms +-/);

    const request = json<Log>(await db.run(["webhooks", "log", "--request", hex32(1).toUpperCase().replace("0X", "0x"), "--json"])).deliveries;
    expect(request.map((d) => [d.eventId, d.status, d.state, d.attempts])).to.deep.equal([
      [1, "waiting", "delivered", 2],
      [2, "pending", "pending", 1],
    ]);
    expect(request[1]).to.deep.include({ nextAttemptAt: nextAttemptAt.toISOString(), lastStatusCode: null, lastError: "ECONNREFUSED" });
    const requestText = ok(await db.run(["webhooks", "log", "--request", hex32(1)])).stdout;
    expect(requestText).to.include(`next attempt at ${nextAttemptAt.toISOString()}`).and.include("last: ECONNREFUSED");
    expect(requestText.indexOf("event 1 ")).to.be.lessThan(requestText.indexOf("event 2 "));

    const skipped = json<Log>(await db.run(["webhooks", "log", "3", "--json"])).deliveries[0]!;
    expect(skipped).to.deep.include({ state: "skipped", keyId: null, attempts: 0, lastError: "NO_API_KEY", attemptLog: [] });

    // Redeliver one event: pending again at attempt 0, its earlier attempts still in the log.
    expect(json(await db.run(["webhooks", "redeliver", "1", "--json"]))).to.deep.equal({ eventId: 1, redelivered: 1 });
    const again = json<Log>(await db.run(["webhooks", "log", "1", "--json"])).deliveries[0]!;
    expect(again).to.deep.include({ state: "pending", attempts: 0, deliveredAt: null });
    expect(again.attemptLog).to.have.length(2);
    expect(ok(await db.run(["webhooks", "log", "1"])).stdout).to.include("state pending (0 attempts; next attempt: as soon as a worker claims it)");

    // Redeliver by time: nothing after the future, every event after the past.
    expect(json(await db.run(["webhooks", "redeliver", "--since", "2999-01-01T00:00:00Z", "--json"]))).to.deep.equal({ since: "2999-01-01T00:00:00.000Z", redelivered: 0 });
    expect(json(await db.run(["webhooks", "redeliver", "--json", "--since", "2000-01-01"]))).to.deep.equal({ since: "2000-01-01T00:00:00.000Z", redelivered: 3 });
    expect(ok(db.cli(["webhooks", "redeliver", "--since", "2000-01-01T02:00:00+02:00"])).stdout).to.equal(
      "3 events since 2000-01-01T00:00:00.000Z queued for redelivery\n",
    );
  });

  it("log_and_redeliver_exit2_onBadInput", async () => {
    const cases: [string, string[]][] = [
      ["UNKNOWN_EVENT", ["log", "999"]],
      ["REQUEST_NOT_FOUND", ["log", "--request", hex32(77)]],
      ["INVALID_INPUT", ["log", "--request", "0x12"]],
      ["USAGE", ["log"]],
      ["USAGE", ["log", "1", "--request", hex32(1)]],
      ["USAGE", ["log", "abc"]],
      ["USAGE", ["log", "0"]],
      ["UNKNOWN_EVENT", ["redeliver", "999"]],
      ["USAGE", ["redeliver"]],
      ["USAGE", ["redeliver", "1", "--since", "2026-01-01"]],
      ["USAGE", ["redeliver", "--since", "2026-01-01T00:00"]],
      ["USAGE", ["redeliver", "--since", "2026-02-30"]],
      ["USAGE", ["redeliver", "--since", "2026-01-01T24:00:00Z"]],
      ["USAGE", ["redeliver", "--since", "yesterday"]],
      ["USAGE", ["clear"]],
      ["USAGE", ["show", "extra"]],
      ["USAGE", ["resend", "1"]],
    ];
    for (const [code, args] of cases) {
      const run = await db.run(["webhooks", ...args]);
      expect(run.status, args.join(" ")).to.equal(2);
      expect(errorLine(run), args.join(" ")).to.match(new RegExp(`^ferry: ${code}: \\S`));
    }
  });

  it("prints help, exit 0", async () => {
    for (const [index, args] of [["webhooks", "--help"], ["webhooks", "set", "--help"], ["help", "webhooks"]].entries()) {
      const run = index === 0 ? db.cli(args) : await db.run(args);
      expect(run.status, args.join(" ")).to.equal(0);
      expect(run.stdout).to.match(/^Usage: ferry webhooks/);
    }
  });
});

describe("ferry webhooks [postgres]", function () {
  this.timeout(120_000);

  it("set_show_onPostgresThroughDatabaseUrl", async function () {
    const db = await postgresDatabase();
    requirePostgres(this, db);
    try {
      const key = await createKey(db, "pg-integrator");
      const configured = json<Masked>(db.cli(["webhooks", "set", "--json", "--key", key.key, "--url", URL_A, "--header", `Authorization: ${AUTH_VALUE}`], { env: WITH_SECRET }));
      expect(configured).to.deep.include({ keyId: key.id, url: URL_A, headers: { Authorization: "[redacted]" } });
      const shown = ok(await db.run(["webhooks", "show"]));
      expect(shown.stdout).to.include(key.id).and.include("Authorization: [redacted]").and.not.include(AUTH_VALUE);
    } finally {
      await db.drop();
    }
  });

  it("rotateSecretKey_reEncryptsUnderTheNewKey_readingThePrevious_reRunsAsANoOp_andNamesWhatNeitherKeyOpens", async function () {
    const db = await postgresDatabase();
    requirePostgres(this, db);
    const NEW_HEX = randomBytes(32).toString("hex");
    try {
      const key = await createKey(db, "rotating");
      ok(await db.run(["webhooks", "set", "--key", key.key, "--url", URL_A], { env: WITH_SECRET }));
      // The new key alone cannot read it: nothing changes, exit 2 naming the key id and the fix.
      const alone = db.cli(["webhooks", "rotate-secret-key"], { env: { FERRY_WEBHOOK_SECRET_KEY: NEW_HEX } });
      expect(alone.status, alone.stderr).to.equal(2);
      expect(alone.stdout).to.include("0 webhook secrets re-encrypted");
      expect(errorLine(alone)).to.match(/^ferry: WEBHOOK_SECRET_KEY_MISMATCH: /).and.include(key.id).and.include("FERRY_WEBHOOK_SECRET_KEY_PREVIOUS");
      const both = { FERRY_WEBHOOK_SECRET_KEY: NEW_HEX, FERRY_WEBHOOK_SECRET_KEY_PREVIOUS: SECRET_KEY_HEX };
      expect(json(await db.run(["webhooks", "rotate-secret-key", "--json"], { env: both }))).to.deep.equal({ reencrypted: 1, alreadyCurrent: 0, unreadable: [] });
      const again = ok(await db.run(["webhooks", "rotate-secret-key"], { env: both }));
      expect(again.stdout).to.include("0 webhook secrets re-encrypted under FERRY_WEBHOOK_SECRET_KEY, 1 already under it; FERRY_WEBHOOK_SECRET_KEY_PREVIOUS is no longer needed");
      const store = await db.open();
      try {
        const { rows } = await store.engine.query<{ webhook_secret: string }>("SELECT webhook_secret FROM api_keys WHERE id = $1", [key.id]);
        expect(decryptWebhookSecret(Uint8Array.from(Buffer.from(NEW_HEX, "hex")), key.id, rows[0]!.webhook_secret)).to.equal(key.key);
      } finally {
        await store.close();
      }
      for (const secret of [NEW_HEX, SECRET_KEY_HEX, key.key]) expect(alone.stdout + alone.stderr + again.stdout).not.to.include(secret);
      const missing = await db.run(["webhooks", "rotate-secret-key"]);
      expect(errorLine(missing)).to.match(/^ferry: WEBHOOK_SECRET_KEY_MISSING: /);
      const nowhere = await db.run(["webhooks", "rotate-secret-key"], { env: { DATABASE_URL: "", FERRY_DATA_DIR: "" } });
      expect(nowhere.status).to.equal(2);
      expect(errorLine(nowhere)).to.match(/^ferry: USAGE: rotate-secret-key works on the service's database/);
    } finally {
      await db.drop();
    }
  });
});

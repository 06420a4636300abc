// Fault: PostgreSQL stops while webhook attempts are in flight. The receiver answers 200 during the
// outage, so the worker cannot record the deliveries: they kept their lease (60 s by default), filled
// the endpoint's in-flight slots (maxInFlightPerEndpoint), and after the database came back nothing
// went to that key until the leases lapsed (~40 s in the field after a 20 s outage) — and then the
// delivered events were claimed again and sent a second time.
//
// The service runs as a real process (`node ts/service/server.ts`, no chains: webhooks only) on a
// private PostgreSQL cluster, stopped with `pg_ctl stop -m fast` (every session terminated) while the
// endpoint's four slots are held by slow answers, and started again OUTAGE_MS later. After the restart,
// every event must be delivered within a few seconds, and exactly once: no event gets a second POST.
import { spawn, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { expect } from "chai";
import { apiKeyStore } from "../../ts/service/store/apiKeys.ts";
import { createStore } from "../../ts/service/store/createStore.ts";
import { ABANDONED } from "../../ts/service/store/webhooks/webhookOutbox.ts";
import { webhookStore } from "../../ts/service/store/webhooks/webhooks.ts";
import { parseWebhookSecretKey } from "../../ts/service/store/webhooks/webhookSecrets.ts";
import { seedRequest } from "../service/webhooks/webhookFixtures.ts";
import { startReceiver, waitUntil, type Receiver } from "../service/webhooks/webhookReceiver.ts";
import { skipUnlessFaults } from "./faultSuite.ts";
import { privatePostgresAvailable, startPrivatePostgres, type PrivatePostgres } from "./loadPostgres.ts";

const OUTAGE_MS = 8_000;
/** How long the receiver holds each answer while the database goes away (the attempts in flight then). */
const SLOW_ANSWER_MS = 3_000;
/** The bound on delivering everything once the database is back. */
const PROMPT_MS = 5_000;
const REQUESTS = 5;

describe("fault: webhook leases across a PostgreSQL outage", function () {
  this.timeout(180_000);
  let postgres: PrivatePostgres | undefined;
  let receiver: Receiver | undefined;
  let child: ChildProcess | undefined;
  let dir = "";

  before(async function () {
    skipUnlessFaults(this);
    if (!privatePostgresAvailable()) throw new Error("PostgreSQL 15 binaries (initdb, pg_ctl) are needed for this fault test");
    dir = mkdtempSync(join(tmpdir(), "ferry-webhook-outage-"));
    postgres = await startPrivatePostgres();
  });
  after(async () => {
    if (child && child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
    await receiver?.close();
    await postgres?.destroy();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it("attemptsInFlightWhenTheDatabaseStops_areSettledOnReconnect_everyEventDeliveredPromptlyAndOnce", async () => {
    const secretHex = randomBytes(32).toString("hex");
    let slow = true;
    receiver = await startReceiver(() => (slow ? new Promise<number>((resolve) => setTimeout(() => resolve(200), SLOW_ANSWER_MS)) : 200));
    const seeded = await createStore({ databaseUrl: postgres!.url });
    let eventIds: number[];
    try {
      const { id, key } = await apiKeyStore(seeded).createApiKey("integrator");
      await webhookStore(seeded, { secretKey: parseWebhookSecretKey(secretHex) }).setWebhook({ apiKey: key, url: receiver.url });
      for (let n = 1; n <= REQUESTS; n++) await seedRequest(seeded, n, id, ["pending", "submitted", "success"]);
      eventIds = (await webhookStore(seeded, {}).listDeliveries()).map((d) => d.eventId).sort((a, b) => a - b);
    } finally {
      await seeded.close();
    }
    expect(eventIds).to.have.length(REQUESTS * 4);

    // The defaults that matter here: leaseMs 60 s, four attempts in flight per endpoint.
    const configPath = join(dir, "ferry.json");
    writeFileSync(configPath, JSON.stringify({ server: { host: "127.0.0.1", port: 0 }, webhooks: { pollIntervalMs: 50, baseDelayMs: 200, maxDelayMs: 1000 } }));
    let output = "";
    child = spawn(process.execPath, ["ts/service/server.ts"], {
      cwd: process.cwd(),
      env: { ...process.env, FERRY_CONFIG: configPath, DATABASE_URL: postgres!.url, FERRY_WEBHOOK_SECRET_KEY: secretHex, FERRY_LOG_LEVEL: "info" },
      stdio: ["ignore", "pipe", "pipe"],
    });
    child.stdout!.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.stderr!.on("data", (chunk: Buffer) => (output += chunk.toString()));
    const failWithLog = (error: unknown) => {
      throw new Error(`${(error as Error).message}\n${output.slice(-4000)}`);
    };

    // The endpoint's four slots are taken by attempts the receiver holds; the database stops under them.
    await waitUntil(() => receiver!.received.length >= 4, 60_000, "four attempts in flight").catch(failWithLog);
    await postgres!.stop();
    const stoppedAt = Date.now();
    await new Promise((resolve) => setTimeout(resolve, OUTAGE_MS - (Date.now() - stoppedAt)));
    const inFlightAtOutage = receiver.received.map((r) => r.eventId);
    slow = false;
    await postgres!.start();
    const backAt = Date.now();

    const deliveredIds = () => new Set(receiver!.received.filter((r) => r.statusSent === 200).map((r) => r.eventId));
    await waitUntil(() => deliveredIds().size === eventIds.length, 120_000, "every event delivered").catch(failWithLog);
    const allDeliveredMs = Date.now() - backAt;
    // Let a lapsed lease (the bug) show itself as a second POST, if there is one to come.
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    child.kill("SIGTERM");
    await new Promise((resolve) => child!.once("exit", resolve));

    const posts = new Map<number, number>();
    for (const r of receiver.received) posts.set(r.eventId, (posts.get(r.eventId) ?? 0) + 1);
    const twice = [...posts].filter(([, n]) => n > 1).map(([eventId, n]) => `${eventId}×${n}`);
    console.log(
      `      ${inFlightAtOutage.length} attempts in flight when PostgreSQL stopped for ${OUTAGE_MS} ms; every event delivered ${allDeliveredMs} ms after it was back; events POSTed more than once: ${twice.length ? twice.join(", ") : "none"}`,
    );
    expect(allDeliveredMs, "every event delivered promptly after the database came back").to.be.at.most(PROMPT_MS);
    expect(twice, "no event POSTed twice").to.deep.equal([]);

    const store = await createStore({ databaseUrl: postgres!.url });
    try {
      const webhooks = webhookStore(store, {});
      const deliveries = await webhooks.listDeliveries();
      expect(deliveries.map((d) => d.state)).to.deep.equal(deliveries.map(() => "delivered"));
      // The attempts in flight during the outage are logged as what they were: one attempt, a 200.
      for (const eventId of inFlightAtOutage) {
        const attempts = await webhooks.listAttempts(eventId);
        expect(attempts.map((a) => [a.attempt, a.statusCode, a.error]), `event ${eventId}`).to.deep.equal([[1, 200, null]]);
      }
      expect((await Promise.all(eventIds.map((e) => webhooks.listAttempts(e)))).flat().filter((a) => a.error === ABANDONED)).to.deep.equal([]);
    } finally {
      await store.close();
    }
  });
});

// Fault: PostgreSQL stopped for 20 s while the service is busy (field test: the process crashed in
// 2 of 4 runs — a checked-out client had no `error` listener — and routes answered 500).
// The service runs as a real process on a private PostgreSQL cluster of its own; bridges are quoted
// through its API, deposited by users on the chain, and while their fills and payouts are in flight
// the database is stopped (`pg_ctl stop -m fast`: every session terminated) for 20 s, during which
// more users deposit. During the outage: the process stays up, the status route answers 503
// {errorCode: DATABASE_UNAVAILABLE} with Retry-After. After it: every deposit ends in success exactly
// once, one fill each, one repayment each, every webhook delivered (accounting.ts).
import { randomBytes } from "node:crypto";
import { expect } from "chai";
import { apiKeyStore } from "../../ts/service/store/apiKeys.ts";
import { createStore, type Store } from "../../ts/service/store/createStore.ts";
import { webhookStore } from "../../ts/service/store/webhooks/webhooks.ts";
import { parseWebhookSecretKey } from "../../ts/service/store/webhooks/webhookSecrets.ts";
import { startTwoChains, type TwoChains } from "../service/solver/twoChains.ts";
import { startReceiver, type Receiver } from "../service/webhooks/webhookReceiver.ts";
import { accountingOf } from "./accounting.ts";
import { depositBridge, fundLoadUsers, publicStatus, quoteBridge, type DepositedBridge } from "./loadBridges.ts";
import { privatePostgresAvailable, startPrivatePostgres, type PrivatePostgres } from "./loadPostgres.ts";
import { startLoadService, type LoadService } from "./loadService.ts";
import { FAULTS_ENABLED, skipUnlessFaults } from "./faultSuite.ts";
import { canonicalHex } from "../../ts/service/model/values.ts";

const OUTAGE_MS = 20_000;
const BEFORE = 24;
const DURING = 16;

describe("fault: PostgreSQL restarted under load", function () {
  this.timeout(300_000);
  let env: TwoChains | undefined;
  let postgres: PrivatePostgres | undefined;
  let receiver: Receiver | undefined;
  let service: LoadService | undefined;
  let store: Store | undefined;
  const secretHex = randomBytes(32).toString("hex");

  before(async function () {
    skipUnlessFaults(this);
    if (!privatePostgresAvailable()) throw new Error("PostgreSQL 15 binaries (initdb, pg_ctl) are needed for this fault test");
    env = await startTwoChains();
    postgres = await startPrivatePostgres();
    receiver = await startReceiver();
  });
  after(async () => {
    await service?.kill();
    await store?.close().catch(() => {});
    await receiver?.close();
    await postgres?.destroy();
    await env?.close();
  });

  it("databaseStoppedFor20sUnderLoad_noCrash_503sDuring_everyDepositCompletesExactlyOnce", async () => {
    if (!FAULTS_ENABLED) return;
    store = await createStore({ databaseUrl: postgres!.url });
    const { key: apiKey } = await apiKeyStore(store).createApiKey("load", 10_000_000);
    await webhookStore(store, { secretKey: parseWebhookSecretKey(secretHex) }).setWebhook({ apiKey, url: receiver!.url });
    service = await startLoadService(env!, {
      databaseUrl: postgres!.url,
      env: { FERRY_WEBHOOK_SECRET_KEY: secretHex },
      name: "postgres-restart",
    });
    const users = await fundLoadUsers(env!, BEFORE + DURING);
    const quotes = await Promise.all(users.map((user) => quoteBridge(service!.url, env!, user, { apiKey })));
    const bridges: DepositedBridge[] = [];

    // Load: the first deposits land at once; the database goes away while the solver works on them.
    const firstWave = Promise.all(quotes.slice(0, BEFORE).map((quote) => depositBridge(env!, quote)));
    firstWave.catch(() => {}); // awaited below; a failure before that must not be an unhandled rejection
    await waitUntil(async () => (await Promise.all(quotes.slice(0, BEFORE).map((q) => store!.getRequest(canonicalHex(q.requestId))))).some((r) => r !== null), 30_000, "the solver to have work");
    await postgres!.stop();
    const stoppedAt = Date.now();
    bridges.push(...(await firstWave));

    // During the outage: more deposits on the chain, and the API answers 503 + Retry-After, never 500.
    const secondWave = Promise.all(quotes.slice(BEFORE).map((quote) => depositBridge(env!, quote)));
    secondWave.catch(() => {});
    const answers = new Map<number, number>();
    let unavailable: { body: { errorCode: string; message: string }; retryAfter: string | null } | undefined;
    while (Date.now() - stoppedAt < OUTAGE_MS) {
      expect(service!.child.exitCode, `the service exited during the outage:\n${service!.output().slice(-3000)}`).to.equal(null);
      expect(service!.child.signalCode).to.equal(null);
      const response = await fetch(`${service!.url}/intents/status/v3?requestId=${quotes[0]!.requestId}`);
      answers.set(response.status, (answers.get(response.status) ?? 0) + 1);
      const body = (await response.json()) as { errorCode: string; message: string };
      if (response.status === 503) unavailable = { body, retryAfter: response.headers.get("retry-after") };
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    bridges.push(...(await secondWave));
    expect(answers.get(500) ?? 0, `answers during the outage: ${JSON.stringify([...answers])}`).to.equal(0);
    expect(unavailable, `answers during the outage: ${JSON.stringify([...answers])}`).to.not.equal(undefined);
    expect(unavailable!.body.errorCode).to.equal("DATABASE_UNAVAILABLE");
    expect(Number(unavailable!.retryAfter)).to.be.greaterThan(0);

    await postgres!.start();
    await waitUntil(
      async () => {
        const statuses = await Promise.all(bridges.map((b) => publicStatus(service!.url, b.requestId)));
        return statuses.every((s) => s?.status === "success" || s?.status === "refund");
      },
      120_000,
      "every request to finish after the restart",
    ).catch((error) => {
      throw new Error(`${(error as Error).message}\n${service!.output().slice(-4000)}`);
    });
    expect(service!.child.exitCode).to.equal(null);
    // Every event of every request delivered (at least once; the accounting dedupes by event id).
    const expectedEvents = async () => (await Promise.all(bridges.map((b) => store!.requestEvents(b.requestId)))).flat();
    await waitUntil(
      async () => {
        const delivered = new Set(receiver!.received.filter((r) => r.statusSent === 200).map((r) => r.eventId));
        return (await expectedEvents()).every((e) => delivered.has(e.id));
      },
      60_000,
      "every webhook delivered",
    );
    const totals = await accountingOf(env!, store!, bridges, receiver!.received);
    expect(totals.success + totals.refund).to.equal(BEFORE + DURING);
    console.log(`      ${JSON.stringify(totals)}; answers during the outage ${JSON.stringify(Object.fromEntries(answers))}`);
  });
});

async function waitUntil(check: () => Promise<boolean>, timeoutMs: number, what: string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (await check().catch(() => false)) return;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/**
 * The database-wide metrics GET /metrics reads at scrape time (ts/service/http/metrics/storeMetrics.ts), over
 * HTTP on both engines: the webhook backlog by delivery state, the age of the oldest pending event,
 * and per endpoint (API key id) its pending events, consecutive failures and whether it is paused.
 */
import { randomBytes } from "node:crypto";
import { expect } from "chai";
import { apiKeyStore } from "../../../../ts/service/store/apiKeys.ts";
import { claimWebhookEvents, recordWebhookAttempt } from "../../../../ts/service/store/webhooks/webhookOutbox.ts";
import { webhookStore } from "../../../../ts/service/store/webhooks/webhooks.ts";
import { describeEachEngine } from "../../store/engines.ts";
import { seedRequest } from "../../webhooks/webhookFixtures.ts";
import { fixtureConfig, listen, type Listening } from "../testApp.ts";

const SECRET_KEY = randomBytes(32);

describeEachEngine("GET /metrics: webhook backlog and endpoints", (engine) => {
  let server: Listening;
  before(async () => {
    server = await listen({ config: fixtureConfig(), deps: { store: engine.store } });
  });
  after(async () => server?.close());

  it("reports events per webhook state, the oldest pending event's age, and each endpoint's pending events, failures and pause", async () => {
    const keys = apiKeyStore(engine.store);
    const webhooks = webhookStore(engine.store, { secretKey: SECRET_KEY });
    const failing = await keys.createApiKey("failing");
    const fine = await keys.createApiKey("fine");
    await webhooks.setWebhook({ apiKey: failing.key, url: "https://failing.example/hook" });
    await webhooks.setWebhook({ apiKey: fine.key, url: "https://fine.example/hook" });
    // The metrics compare stored times with the system clock: the store's clock is set to it.
    engine.clock.ms = Date.now() - 10_000;
    await seedRequest(engine.store, 1, failing.id);
    await seedRequest(engine.store, 2, failing.id, ["pending"]);
    await seedRequest(engine.store, 3, fine.id);
    await seedRequest(engine.store, 5, null);
    // The worker's side: one claim, the fine endpoint delivered, the failing one failed twice (paused).
    const claim = await claimWebhookEvents(engine.store.engine, engine.clock.now(), { owner: "w", leaseMs: 60_000, maxAttempts: 11, limit: 10, secretKeys: { current: SECRET_KEY }, maxInFlightPerEndpoint: 10 });
    for (const job of claim.jobs) {
      const delivered = job.keyId === fine.id;
      await recordWebhookAttempt(
        engine.store.engine,
        "w",
        { eventId: job.eventId, keyId: job.keyId, round: job.round, attempt: job.attempt, at: engine.clock.now(), statusCode: delivered ? 200 : 500, error: null, durationMs: 1, delivered },
        { maxAttempts: 11, now: engine.clock.now(), nextAttemptAt: new Date(engine.clock.ms + 60_000), endpointPauseMs: () => 60_000 },
      );
    }
    const text = await (await fetch(`${server.url}/metrics`)).text();
    const value = (series: string) => {
      const line = text.split("\n").find((l) => l.startsWith(`${series} `));
      expect(line, `${series} in:\n${text.split("\n").filter((l) => l.startsWith("ferry_webhook")).join("\n")}`).to.not.equal(undefined);
      return Number(line!.split(" ")[1]);
    };
    // Pending: the failing endpoint's 3 events (two of request 2: the second waits for the first) — the skipped one (no key) settled.
    expect(value('ferry_webhook_events{state="pending"}')).to.equal(3);
    expect(value('ferry_webhook_events{state="delivered"}')).to.equal(1);
    expect(value('ferry_webhook_events{state="skipped"}')).to.equal(1);
    expect(value('ferry_webhook_events{state="failed"}')).to.equal(0);
    expect(value("ferry_webhook_oldest_pending_age_seconds")).to.be.within(9, 120);
    expect(value(`ferry_webhook_endpoint_pending_events{key_id="${failing.id}"}`)).to.equal(3);
    expect(value(`ferry_webhook_endpoint_consecutive_failures{key_id="${failing.id}"}`)).to.equal(2);
    expect(value(`ferry_webhook_endpoint_paused{key_id="${failing.id}"}`), "paused for 60 s after its last failure").to.equal(1);
    expect(text, "a healthy endpoint has no failure series").to.not.include(`ferry_webhook_endpoint_consecutive_failures{key_id="${fine.id}"}`);
  });
});

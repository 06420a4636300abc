/**
 * One tenant's dead endpoint must not slow every other tenant's deliveries (the worker's slots are
 * shared): against two real receivers on loopback — one that never answers, one that answers at once —
 * and a real database (both engines). Each endpoint has at most `maxInFlightPerEndpoint` attempts in
 * flight, and an endpoint whose attempts fail is paused on its own (its events wait, without using
 * attempts) instead of holding slots; it resumes when it answers again.
 */
import { randomBytes } from "node:crypto";
import { expect } from "chai";
import { apiKeyStore } from "../../../ts/service/store/apiKeys.ts";
import { webhookStore } from "../../../ts/service/store/webhooks/webhooks.ts";
import { startWebhookWorker, type RunningWebhookWorker, type WebhookWorkerSettings } from "../../../ts/service/webhooks/webhookWorker.ts";
import { describeEachEngine } from "../store/engines.ts";
import { startReceiver, waitUntil, type Receiver } from "./webhookReceiver.ts";
import { seedRequest } from "./webhookFixtures.ts";

const SECRET_KEY = randomBytes(32);
/** A dead endpoint holds an attempt this long (the timeout). */
const TIMEOUT_MS = 1_500;
const SETTINGS: WebhookWorkerSettings = {
  timeoutMs: TIMEOUT_MS,
  maxRetries: 10,
  baseDelayMs: 200,
  maxDelayMs: 400,
  pollIntervalMs: 20,
  batchSize: 4,
  leaseMs: 5_000,
  allowHttp: false,
  maxInFlightPerEndpoint: 2,
};

describeEachEngine("webhook fairness between endpoints", (engine) => {
  let dead: Receiver;
  let healthy: Receiver;
  let worker: RunningWebhookWorker | undefined;
  /** The dead receiver's requests hanging at once, at most. */
  let deadConcurrency = 0;
  const webhooks = () => webhookStore(engine.store, { secretKey: SECRET_KEY });

  beforeEach(async () => {
    let hanging = 0;
    dead = await startReceiver(() => {
      hanging++;
      deadConcurrency = Math.max(deadConcurrency, hanging);
      setTimeout(() => hanging--, TIMEOUT_MS);
      return "hang";
    });
    deadConcurrency = 0;
    healthy = await startReceiver(() => 200);
  });
  afterEach(async () => {
    await worker?.stop({ graceMs: 0 });
    worker = undefined;
    await Promise.all([dead.close(), healthy.close()]);
  });

  async function tenants() {
    const keys = apiKeyStore(engine.store);
    const deadKey = await keys.createApiKey("dead tenant");
    const healthyKey = await keys.createApiKey("healthy tenant");
    await webhooks().setWebhook({ apiKey: deadKey.key, url: dead.url, headers: {} });
    await webhooks().setWebhook({ apiKey: healthyKey.key, url: healthy.url, headers: {} });
    return { deadKey, healthyKey };
  }

  it("delivers the healthy tenant's events at once while 30 of a hanging endpoint's are older, with at most maxInFlightPerEndpoint hanging", async () => {
    const { deadKey, healthyKey } = await tenants();
    for (let n = 1; n <= 30; n++) await seedRequest(engine.store, n, deadKey.id);
    for (let n = 101; n <= 110; n++) await seedRequest(engine.store, n, healthyKey.id);
    const started = Date.now();
    worker = startWebhookWorker({ store: engine.store, settings: SETTINGS, secretKey: SECRET_KEY });
    await waitUntil(() => healthy.received.length >= 10, 20_000, "the healthy tenant's ten events");
    const lag = Math.max(...healthy.received.map((r) => r.receivedAt)) - started;
    // Before: the four shared slots went to the hanging endpoint's older events, 1.5 s at a time.
    expect(lag, "all ten healthy deliveries, from the worker's start").to.be.below(TIMEOUT_MS);
    expect(deadConcurrency, "attempts hanging on the dead endpoint at once").to.be.at.most(SETTINGS.maxInFlightPerEndpoint!);
  });

  it("pauses a failing endpoint on its own (its events keep their attempts) and resumes it once it answers", async () => {
    const { deadKey } = await tenants();
    for (let n = 1; n <= 12; n++) await seedRequest(engine.store, n, deadKey.id);
    dead.respond = () => 503;
    worker = startWebhookWorker({ store: engine.store, settings: { ...SETTINGS, timeoutMs: 1_000 }, secretKey: SECRET_KEY });
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    const deliveries = await webhooks().listDeliveries({ limit: 100 });
    const attempts = deliveries.reduce((total, d) => total + d.attempts, 0);
    // Twelve events, 1.5 s, retries after 200–400 ms: without the pause they would use ~50 attempts.
    expect(attempts, "attempts while the endpoint fails").to.be.at.most(12);
    dead.respond = () => 200;
    await waitUntil(async () => (await webhooks().listDeliveries({ limit: 100 })).every((d) => d.state === "delivered"), 20_000, "every event delivered after the endpoint recovers");
  });
});

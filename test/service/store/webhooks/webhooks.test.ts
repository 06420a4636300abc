import { randomBytes } from "node:crypto";
import { expect } from "chai";
import { isFerryError } from "../../../../ts/core/errors.ts";
import { apiKeyStore } from "../../../../ts/service/store/apiKeys.ts";
import type { Store } from "../../../../ts/service/store/createStore.ts";
import { ABANDONED, claimWebhookEvents, recordWebhookAttempt, releaseUnusedWebhookLeases, type ClaimOptions } from "../../../../ts/service/store/webhooks/webhookOutbox.ts";
import { webhookStore, type WebhookStore } from "../../../../ts/service/store/webhooks/webhooks.ts";
import { decryptWebhookSecret } from "../../../../ts/service/store/webhooks/webhookSecrets.ts";
import { describeEachEngine } from "../engines.ts";
import { withIntent } from "../../fixtures/testRequest.ts";
import { canonicalAddress, canonicalHex } from "../../../../ts/service/model/values.ts";

const hex = (n: number, bytes = 32) => canonicalHex(`0x${n.toString(16).padStart(bytes * 2, "0")}`);
const SECRET_KEY = randomBytes(32);

async function rejects(promise: Promise<unknown>, code: string): Promise<void> {
  try {
    await promise;
  } catch (error) {
    expect(isFerryError(error, code), `expected ${code}, got ${(error as Error).message}`).to.equal(true);
    return;
  }
  expect.fail(`expected ${code}`);
}

describeEachEngine("store webhooks", (engine) => {
  let webhooks: WebhookStore;
  const claimOptions = (overrides: Partial<ClaimOptions> = {}): ClaimOptions => ({
    owner: "worker-a",
    leaseMs: 1000,
    maxAttempts: 3,
    limit: 50,
    secretKeys: { current: SECRET_KEY },
    ...overrides,
  });
  const claim = (overrides: Partial<ClaimOptions> = {}) => claimWebhookEvents(engine.store.engine, engine.clock.now(), claimOptions(overrides));
  const record = (eventId: number, attempt: number, delivered: boolean, options: { owner?: string; round?: number; retryInMs?: number; maxAttempts?: number } = {}) =>
    recordWebhookAttempt(
      engine.store.engine,
      options.owner ?? "worker-a",
      { eventId, round: options.round ?? 0, attempt, at: engine.clock.now(), statusCode: delivered ? 200 : 500, error: null, durationMs: 3, delivered },
      { maxAttempts: options.maxAttempts ?? 3, now: engine.clock.now(), nextAttemptAt: new Date(engine.clock.ms + (options.retryInMs ?? 100)) },
    );

  /** A key with a webhook, and a request of that key moved through `statuses` (plus its creation event). */
  async function seed(store: Store, n: number, statuses: Array<"pending" | "submitted" | "success">, keyId?: string | null): Promise<{ requestId: string }> {
    const requestId = hex(n);
    await store.createRequest(withIntent({
      id: requestId,
      orderId: hex(1000 + n),
      user: canonicalAddress(`0x${"aa".repeat(20)}`),
      recipient: canonicalAddress(`0x${"bb".repeat(20)}`),
      originChainId: 31337,
      destinationChainId: 31338,
      apiKeyId: keyId ?? null,
    }));
    for (const status of statuses) await store.transitionRequest(requestId, status);
    return { requestId };
  }

  async function keyWithWebhook(name = "app", url = "https://hooks.example/ferry"): Promise<{ id: string; key: string }> {
    const created = await apiKeyStore(engine.store, engine.clock.now).createApiKey(name);
    await webhooks.setWebhook({ apiKey: created.key, url, headers: { Authorization: "Bearer abc" } });
    return created;
  }

  beforeEach(() => {
    webhooks = webhookStore(engine.store, { secretKey: SECRET_KEY, now: engine.clock.now });
  });

  it("setWebhook_storesTheEndpointAndTheKeyEncrypted_andListsIt", async () => {
    const { id, key } = await apiKeyStore(engine.store, engine.clock.now).createApiKey("shop");
    const config = await webhooks.setWebhook({ apiKey: key, url: "https://shop.example/hook", headers: { "X-Tenant": "42" } });
    expect(config).to.deep.equal({ keyId: id, keyName: "shop", url: "https://shop.example/hook", headers: { "X-Tenant": "42" }, updatedAt: new Date(engine.clock.ms).toISOString() });
    expect(await webhooks.listWebhooks()).to.deep.equal([config]);
    const { rows } = await engine.store.engine.query<{ webhook_secret: string }>("SELECT webhook_secret FROM api_keys WHERE id = $1", [id]);
    const stored = rows[0]!.webhook_secret;
    expect(stored).not.to.contain(key);
    expect(stored).not.to.contain(Buffer.from(key).toString("base64"));
    expect(decryptWebhookSecret(SECRET_KEY, id, stored)).to.equal(key);
    expect(decryptWebhookSecret(randomBytes(32), id, stored)).to.equal(undefined);
    // Bound to its row: the same ciphertext under another key id does not open.
    expect(decryptWebhookSecret(SECRET_KEY, "key_other", stored)).to.equal(undefined);
  });

  it("setWebhook_throwsUnknownApiKey_forAnUnknownOrRevokedKey", async () => {
    const keys = apiKeyStore(engine.store, engine.clock.now);
    await rejects(webhooks.setWebhook({ apiKey: "ferry_nope", url: "https://a.example/" }), "UNKNOWN_API_KEY");
    const { id, key } = await keys.createApiKey("gone");
    await keys.revokeApiKey(id);
    await rejects(webhooks.setWebhook({ apiKey: key, url: "https://a.example/" }), "UNKNOWN_API_KEY");
    expect(await webhooks.listWebhooks()).to.deep.equal([]);
  });

  it("setWebhook_throwsSecretKeyMissing_withoutFerryWebhookSecretKey", async () => {
    const { key } = await apiKeyStore(engine.store, engine.clock.now).createApiKey("app");
    const withoutKey = webhookStore(engine.store, {});
    try {
      await withoutKey.setWebhook({ apiKey: key, url: "https://a.example/" });
      expect.fail("expected WEBHOOK_SECRET_KEY_MISSING");
    } catch (error) {
      expect(isFerryError(error, "WEBHOOK_SECRET_KEY_MISSING")).to.equal(true);
      expect((error as Error).message).to.contain("FERRY_WEBHOOK_SECRET_KEY");
    }
  });

  it("setWebhook_acceptsHttpsAndLoopbackHttpOnly_unlessAllowHttp", async () => {
    const { key } = await apiKeyStore(engine.store, engine.clock.now).createApiKey("app");
    for (const url of ["http://hooks.example/x", "ftp://hooks.example/x", "not a url", "https://user:pw@hooks.example/x", "https://hooks.example/x#frag", `https://h.example/${"a".repeat(2050)}`]) {
      await rejects(webhooks.setWebhook({ apiKey: key, url }), "INVALID_WEBHOOK_URL");
    }
    for (const url of ["https://hooks.example/x?tenant=1", "http://127.0.0.1:9000/x", "http://localhost:9000/x", "http://[::1]:9000/x"]) {
      expect((await webhooks.setWebhook({ apiKey: key, url })).url).to.equal(url);
    }
    const lax = webhookStore(engine.store, { secretKey: SECRET_KEY, allowHttp: true });
    expect((await lax.setWebhook({ apiKey: key, url: "http://hooks.example/x" })).url).to.equal("http://hooks.example/x");
  });

  it("setWebhook_rejectsHeadersThatAreInvalidOrOverrideFerrysOwn", async () => {
    const { key } = await apiKeyStore(engine.store, engine.clock.now).createApiKey("app");
    const bad: Array<Record<string, string>> = [
      { "X-A": "one\r\nX-Injected: 1" },
      { "X-A": "line\nbreak" },
      { "X-A": "nul\u0000" },
      { "Bad Name": "v" },
      { "X:A": "v" },
      { "Content-Type": "text/plain" },
      { "content-length": "1" },
      { Host: "evil.example" },
      { "X-Signature-SHA256": "00" },
      { "x-signature-timestamp": "1" },
      { "X-Ferry-Event-Id": "1" },
      { "Transfer-Encoding": "chunked" },
      { "X-A": "1", "x-a": "2" },
    ];
    for (const headers of bad) await rejects(webhooks.setWebhook({ apiKey: key, url: "https://a.example/", headers }), "INVALID_WEBHOOK_HEADER");
    const ok = await webhooks.setWebhook({ apiKey: key, url: "https://a.example/", headers: { Authorization: "Bearer t0k3n", "X-Env": "prod\tblue" } });
    expect(ok.headers).to.deep.equal({ Authorization: "Bearer t0k3n", "X-Env": "prod\tblue" });
  });

  it("clearWebhook_removesTheEndpoint_andAnswersFalseWhenThereIsNone", async () => {
    const { id } = await keyWithWebhook();
    expect(await webhooks.clearWebhook(id)).to.equal(true);
    expect(await webhooks.clearWebhook(id)).to.equal(false);
    expect(await webhooks.clearWebhook("key_unknown")).to.equal(false);
    expect(await webhooks.listWebhooks()).to.deep.equal([]);
  });

  it("claim_skipsEventsWithNowhereToGo_noKeyNoWebhookRevokedKey", async () => {
    const keys = apiKeyStore(engine.store, engine.clock.now);
    const plain = await keys.createApiKey("plain");
    const revoked = await keyWithWebhook("revoked");
    await keys.revokeApiKey(revoked.id);
    const a = await seed(engine.store, 1, ["pending"], null);
    const b = await seed(engine.store, 2, [], plain.id);
    const c = await seed(engine.store, 3, [], revoked.id);
    let result = await claim();
    expect(result.jobs).to.deep.equal([]);
    expect(result.settled).to.equal(3);
    // The second event of request a was behind a pending one: it goes on the next claim.
    result = await claim();
    expect(result.settled).to.equal(1);
    const deliveries = await webhooks.listDeliveries();
    expect(deliveries.map((d) => [d.eventId, d.requestId, d.state, d.lastError, d.attempts])).to.deep.equal([
      [4, c.requestId, "skipped", "API_KEY_REVOKED", 0],
      [3, b.requestId, "skipped", "NO_WEBHOOK", 0],
      [2, a.requestId, "skipped", "NO_API_KEY", 0],
      [1, a.requestId, "skipped", "NO_API_KEY", 0],
    ]);
    expect(await webhooks.listAttempts(deliveries[0]!.eventId)).to.deep.equal([]);
  });

  it("claim_keepsPerRequestOrder_eventTwoWaitsWhileEventOneIsPending", async () => {
    const { id, key } = await keyWithWebhook();
    const { requestId } = await seed(engine.store, 1, ["pending", "submitted"], id);
    const other = await seed(engine.store, 2, [], id);
    const first = await claim();
    expect(first.jobs.map((j) => [j.requestId, j.attempt])).to.deep.equal([
      [requestId, 1],
      [other.requestId, 1],
    ]);
    const job = first.jobs[0]!;
    expect(job.secret).to.equal(key);
    expect(job.headers).to.deep.equal({ Authorization: "Bearer abc" });
    expect(job.payload.status).to.equal("waiting");
    expect(await record(job.eventId, 1, false, { retryInMs: 100 })).to.equal(true);
    // Leased or backing off: nothing of that request is claimable, not even its later events.
    expect((await claim()).jobs).to.deep.equal([]);
    engine.clock.ms += 100;
    const retry = await claim();
    expect(retry.jobs.map((j) => [j.eventId, j.attempt])).to.deep.equal([[job.eventId, 2]]);
    expect(await record(job.eventId, 2, true)).to.equal(true);
    const next = await claim();
    expect(next.jobs.map((j) => [j.requestId, j.payload.status, j.attempt])).to.deep.equal([[requestId, "pending", 1]]);
    const [delivered] = await webhooks.listDeliveries({ eventId: job.eventId });
    expect(delivered).to.include({ state: "delivered", attempts: 2, lastStatusCode: 200, nextAttemptAt: null, deliveredAt: new Date(engine.clock.ms).toISOString() });
    expect((await webhooks.listAttempts(job.eventId)).map((a) => [a.attempt, a.statusCode, a.durationMs])).to.deep.equal([
      [1, 500, 3],
      [2, 200, 3],
    ]);
  });

  it("record_marksFailedAfterTheLastAttempt_andTheNextEventOfTheRequestGoes", async () => {
    const { id } = await keyWithWebhook();
    const { requestId } = await seed(engine.store, 1, ["pending"], id);
    let eventId = 0;
    for (let attempt = 1; attempt <= 3; attempt++) {
      const { jobs } = await claim();
      expect(jobs.map((j) => j.attempt)).to.deep.equal([attempt]);
      eventId = jobs[0]!.eventId;
      await record(eventId, attempt, false, { retryInMs: 10 });
      engine.clock.ms += 10;
    }
    const [failed] = await webhooks.listDeliveries({ eventId });
    expect(failed).to.include({ state: "failed", attempts: 3, lastStatusCode: 500, nextAttemptAt: null });
    const { jobs } = await claim();
    expect(jobs.map((j) => [j.requestId, j.payload.status, j.attempt])).to.deep.equal([[requestId, "pending", 1]]);
  });

  it("claim_afterALapsedLease_logsTheAttemptAbandoned_andALateRecordReplacesItWithoutTouchingState", async () => {
    const { id } = await keyWithWebhook();
    await seed(engine.store, 1, [], id);
    const [job] = (await claim({ owner: "dead" })).jobs;
    engine.clock.ms += 999;
    expect((await claim({ owner: "b" })).jobs).to.deep.equal([]);
    engine.clock.ms += 1;
    const [again] = (await claim({ owner: "b" })).jobs;
    expect([again!.eventId, again!.attempt]).to.deep.equal([job!.eventId, 2]);
    expect((await webhooks.listAttempts(job!.eventId)).map((a) => [a.attempt, a.error])).to.deep.equal([[1, ABANDONED]]);
    // The first worker was only slow: its record is logged but the state belongs to the lease holder.
    expect(await record(job!.eventId, 1, true, { owner: "dead" })).to.equal(false);
    expect((await webhooks.listAttempts(job!.eventId)).map((a) => [a.attempt, a.statusCode, a.error])).to.deep.equal([[1, 200, null]]);
    expect((await webhooks.listDeliveries({ eventId: job!.eventId }))[0]).to.include({ state: "pending", attempts: 2 });
    expect(await record(job!.eventId, 2, true, { owner: "b" })).to.equal(true);
    expect((await webhooks.listDeliveries({ eventId: job!.eventId }))[0]!.state).to.equal("delivered");
  });

  it("releaseUnusedWebhookLeases_givesBackOnlyTheOwnersUnusedLeases_andTakesTheirAttemptBack", async () => {
    const { id } = await keyWithWebhook();
    for (let n = 1; n <= 4; n++) await seed(engine.store, n, [], id);
    // Worker a holds three events (one it is still posting), worker b one.
    const mine = (await claim({ owner: "a", limit: 3 })).jobs.map((j) => j.eventId);
    const [theirs] = (await claim({ owner: "b", limit: 1 })).jobs.map((j) => j.eventId);
    const [posting, ...unused] = mine;
    expect(await releaseUnusedWebhookLeases(engine.store.engine, "a", [posting!])).to.have.members(unused);
    const state = async (eventId: number) => (await webhooks.listDeliveries({ eventId }))[0]!;
    for (const eventId of unused) expect(await state(eventId)).to.include({ state: "pending", attempts: 0 });
    expect(await state(posting!)).to.include({ attempts: 1 });
    expect(await state(theirs!)).to.include({ attempts: 1 });
    // Due again at once (no lease left to lapse), as attempt 1, with nothing logged ABANDONED.
    const again = (await claim({ owner: "a" })).jobs;
    expect(again.map((j) => [j.eventId, j.attempt])).to.have.deep.members(unused.map((eventId) => [eventId, 1]));
    for (const eventId of unused) expect(await webhooks.listAttempts(eventId)).to.deep.equal([]);
    // The posting attempt's lease still holds: its record settles it.
    expect(await record(posting!, 1, true, { owner: "a" })).to.equal(true);
  });

  it("claim_failsAnEventWhoseLastAttemptWasAbandoned", async () => {
    const { id } = await keyWithWebhook();
    await seed(engine.store, 1, [], id);
    const [job] = (await claim({ maxAttempts: 1 })).jobs;
    engine.clock.ms += 1000;
    const result = await claim({ maxAttempts: 1 });
    expect(result).to.deep.equal({ jobs: [], settled: 1 });
    expect((await webhooks.listDeliveries({ eventId: job!.eventId }))[0]).to.include({ state: "failed", attempts: 1, lastError: ABANDONED });
  });

  it("redeliver_makesEventsPendingAgainWithAttemptsReset_andKeepsTheLog", async () => {
    const { id } = await keyWithWebhook();
    await seed(engine.store, 1, [], id);
    const [job] = (await claim()).jobs;
    await record(job!.eventId, 1, true);
    await rejects(webhooks.redeliver({ eventId: 999_999 }), "UNKNOWN_EVENT");
    expect(await webhooks.redeliver({ eventId: job!.eventId })).to.equal(1);
    expect((await webhooks.listDeliveries({ eventId: job!.eventId }))[0]).to.include({ state: "pending", attempts: 0, deliveredAt: null, lastStatusCode: null });
    const [again] = (await claim()).jobs;
    expect([again!.eventId, again!.round, again!.attempt]).to.deep.equal([job!.eventId, 1, 1]);
    // In flight (leased): a redelivery would send a second copy concurrently, so it is left alone.
    expect(await webhooks.redeliver({ eventId: job!.eventId })).to.equal(0);
    await record(job!.eventId, 1, false, { round: 1 });
    expect((await webhooks.listAttempts(job!.eventId)).map((a) => [a.attempt, a.statusCode])).to.deep.equal([
      [1, 200],
      [1, 500],
    ]);
    engine.clock.ms += 1000;
    await seed(engine.store, 2, ["pending"], id);
    expect(await webhooks.redeliver({ since: new Date(engine.clock.ms) })).to.equal(2);
  });

  it("listDeliveries_filtersByRequestKeyStateAndSince_newestFirst", async () => {
    const a = await keyWithWebhook("a");
    const b = await keyWithWebhook("b");
    const r1 = await seed(engine.store, 1, ["pending"], a.id);
    engine.clock.ms += 1000;
    const r2 = await seed(engine.store, 2, [], b.id);
    const all = await webhooks.listDeliveries();
    expect(all.map((d) => d.eventId)).to.deep.equal([3, 2, 1]);
    expect(all[0]).to.deep.equal({
      eventId: 3,
      requestId: r2.requestId,
      status: "waiting",
      keyId: b.id,
      state: "pending",
      attempts: 0,
      nextAttemptAt: null,
      lastStatusCode: null,
      lastError: null,
      deliveredAt: null,
      createdAt: new Date(engine.clock.ms).toISOString(),
    });
    expect((await webhooks.listDeliveries({ requestId: r1.requestId })).map((d) => d.status)).to.deep.equal(["pending", "waiting"]);
    expect((await webhooks.listDeliveries({ keyId: b.id })).map((d) => d.eventId)).to.deep.equal([3]);
    expect((await webhooks.listDeliveries({ since: new Date(engine.clock.ms) })).map((d) => d.eventId)).to.deep.equal([3]);
    expect((await webhooks.listDeliveries({ state: "delivered" }))).to.deep.equal([]);
    expect((await webhooks.listDeliveries({ limit: 1 })).map((d) => d.eventId)).to.deep.equal([3]);
  });

  it("listDeliveries_anUnknownState_isInvalidInput", async () => {
    let error: unknown;
    await webhooks.listDeliveries({ state: "lost" as "pending" }).catch((e: unknown) => (error = e));
    expect(isFerryError(error, "INVALID_INPUT"), String(error)).to.equal(true);
  });

  if (engine.kind === "postgres") {
    it("claim_withAPerEndpointCap_onFourConnectionsAtOnce_neverHandsOutTheSameEventTwice_andStopsAtTheCap", async () => {
      const { id } = await keyWithWebhook();
      for (let n = 1; n <= 40; n++) await seed(engine.store, n, [], id);
      const results = await Promise.all(
        Array.from({ length: 4 }, (_, i) =>
          claimWebhookEvents(engine.store.engine, engine.clock.now(), claimOptions({ owner: `w${i}`, limit: 15, maxInFlightPerEndpoint: 3, leaseMs: 60_000 })),
        ),
      );
      const ids = results.flatMap((r) => r.jobs.map((j) => j.eventId));
      expect(new Set(ids).size).to.equal(ids.length);
      for (const result of results) expect(result.jobs.length).to.be.at.most(3);
      expect(ids.length).to.be.greaterThan(0);
      const after = await claim({ maxInFlightPerEndpoint: 3, leaseMs: 60_000 });
      expect(after.jobs, "the endpoint has 3 or more in flight: nothing more").to.have.length(0);
    });

    it("claim_onFourConnectionsAtOnce_neverHandsOutTheSameEventTwice", async () => {
      const { id } = await keyWithWebhook();
      for (let n = 1; n <= 40; n++) await seed(engine.store, n, [], id);
      const results = await Promise.all(
        Array.from({ length: 4 }, (_, i) => claimWebhookEvents(engine.store.engine, engine.clock.now(), claimOptions({ owner: `w${i}`, limit: 15 }))),
      );
      const ids = results.flatMap((r) => r.jobs.map((j) => j.eventId));
      expect(new Set(ids).size).to.equal(ids.length);
      expect(ids.length).to.equal(40);
    });
  }
});

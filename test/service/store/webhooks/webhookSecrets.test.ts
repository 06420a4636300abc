// The webhook secrets at rest against FERRY_WEBHOOK_SECRET_KEY, on both engines: a service started with
// a key that cannot read them refuses to start (it used to start, and every delivery then failed with
// WEBHOOK_SECRET_UNREADABLE); FERRY_WEBHOOK_SECRET_KEY_PREVIOUS is accepted for reading while
// rotateWebhookSecrets re-encrypts them under the new key, one transaction per secret (crash-safe, re-runnable).
import { randomBytes } from "node:crypto";
import { expect } from "chai";
import { isFerryError } from "../../../../ts/core/errors.ts";
import { verifyWebhook } from "../../../../ts/core/webhookSignature.ts";
import { parseConfig, resolveChainContracts } from "../../../../ts/service/config/parseConfig.ts";
import { startServer, type RunningServer } from "../../../../ts/service/server.ts";
import { apiKeyStore } from "../../../../ts/service/store/apiKeys.ts";
import type { Queryable } from "../../../../ts/service/store/engine.ts";
import { auditWebhookSecrets, decryptWebhookSecret, rotateWebhookSecrets, type WebhookSecretKeys } from "../../../../ts/service/store/webhooks/webhookSecrets.ts";
import { webhookStore } from "../../../../ts/service/store/webhooks/webhooks.ts";
import { seedRequest } from "../../webhooks/webhookFixtures.ts";
import { startReceiver, waitUntil, type Receiver } from "../../webhooks/webhookReceiver.ts";
import { describeEachEngine } from "../engines.ts";

const OLD_HEX = randomBytes(32).toString("hex");
const NEW_HEX = randomBytes(32).toString("hex");
const OLD = Uint8Array.from(Buffer.from(OLD_HEX, "hex"));
const NEW = Uint8Array.from(Buffer.from(NEW_HEX, "hex"));
const FAST = { timeoutMs: 1000, baseDelayMs: 2, maxDelayMs: 10, pollIntervalMs: 5, leaseMs: 5000 };

async function rejectsWith(promise: Promise<unknown>, code: string): Promise<Error> {
  try {
    await promise;
  } catch (error) {
    expect(isFerryError(error, code), `expected ${code}, got ${(error as Error).message}`).to.equal(true);
    return error as Error;
  }
  return expect.fail(`expected ${code}, but it succeeded`);
}

describeEachEngine("webhook secrets: the start-up check and key rotation", (engine) => {
  let server: RunningServer | undefined;
  let receiver: Receiver | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
    await receiver?.close();
    receiver = undefined;
  });

  /** An API key whose webhook secret is stored under `secretKey`. */
  async function keyUnder(secretKey: Uint8Array, name: string, url = "https://hooks.example/ferry"): Promise<{ id: string; key: string }> {
    const created = await apiKeyStore(engine.store, engine.clock.now).createApiKey(name);
    await webhookStore(engine.store, { secretKey, now: engine.clock.now, allowHttp: true }).setWebhook({ apiKey: created.key, url });
    return created;
  }
  const serve = (env: Record<string, string>) =>
    startServer({ config: resolveChainContracts(parseConfig({ server: { port: 0 }, webhooks: FAST }, env, "/tmp"), new Map()), deps: { store: engine.store } });
  const storedSecret = async (id: string) => (await engine.store.engine.query<{ webhook_secret: string }>("SELECT webhook_secret FROM api_keys WHERE id = $1", [id])).rows[0]!.webhook_secret;

  it("refusesToStart_whenFerryWebhookSecretKeyCannotReadAStoredSecret_namingTheKeyIdsAndTheFix", async () => {
    const stored = await keyUnder(OLD, "acme");
    const error = await rejectsWith(
      serve({ FERRY_WEBHOOK_SECRET_KEY: NEW_HEX }).then((running) => (server = running)),
      "WEBHOOK_SECRET_KEY_MISMATCH",
    );
    expect(error.message).to.include(stored.id).and.to.include("FERRY_WEBHOOK_SECRET_KEY_PREVIOUS").and.to.include("ferry webhooks rotate-secret-key");
    expect(error.message.split("\n")).to.have.length(1);
    for (const secret of [OLD_HEX, NEW_HEX, stored.key]) expect(error.message).not.to.include(secret);
    // The right key starts it.
    server = await serve({ FERRY_WEBHOOK_SECRET_KEY: OLD_HEX });
    expect(server.webhookSecrets).to.deep.equal({ current: 1, previous: 0, unreadable: [] });
  });

  it("startsWithTheOldKeyAsPrevious_andDeliversSignedWithTheSecretOnlyThePreviousKeyOpens", async () => {
    receiver = await startReceiver();
    const stored = await keyUnder(OLD, "acme", receiver.url);
    await seedRequest(engine.store, 1, stored.id);
    server = await serve({ FERRY_WEBHOOK_SECRET_KEY: NEW_HEX, FERRY_WEBHOOK_SECRET_KEY_PREVIOUS: OLD_HEX });
    expect(server.webhookSecrets).to.deep.equal({ current: 0, previous: 1, unreadable: [] });
    await waitUntil(() => receiver!.received.some((r) => r.statusSent === 200), 10_000, "a delivery");
    const delivery = receiver.received.find((r) => r.statusSent === 200)!;
    expect(verifyWebhook({ secret: stored.key, headers: delivery.headers as Record<string, string>, rawBody: delivery.rawBody, now: Math.floor(Date.now() / 1000) }).valid).to.equal(true);
  });

  it("rotatesEverySecretUnderTheNewKey_keepingThePlaintext_andAReRunChangesNothing", async () => {
    const a = await keyUnder(OLD, "a");
    const b = await keyUnder(OLD, "b");
    const c = await keyUnder(NEW, "c");
    const keys: WebhookSecretKeys = { current: NEW, previous: OLD };
    expect(await auditWebhookSecrets(engine.store.engine, keys)).to.deep.equal({ current: 1, previous: 2, unreadable: [] });
    expect(await rotateWebhookSecrets(engine.store.engine, keys)).to.deep.equal({ reencrypted: 2, alreadyCurrent: 1, unreadable: [] });
    for (const key of [a, b, c]) expect(decryptWebhookSecret(NEW, key.id, await storedSecret(key.id))).to.equal(key.key);
    const before = await Promise.all([a, b, c].map((key) => storedSecret(key.id)));
    expect(await rotateWebhookSecrets(engine.store.engine, keys)).to.deep.equal({ reencrypted: 0, alreadyCurrent: 3, unreadable: [] });
    expect(await Promise.all([a, b, c].map((key) => storedSecret(key.id)))).to.deep.equal(before);
    // The previous key is no longer needed: the service starts without it.
    server = await serve({ FERRY_WEBHOOK_SECRET_KEY: NEW_HEX });
    expect(server.webhookSecrets).to.deep.equal({ current: 3, previous: 0, unreadable: [] });
  });

  it("aRotationCutShortLeavesEverySecretReadableUnderOneKeyOrTheOther_andTheReRunFinishesIt", async () => {
    const keys = [await keyUnder(OLD, "a"), await keyUnder(OLD, "b"), await keyUnder(OLD, "c")];
    const both: WebhookSecretKeys = { current: NEW, previous: OLD };
    // The process dies in the second secret's transaction, before it commits.
    let transactions = 0;
    const dying: Parameters<typeof rotateWebhookSecrets>[0] = {
      query: (sql, params) => engine.store.engine.query(sql, params),
      transaction: (fn) =>
        engine.store.engine.transaction(async (tx: Queryable) => {
          const result = await fn(tx);
          if (++transactions === 2) throw new Error("killed");
          return result;
        }),
    };
    await rotateWebhookSecrets(dying, both).then(
      () => expect.fail("the rotation should have died"),
      (error: Error) => expect(error.message).to.equal("killed"),
    );
    expect(await auditWebhookSecrets(engine.store.engine, both)).to.deep.equal({ current: 1, previous: 2, unreadable: [] });
    expect(await rotateWebhookSecrets(engine.store.engine, both)).to.deep.equal({ reencrypted: 2, alreadyCurrent: 1, unreadable: [] });
    for (const key of keys) expect(decryptWebhookSecret(NEW, key.id, await storedSecret(key.id))).to.equal(key.key);
  });

  it("listsAndLeavesSecretsNeitherKeyOpens_rotatesTheRest_andIgnoresRevokedKeys", async () => {
    const lost = await keyUnder(randomBytes(32), "lost");
    const revoked = await keyUnder(randomBytes(32), "revoked");
    await apiKeyStore(engine.store, engine.clock.now).revokeApiKey(revoked.id);
    const kept = await keyUnder(OLD, "kept");
    const lostBefore = await storedSecret(lost.id);
    expect(await rotateWebhookSecrets(engine.store.engine, { current: NEW, previous: OLD })).to.deep.equal({ reencrypted: 1, alreadyCurrent: 0, unreadable: [lost.id] });
    expect(await storedSecret(lost.id)).to.equal(lostBefore);
    expect(decryptWebhookSecret(NEW, kept.id, await storedSecret(kept.id))).to.equal(kept.key);
    await rejectsWith(serve({ FERRY_WEBHOOK_SECRET_KEY: NEW_HEX }).then((running) => (server = running)), "WEBHOOK_SECRET_KEY_MISMATCH");
  });
});

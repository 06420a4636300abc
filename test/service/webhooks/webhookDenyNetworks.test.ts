/**
 * Webhook URLs are the operator's (`ferry webhooks set`), but some addresses are never a receiver: the
 * deny-list `webhooks.denyNetworks` (default link-local, where cloud metadata lives) is checked when a
 * webhook is set (an IP-literal URL) and on every address a webhook's host resolves to when it is
 * delivered (a name that resolves into a denied range: DNS rebinding included). Real receiver on
 * loopback, real database (both engines).
 */
import { randomBytes } from "node:crypto";
import { expect } from "chai";
import { isFerryError } from "../../../ts/core/errors.ts";
import { addressFilter } from "../../../ts/service/config/addressFilter.ts";
import { apiKeyStore } from "../../../ts/service/store/apiKeys.ts";
import { webhookStore } from "../../../ts/service/store/webhooks/webhooks.ts";
import { postWebhook } from "../../../ts/service/webhooks/postWebhook.ts";
import { startWebhookWorker, type WebhookWorkerSettings } from "../../../ts/service/webhooks/webhookWorker.ts";
import { describeEachEngine } from "../store/engines.ts";
import { startReceiver, waitUntil, type Receiver } from "./webhookReceiver.ts";
import { seedRequest } from "./webhookFixtures.ts";

const SECRET_KEY = randomBytes(32);
const FAST: WebhookWorkerSettings = { timeoutMs: 1000, maxRetries: 0, baseDelayMs: 2, maxDelayMs: 10, pollIntervalMs: 5, batchSize: 4, leaseMs: 5000, allowHttp: false };
const LOOPBACK = ["127.0.0.0/8", "::1/128"];

describe("webhook address deny-list", () => {
  it("denies the ranges given, IPv4-mapped IPv6 and bracketed literals included, and nothing else; refuses a malformed range", () => {
    const filter = addressFilter(["169.254.0.0/16", "fe80::/10", "10.0.0.0/8"]);
    for (const address of ["169.254.169.254", "::ffff:169.254.169.254", "[fe80::1]", "fe80::abcd", "10.1.2.3"]) expect(filter.denies(address), address).to.equal(true);
    for (const address of ["127.0.0.1", "8.8.8.8", "::1", "example.com", "11.0.0.1"]) expect(filter.denies(address), address).to.equal(false);
    for (const bad of ["10.0.0.0", "10.0.0.0/33", "nope/8", "fe80::/129", "10.0.0.0/8/1"]) {
      expect(() => addressFilter([bad]), bad).to.throw().that.satisfies((error: unknown) => isFerryError(error, "CONFIG_INVALID"));
    }
  });

  it("postWebhook does not connect to a host that resolves only into a denied range: WEBHOOK_ADDRESS_DENIED", async () => {
    const receiver = await startReceiver();
    try {
      const url = receiver.url.replace("127.0.0.1", "localhost");
      const post = { url, headers: {}, eventId: 1, body: Buffer.from("{}"), secret: "k", timestamp: 1, timeoutMs: 2000 };
      const denied = await postWebhook({ ...post, denied: addressFilter(LOOPBACK) });
      expect(denied).to.include({ delivered: false, error: "WEBHOOK_ADDRESS_DENIED" });
      const literal = await postWebhook({ ...post, url: receiver.url, denied: addressFilter(LOOPBACK) });
      expect(literal).to.include({ delivered: false, error: "WEBHOOK_ADDRESS_DENIED" });
      expect(receiver.received, "nothing reached the receiver").to.have.length(0);
      const allowed = await postWebhook({ ...post, denied: addressFilter(["169.254.0.0/16"]) });
      expect(allowed).to.include({ delivered: true, statusCode: 200 });
    } finally {
      await receiver.close();
    }
  });
});

describeEachEngine("webhook deny-list, set and delivered", (engine) => {
  let receiver: Receiver;
  beforeEach(async () => {
    receiver = await startReceiver();
  });
  afterEach(async () => receiver.close());

  it("refuses to set a webhook on an IP in a denied range (default: link-local, cloud metadata) with INVALID_WEBHOOK_URL", async () => {
    const key = await apiKeyStore(engine.store).createApiKey("tenant");
    const webhooks = webhookStore(engine.store, { secretKey: SECRET_KEY });
    for (const url of ["https://169.254.169.254/latest/meta-data", "https://[fe80::1]/hook", "https://[::ffff:169.254.169.254]/hook"]) {
      let code: string | undefined;
      await webhooks.setWebhook({ apiKey: key.key, url }).catch((error: unknown) => (code = isFerryError(error) ? error.code : String(error)));
      expect(code, url).to.equal("INVALID_WEBHOOK_URL");
    }
    const narrow = webhookStore(engine.store, { secretKey: SECRET_KEY, denyNetworks: ["10.0.0.0/8"] });
    await narrow.setWebhook({ apiKey: key.key, url: "https://203.0.113.7/hook" });
  });

  it("the worker does not deliver to a name that resolves into a denied range: the attempt fails WEBHOOK_ADDRESS_DENIED", async () => {
    const key = await apiKeyStore(engine.store).createApiKey("tenant");
    await webhookStore(engine.store, { secretKey: SECRET_KEY }).setWebhook({ apiKey: key.key, url: receiver.url.replace("127.0.0.1", "localhost") });
    await seedRequest(engine.store, 1, key.id);
    const worker = startWebhookWorker({ store: engine.store, settings: { ...FAST, denyNetworks: LOOPBACK }, secretKey: SECRET_KEY });
    try {
      const webhooks = webhookStore(engine.store, { secretKey: SECRET_KEY });
      await waitUntil(async () => (await webhooks.listDeliveries({ limit: 10 })).every((d) => d.state === "failed"), 10_000, "the event to fail");
      const [delivery] = await webhooks.listDeliveries({ limit: 10 });
      expect(delivery).to.include({ state: "failed", lastError: "WEBHOOK_ADDRESS_DENIED" });
      expect(receiver.received).to.have.length(0);
    } finally {
      await worker.stop({ graceMs: 0 });
    }
  });
});

/**
 * Where a webhook may connect once loopback is denied (`webhooks.denyNetworks` holding 127.0.0.0/8 and
 * ::1/128): every other spelling of the local host — 0.0.0.0 and its short forms, `[::]`, shorthand,
 * decimal, octal and hex IPv4, IPv4-mapped IPv6, `localhost` names, a DNS name that resolves to
 * loopback — is refused when the webhook is set and never connected to when it is delivered; a name is
 * resolved once per attempt and the connection goes to exactly the address that was checked (no DNS
 * rebinding between check and connect), with the Host header and TLS name still the URL's name. With
 * the default deny-list (loopback allowed: the devnet and the tests) loopback receivers keep working.
 * Real receiver on 127.0.0.1, real database (both engines), resolvers injected.
 */
import { randomBytes } from "node:crypto";
import { expect } from "chai";
import { isFerryError } from "../../../ts/core/errors.ts";
import { addressFilter } from "../../../ts/service/config/addressFilter.ts";
import { apiKeyStore } from "../../../ts/service/store/apiKeys.ts";
import type { HostResolver } from "../../../ts/service/store/webhooks/webhookDestination.ts";
import { webhookStore } from "../../../ts/service/store/webhooks/webhooks.ts";
import { postWebhook } from "../../../ts/service/webhooks/postWebhook.ts";
import { startWebhookWorker, type WebhookWorkerSettings } from "../../../ts/service/webhooks/webhookWorker.ts";
import { describeEachEngine } from "../store/engines.ts";
import { startReceiver, waitUntil, type Receiver } from "./webhookReceiver.ts";
import { seedRequest } from "./webhookFixtures.ts";

const SECRET_KEY = randomBytes(32);
const LOOPBACK = ["127.0.0.0/8", "::1/128"];
const FAST: WebhookWorkerSettings = { timeoutMs: 1000, maxRetries: 0, baseDelayMs: 2, maxDelayMs: 10, pollIntervalMs: 5, batchSize: 4, leaseMs: 5000, allowHttp: true };

/** Hosts that reach this machine, each spelled as an attacker would put it in a URL. */
const LOCAL_HOST_FORMS = [
  "0.0.0.0",
  "0",
  "0x0",
  "[::]",
  "127.1",
  "2130706433",
  "0177.0.0.1",
  "0x7f.1",
  "[::ffff:127.0.0.1]",
  "[::ffff:7f00:1]",
  "[::ffff:0.0.0.0]",
  "[0:0:0:0:0:0:0:1]",
  "localhost",
  "hooks.localhost",
  "loopback.example",
];

/** `loopback.example` → 127.0.0.1; anything else is not found. Counts its calls. */
function fixedResolver(answers: Record<string, string[]>): HostResolver & { calls: string[] } {
  const calls: string[] = [];
  const resolve = async (hostname: string) => {
    calls.push(hostname);
    const addresses = answers[hostname];
    if (!addresses) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: "ENOTFOUND" });
    return addresses.map((address) => ({ address, family: (address.includes(":") ? 6 : 4) as 4 | 6 }));
  };
  return Object.assign(resolve, { calls });
}

const codeOf = async (promise: Promise<unknown>): Promise<string | undefined> =>
  promise.then(
    () => undefined,
    (error: unknown) => (isFerryError(error) ? error.code : String(error)),
  );

describe("webhook destinations: the local host in any spelling", () => {
  it("addressFilter: with loopback denied, 0.0.0.0/8, ::, mapped and compatible IPv6 forms of them are denied; without, they are not", () => {
    const strict = addressFilter(LOOPBACK);
    for (const address of ["0.0.0.0", "0.1.2.3", "::", "[::]", "::ffff:0:0", "::ffff:7f00:1", "[::ffff:127.0.0.1]", "::7f00:1", "64:ff9b::7f00:1", "0:0:0:0:0:0:0:1"]) {
      expect(strict.denies(address), address).to.equal(true);
    }
    for (const address of ["8.8.8.8", "::ffff:808:808", "2001:db8::1", "1.0.0.1"]) expect(strict.denies(address), address).to.equal(false);
    const linkLocalOnly = addressFilter(["169.254.0.0/16", "fe80::/10"]);
    for (const address of ["0.0.0.0", "::", "127.0.0.1", "::ffff:7f00:1"]) expect(linkLocalOnly.denies(address), address).to.equal(false);
    expect(linkLocalOnly.denies("::ffff:a9fe:a9fe"), "mapped 169.254.169.254 in hex").to.equal(true);
  });

  it("postWebhook never connects to 0.0.0.0 or [::ffff:0:0] when loopback is denied: WEBHOOK_ADDRESS_DENIED", async () => {
    const receiver = await startReceiver();
    try {
      const port = new URL(receiver.url).port;
      for (const host of ["0.0.0.0", "0", "[::ffff:0.0.0.0]"]) {
        const post = { url: `http://${host}:${port}/hooks`, headers: {}, eventId: 1, body: Buffer.from("{}"), secret: "k", timestamp: 1, timeoutMs: 2000 };
        const result = await postWebhook({ ...post, denied: addressFilter(LOOPBACK) });
        expect(result, host).to.include({ delivered: false, error: "WEBHOOK_ADDRESS_DENIED" });
      }
      expect(receiver.received, "nothing reached the receiver").to.have.length(0);
    } finally {
      await receiver.close();
    }
  });

  it("a name is resolved once and the connection goes to the address checked: a rebinding answer (public, then 127.0.0.1) never reaches loopback", async () => {
    const receiver = await startReceiver();
    try {
      const port = new URL(receiver.url).port;
      const calls: string[] = [];
      // The attacker's DNS: a public address for the check, loopback for every later query.
      const rebinding: HostResolver = async (hostname) => {
        calls.push(hostname);
        return [{ address: calls.length === 1 ? "203.0.113.9" : "127.0.0.1", family: 4 }];
      };
      const post = { url: `http://rebind.example:${port}/hooks`, headers: {}, eventId: 1, body: Buffer.from("{}"), secret: "k", timestamp: 1, timeoutMs: 400 };
      const result = await postWebhook({ ...post, denied: addressFilter(LOOPBACK), resolve: rebinding });
      expect(result.delivered).to.equal(false);
      expect(calls, "one resolution per attempt").to.deep.equal(["rebind.example"]);
      expect(receiver.received, "the connection never went to loopback").to.have.length(0);
      // The next attempt resolves afresh: loopback now, refused before connecting.
      const again = await postWebhook({ ...post, denied: addressFilter(LOOPBACK), resolve: rebinding });
      expect(again).to.include({ delivered: false, error: "WEBHOOK_ADDRESS_DENIED" });
      expect(receiver.received).to.have.length(0);
    } finally {
      await receiver.close();
    }
  });

  it("connects to the resolved address while Host stays the URL's name; loopback allowed by default (the devnet's receivers)", async () => {
    const receiver = await startReceiver();
    try {
      const port = new URL(receiver.url).port;
      const resolve = fixedResolver({ "hooks.internal.example": ["127.0.0.1"] });
      const post = { url: `http://hooks.internal.example:${port}/hooks`, headers: {}, eventId: 7, body: Buffer.from("{}"), secret: "k", timestamp: 1, timeoutMs: 2000 };
      const result = await postWebhook({ ...post, denied: addressFilter(["169.254.0.0/16", "fe80::/10"]), resolve });
      expect(result).to.include({ delivered: true, statusCode: 200 });
      expect(resolve.calls).to.deep.equal(["hooks.internal.example"]);
      expect(receiver.received[0]!.headers.host).to.equal(`hooks.internal.example:${port}`);
    } finally {
      await receiver.close();
    }
  });
});

describeEachEngine("webhook destinations, set and delivered", (engine) => {
  let receiver: Receiver;
  beforeEach(async () => {
    receiver = await startReceiver();
  });
  afterEach(async () => receiver.close());

  it("with loopback denied, setWebhook refuses every spelling of the local host and a name resolving to loopback: INVALID_WEBHOOK_URL", async () => {
    const key = await apiKeyStore(engine.store).createApiKey("tenant");
    const resolve = fixedResolver({ "loopback.example": ["127.0.0.1"], "mixed.example": ["203.0.113.9", "::1"], "public.example": ["203.0.113.9"] });
    const strict = webhookStore(engine.store, { secretKey: SECRET_KEY, allowHttp: true, denyNetworks: LOOPBACK, resolve });
    const accepted: string[] = [];
    for (const host of [...LOCAL_HOST_FORMS, "mixed.example"]) {
      const code = await codeOf(strict.setWebhook({ apiKey: key.key, url: `https://${host}:8443/hooks` }));
      if (code !== "INVALID_WEBHOOK_URL") accepted.push(`${host}: ${code ?? "accepted"}`);
    }
    expect(accepted, "local-host forms accepted").to.deep.equal([]);
    // A public name, and a name that does not resolve now (checked again at every delivery), are accepted.
    await strict.setWebhook({ apiKey: key.key, url: "https://public.example/hooks" });
    await strict.setWebhook({ apiKey: key.key, url: "https://not-yet.example/hooks" });
  });

  it("with the default deny-list (loopback allowed) the devnet's loopback receivers are accepted and delivered to", async () => {
    const key = await apiKeyStore(engine.store).createApiKey("tenant");
    const webhooks = webhookStore(engine.store, { secretKey: SECRET_KEY });
    for (const url of [receiver.url, receiver.url.replace("127.0.0.1", "localhost"), "http://[::1]:9/hooks"]) await webhooks.setWebhook({ apiKey: key.key, url });
    await webhooks.setWebhook({ apiKey: key.key, url: receiver.url.replace("127.0.0.1", "localhost") });
    await seedRequest(engine.store, 1, key.id);
    const worker = startWebhookWorker({ store: engine.store, settings: FAST, secretKey: SECRET_KEY });
    try {
      await waitUntil(async () => (await webhooks.listDeliveries({ limit: 10 })).every((d) => d.state === "delivered"), 10_000, "the event to be delivered");
      expect(receiver.received).to.have.length(1);
    } finally {
      await worker.stop({ graceMs: 0 });
    }
  });

  it("a name set while it resolved to a public address and re-pointed to loopback is not delivered to (worker): WEBHOOK_ADDRESS_DENIED", async () => {
    const key = await apiKeyStore(engine.store).createApiKey("tenant");
    const port = new URL(receiver.url).port;
    let answer = "203.0.113.9";
    const resolve: HostResolver = async () => [{ address: answer, family: 4 }];
    const webhooks = webhookStore(engine.store, { secretKey: SECRET_KEY, allowHttp: true, denyNetworks: LOOPBACK, resolve });
    await webhooks.setWebhook({ apiKey: key.key, url: `http://rebind.example:${port}/hooks` });
    answer = "127.0.0.1";
    await seedRequest(engine.store, 1, key.id);
    const worker = startWebhookWorker({ store: engine.store, settings: { ...FAST, denyNetworks: LOOPBACK }, secretKey: SECRET_KEY, resolve });
    try {
      await waitUntil(async () => (await webhooks.listDeliveries({ limit: 10 })).every((d) => d.state === "failed"), 10_000, "the event to fail");
      const [delivery] = await webhooks.listDeliveries({ limit: 10 });
      expect(delivery).to.include({ state: "failed", lastError: "WEBHOOK_ADDRESS_DENIED" });
      expect(receiver.received).to.have.length(0);
    } finally {
      await worker.stop({ graceMs: 0 });
    }
  });
});

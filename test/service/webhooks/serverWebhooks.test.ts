// The worker inside the service (startServer): started with FERRY_WEBHOOK_SECRET_KEY, not without it or
// with FERRY_WEBHOOKS=off (config.webhooks.enabled), stopped before the store closes, and no secret in the logs.
import { randomBytes } from "node:crypto";
import { expect } from "chai";
import { parseConfig, resolveChainContracts } from "../../../ts/service/config/parseConfig.ts";
import { startServer, type RunningServer } from "../../../ts/service/server.ts";
import { apiKeyStore } from "../../../ts/service/store/apiKeys.ts";
import { createStore, type Store } from "../../../ts/service/store/createStore.ts";
import { webhookStore } from "../../../ts/service/store/webhooks/webhooks.ts";
import { parseWebhookSecretKey } from "../../../ts/service/store/webhooks/webhookSecrets.ts";
import { startReceiver, waitUntil, type Receiver } from "./webhookReceiver.ts";
import { seedRequest } from "./webhookFixtures.ts";

const FAST = { timeoutMs: 1000, baseDelayMs: 2, maxDelayMs: 10, pollIntervalMs: 5, leaseMs: 5000 };

describe("webhook worker in the service", function () {
  this.timeout(30_000);
  let store: Store;
  let receiver: Receiver;
  let server: RunningServer | undefined;
  let logs: string;
  const secretHex = randomBytes(32).toString("hex");

  const config = (env: Record<string, string>) =>
    resolveChainContracts(parseConfig({ server: { port: 0 }, webhooks: FAST }, env, "/tmp"), new Map());
  const serve = async (env: Record<string, string>) => {
    server = await startServer({
      config: config(env),
      deps: { store },
      logger: { level: "debug", stream: { write: (line: string) => void (logs += line) } },
    });
    return server;
  };

  beforeEach(async () => {
    logs = "";
    store = await createStore();
    receiver = await startReceiver();
  });
  afterEach(async () => {
    await server?.close();
    server = undefined;
    await receiver.close();
    await store.close();
  });

  it("deliversWithTheConfiguredSecretKey_andNeverLogsTheApiKeyOrTheSecretKey", async () => {
    const { id, key } = await apiKeyStore(store).createApiKey("integrator");
    await webhookStore(store, { secretKey: parseWebhookSecretKey(secretHex) }).setWebhook({ apiKey: key, url: receiver.url, headers: { Authorization: "Bearer hdr-secret-77" } });
    receiver.respond = ({ perEvent }) => (perEvent === 1 ? 500 : 200);
    await seedRequest(store, 1, id, ["pending", "submitted", "success"]);
    const running = await serve({ FERRY_WEBHOOK_SECRET_KEY: secretHex });
    expect(running.webhooks).not.to.equal(undefined);
    await waitUntil(() => receiver.received.filter((r) => r.statusSent === 200).length === 4, 10_000, "four deliveries");
    await running.close();
    server = undefined;
    expect(logs).to.contain("webhook worker started");
    expect(logs).to.contain("webhook attempt failed; will retry");
    for (const secret of [key, secretHex, secretHex.toUpperCase(), "hdr-secret-77", Buffer.from(secretHex, "hex").toString("base64")]) {
      expect(logs).not.to.contain(secret);
    }
  });

  it("doesNotStartTheWorker_withoutTheSecretKey_andSaysSoOnceAtInfo", async () => {
    const running = await serve({});
    expect(running.webhooks).to.equal(undefined);
    const lines = logs.split("\n").filter((line) => line.includes("webhook worker not started"));
    expect(lines).to.have.length(1);
    expect(JSON.parse(lines[0]!).level).to.equal(30);
    expect(lines[0]).to.contain("FERRY_WEBHOOK_SECRET_KEY");
  });

  it("doesNotStartTheWorker_withFerryWebhooksOff", async () => {
    const running = await serve({ FERRY_WEBHOOK_SECRET_KEY: secretHex, FERRY_WEBHOOKS: "off" });
    expect(running.webhooks).to.equal(undefined);
    expect(logs).not.to.contain("webhook worker started");
  });
});

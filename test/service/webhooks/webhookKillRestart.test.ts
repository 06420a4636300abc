// Webhooks survive a crash: `node ts/service/server.ts` as a child process (embedded database on disk),
// SIGKILLed while events are undelivered — some attempts hanging in flight, the others failing — then
// restarted on the same data with the receiver healthy: every event is delivered, in order per request,
// and the attempts the dead process never recorded are logged ABANDONED.
import { spawn, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { expect } from "chai";
import { apiKeyStore } from "../../../ts/service/store/apiKeys.ts";
import { createStore } from "../../../ts/service/store/createStore.ts";
import { ABANDONED } from "../../../ts/service/store/webhooks/webhookOutbox.ts";
import { webhookStore } from "../../../ts/service/store/webhooks/webhooks.ts";
import { parseWebhookSecretKey } from "../../../ts/service/store/webhooks/webhookSecrets.ts";
import { seedRequest } from "./webhookFixtures.ts";
import { startReceiver, waitUntil, type Receiver } from "./webhookReceiver.ts";

type Service = { child: ChildProcess; output: () => string; exited: Promise<unknown> };

describe("webhooks across a service crash (SIGKILL)", function () {
  this.timeout(120_000);
  const dir = mkdtempSync(join(tmpdir(), "ferry-webhook-kill-"));
  const dataDir = join(dir, "data");
  const configPath = join(dir, "ferry.json");
  const secretHex = randomBytes(32).toString("hex");
  const children: ChildProcess[] = [];
  let receiver: Receiver;

  before(() => {
    writeFileSync(
      configPath,
      JSON.stringify({
        server: { host: "127.0.0.1", port: 0 },
        database: { dataDir },
        webhooks: { timeoutMs: 1000, baseDelayMs: 20, maxDelayMs: 100, pollIntervalMs: 20, leaseMs: 1500 },
      }),
    );
  });
  after(async () => {
    for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
    await receiver?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  async function startService(): Promise<Service> {
    let output = "";
    const child = spawn(process.execPath, ["ts/service/server.ts"], {
      cwd: process.cwd(),
      env: { ...process.env, FERRY_CONFIG: configPath, FERRY_WEBHOOK_SECRET_KEY: secretHex, FERRY_LOG_LEVEL: "info", DATABASE_URL: "" },
      stdio: ["ignore", "pipe", "pipe"],
    });
    children.push(child);
    const exited = new Promise((resolve) => child.on("exit", resolve));
    child.stdout!.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.stderr!.on("data", (chunk: Buffer) => (output += chunk.toString()));
    await waitUntil(() => /listening at http:\/\/127\.0\.0\.1:\d+/.test(output), 30_000, "the service to listen").catch((error) => {
      throw new Error(`${(error as Error).message}\n${output}`);
    });
    return { child, output: () => output, exited };
  }

  it("killedWithUndeliveredEvents_deliversThemAllAfterRestart_inOrderPerRequest", async () => {
    receiver = await startReceiver();
    const requestIds: string[] = [];
    let eventIds: number[];
    {
      const store = await createStore({ dataDir });
      try {
        const { id, key } = await apiKeyStore(store).createApiKey("integrator");
        await webhookStore(store, { secretKey: parseWebhookSecretKey(secretHex) }).setWebhook({ apiKey: key, url: receiver.url });
        for (let n = 1; n <= 5; n++) requestIds.push(await seedRequest(store, n, id, ["pending", "submitted", "success"]));
        eventIds = (await webhookStore(store, {}).listDeliveries()).map((d) => d.eventId).sort((a, b) => a - b);
      } finally {
        await store.close();
      }
    }
    expect(eventIds).to.have.length(20);

    // The receiver is broken: the first two attempts hang (in flight when the process dies), the rest get 500.
    receiver.respond = ({ nth }) => (nth <= 2 ? "hang" : 500);
    const service = await startService();
    await waitUntil(() => receiver.received.length >= 6, 20_000, "attempts against the broken receiver");
    service.child.kill("SIGKILL");
    await service.exited;
    const attemptsBeforeKill = receiver.received.length;

    {
      const store = await createStore({ dataDir });
      try {
        const deliveries = await webhookStore(store, {}).listDeliveries();
        expect(deliveries.filter((d) => d.state === "delivered")).to.deep.equal([]);
        expect(deliveries.filter((d) => d.state === "pending")).to.have.length(20);
      } finally {
        await store.close();
      }
    }

    receiver.respond = () => 200;
    const restarted = await startService();
    try {
      await waitUntil(() => new Set(receiver.received.filter((r) => r.statusSent === 200).map((r) => r.eventId)).size === 20, 30_000, "every event delivered").catch(
        (error) => {
          throw new Error(`${(error as Error).message}\n${restarted.output().slice(-3000)}`);
        },
      );
    } finally {
      restarted.child.kill("SIGTERM");
      await restarted.exited;
    }

    expect(receiver.received.length).to.be.greaterThan(attemptsBeforeKill);
    const delivered = receiver.received.filter((r) => r.statusSent === 200);
    expect(delivered.map((r) => r.eventId).sort((a, b) => a - b)).to.deep.equal(eventIds);
    for (const requestId of requestIds) {
      const arrival = receiver.received.filter((r) => JSON.parse(r.rawBody).data.requestId === requestId).map((r) => r.eventId);
      expect(arrival).to.deep.equal([...arrival].sort((a, b) => a - b));
    }
    const store = await createStore({ dataDir });
    try {
      const webhooks = webhookStore(store, {});
      const deliveries = await webhooks.listDeliveries();
      expect(deliveries.every((d) => d.state === "delivered")).to.equal(true);
      const hung = receiver.received.filter((r) => r.statusSent === "hang").map((r) => r.eventId);
      expect(hung).to.have.length(2);
      for (const eventId of hung) {
        const attempts = await webhooks.listAttempts(eventId);
        expect(attempts[0]!.error).to.equal(ABANDONED);
        expect(attempts.at(-1)!.statusCode).to.equal(200);
      }
      // Every POST has its own attempt number in the log (the dead process's unrecorded ones as ABANDONED), and
      // each event got exactly one 2xx.
      for (const eventId of eventIds) {
        const posts = receiver.received.filter((r) => r.eventId === eventId);
        expect(posts.length, `event ${eventId}`).to.be.at.most((await webhooks.listAttempts(eventId)).length);
        expect(posts.filter((r) => r.statusSent === 200)).to.have.length(1);
      }
    } finally {
      await store.close();
    }
  });
});

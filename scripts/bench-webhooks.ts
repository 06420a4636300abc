// `npm run bench:webhooks`: webhook delivery throughput and lag through the real worker, next to a
// baseline in the same run (these machines are noisy: read the ratio, not the absolute figures).
//
// What runs, all in this process on 127.0.0.1: a receiver (node:http, answers 204), the store (embedded
// PGlite in memory; PostgreSQL when FERRY_BENCH_DATABASE_URL is set, in a fresh schema), one API key
// with a webhook, and the worker (startWebhookWorker, the config defaults: 20 in flight, 500 ms idle
// poll). Events come as requests created `waiting`, then moved to `pending` (two ordered events each).
//   1. drain: FERRY_BENCH_EVENTS events written first, then the worker started: deliveries/s =
//      events / (last delivery − worker start);
//   2. paced: requests created at FERRY_BENCH_RATE/s (5 s at most) while the worker runs: lag =
//      received − the event's own time (the body's `timestamp`, the status change's ms), p50/p99.
// Baseline: the same number of signed POSTs of the same bodies to the same receiver, 20 at a time,
// through the same HTTP code (postWebhook) without the store: what the HTTP path alone can do.
//
// Exits 1 if an event is not delivered exactly once with a 2xx or a signature does not verify.
//
//   FERRY_BENCH_EVENTS (2000)  FERRY_BENCH_RATE (50 requests/s)  FERRY_BENCH_DATABASE_URL (unset: PGlite)
import { createHmac, randomBytes } from "node:crypto";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { CONFIG_DEFAULTS } from "../ts/service/config/configSchema.ts";
import { apiKeyStore } from "../ts/service/store/apiKeys.ts";
import { createStore } from "../ts/service/store/createStore.ts";
import { webhookStore } from "../ts/service/store/webhooks/webhooks.ts";
import { postWebhook, webhookBody } from "../ts/service/webhooks/postWebhook.ts";
import { startWebhookWorker } from "../ts/service/webhooks/webhookWorker.ts";
import type { OutboxPayload } from "../ts/service/store/outbox.ts";
import { intFromEnv, machineLine, ms, percentile, table } from "./bench/benchEnv.ts";
import { benchRequest } from "./bench/benchRequest.ts";
import { canonicalHex, canonicalAddress } from "../ts/service/model/values.ts";

const EVENTS = Math.max(2, intFromEnv("FERRY_BENCH_EVENTS", 2000) & ~1);
/** Requests per second in the paced run (two events each). */
const RATE = intFromEnv("FERRY_BENCH_RATE", 50);
const log = (line: string) => process.stdout.write(`${line}\n`);
const hex32 = (n: number) => canonicalHex(`0x${n.toString(16).padStart(64, "0")}`);

log("bench:webhooks — deliveries/s and delivery lag through the webhook worker; baseline: signed POSTs without the store (same run)");
log(machineLine());

type Received = { eventId: number; at: number; timestamp: number; status: number; signatureOk: boolean };
let secret = "";
let received: Received[] = [];
const server = createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on("data", (c: Buffer) => chunks.push(c));
  req.on("end", () => {
    const raw = Buffer.concat(chunks).toString("utf8");
    const ts = String(req.headers["x-signature-timestamp"]);
    const signatureOk = createHmac("sha256", secret).update(`${ts}.${raw}`).digest("hex") === req.headers["x-signature-sha256"];
    received.push({ eventId: Number(req.headers["x-ferry-event-id"]), at: Date.now(), timestamp: (JSON.parse(raw) as { timestamp: number }).timestamp, status: 204, signatureOk });
    res.statusCode = 204;
    res.end();
  });
});
await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;

const databaseUrl = process.env.FERRY_BENCH_DATABASE_URL;
const schema = `ferry_bench_${process.pid}_${randomBytes(3).toString("hex")}`;
const store = await createStore(databaseUrl ? { databaseUrl, schema } : {});
let exitCode = 0;
try {
  const secretKey = randomBytes(32);
  const { id: keyId, key } = await apiKeyStore(store).createApiKey("bench");
  secret = key;
  await webhookStore(store, { secretKey }).setWebhook({ apiKey: key, url });
  const settings = { ...CONFIG_DEFAULTS.webhooks };

  let n = 0;
  const produce = async (requests: number) => {
    for (let i = 0; i < requests; i++) {
      const id = hex32(++n);
      await store.createRequest(
        benchRequest({ id, orderId: hex32(10_000_000 + n), user: canonicalAddress(`0x${"aa".repeat(20)}`), recipient: canonicalAddress(`0x${"bb".repeat(20)}`), originChainId: 1, destinationChainId: 2, apiKeyId: keyId }),
      );
      await store.transitionRequest(id, "pending");
    }
  };
  const waitFor = async (count: number) => {
    const since = Date.now();
    while (received.length < count && Date.now() - since < 120_000) await new Promise((resolve) => setTimeout(resolve, 2));
  };
  const check = (run: string, runReceived: Received[], expected: number) => {
    const unique = new Set(runReceived.map((r) => r.eventId));
    if (runReceived.length !== expected || unique.size !== expected || !runReceived.every((r) => r.signatureOk)) {
      log(`FAIL (${run}): ${runReceived.length} posts for ${expected} events (${unique.size} distinct), signatures ok: ${runReceived.every((r) => r.signatureOk)}`);
      exitCode = 1;
    }
  };

  // --- 1. drain: the backlog is written first, then the worker starts -------------------------
  await produce(EVENTS / 2);
  const drainStart = Date.now();
  let worker = startWebhookWorker({ store, settings, secretKey });
  await waitFor(EVENTS);
  const drainMs = Math.max(...received.map((r) => r.at)) - drainStart;
  await worker.stop();
  check("drain", received, EVENTS);
  const workerRate = EVENTS / (drainMs / 1000);

  // --- 2. lag below saturation: events produced at FERRY_BENCH_RATE while the worker runs -------
  received = [];
  worker = startWebhookWorker({ store, settings, secretKey });
  const pacedRequests = Math.min(EVENTS / 2, RATE * 5);
  const pacedStart = Date.now();
  for (let i = 0; i < pacedRequests; i++) {
    const due = pacedStart + (i * 1000) / RATE;
    if (due > Date.now()) await new Promise((resolve) => setTimeout(resolve, due - Date.now()));
    await produce(1);
  }
  await waitFor(pacedRequests * 2);
  await worker.stop();
  check("paced", received, pacedRequests * 2);
  const lags = received.map((r) => r.at - r.timestamp).sort((a, b) => a - b);
  const pacedReceived = received.length;

  // --- the baseline: the same bodies, signed, 20 at a time, no store ---------------------------
  const payloads: OutboxPayload[] = (await store.requestEvents(hex32(1))).map((e) => e.payload);
  received = [];
  const baselineStart = Date.now();
  let next = 0;
  const lane = async () => {
    while (next < EVENTS) {
      const i = next++;
      await postWebhook({ url, headers: {}, eventId: i + 1, body: webhookBody(payloads[i % payloads.length]!), secret: key, timestamp: Math.floor(Date.now() / 1000), timeoutMs: settings.timeoutMs });
    }
  };
  await Promise.all(Array.from({ length: settings.batchSize }, lane));
  const baselineRate = EVENTS / ((Date.now() - baselineStart) / 1000);

  log(`${store.engine.kind}; worker: ${settings.batchSize} in flight, idle poll ${settings.pollIntervalMs} ms`);
  log(
    table(
      ["run", "events", "deliveries/s", "lag p50 ms", "lag p99 ms", "vs baseline"],
      [
        ["worker, drain of a backlog", String(EVENTS), workerRate.toFixed(0), "–", "–", `${((workerRate / baselineRate) * 100).toFixed(0)}%`],
        [`worker, paced ${RATE * 2} events/s`, String(pacedReceived), "–", ms(percentile(lags, 50)), ms(percentile(lags, 99)), "–"],
        ["baseline: signed POSTs, no store", String(EVENTS), baselineRate.toFixed(0), "–", "–", "100%"],
      ],
    ),
  );
  log("lag = received − the status change's time (the body's timestamp); it includes the idle poll when the worker was asleep.");
} finally {
  await store.close();
  if (databaseUrl) {
    const pg = (await import("pg")).default;
    const client = new pg.Client({ connectionString: databaseUrl });
    await client.connect();
    await client.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
    await client.end();
  }
  server.closeAllConnections();
  server.close();
}
process.exit(exitCode);

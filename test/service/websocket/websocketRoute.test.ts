/**
 * The websocket (ts/service/websocket) over real loopback with the `ws` client, on an app with a
 * PGlite store: the protocol's messages exactly, pushes for status changes made through the store,
 * the current status on subscribe, fan-out, unsubscribe, bad input, API keys at the upgrade,
 * heartbeat, slow consumers, limits and shutdown.
 */
import { expect } from "chai";
import { Registry } from "prom-client";
import WebSocket from "ws";
import { statusEventData } from "../../../ts/service/events/statusEvent.ts";
import { testIntent } from "../fixtures/testIntent.ts";
import { testOrder } from "../fixtures/testOrder.ts";
import { apiKeyStore } from "../../../ts/service/store/apiKeys.ts";
import { createStore, type Store } from "../../../ts/service/store/createStore.ts";
import { insertOutboxEventOf } from "../../../ts/service/store/outbox.ts";
import type { NewRequest } from "../../../ts/service/model/storedRequest.ts";
import { fixtureConfig, listen, logCapture, type Listening } from "../http/testApp.ts";
import { connect, isUpdate, subscribe, unsubscribe, upgradeRejection, wsUrl, type TestSocket } from "./wsTestClient.ts";
import { withIntent } from "../fixtures/testRequest.ts";
import { canonicalHex, canonicalAddress } from "../../../ts/service/model/values.ts";

const hex = (n: number) => `0x${n.toString(16).padStart(64, "0")}` as const;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

let nextId = 1;
function newRequest(overrides: Partial<NewRequest> = {}): NewRequest {
  const n = nextId++;
  return withIntent({
    id: canonicalHex(hex(n)),
    orderId: canonicalHex(hex(0x100000 + n)),
    user: canonicalAddress(`0x${"aa".repeat(20)}`),
    recipient: canonicalAddress(`0x${"bb".repeat(20)}`),
    originChainId: 31337,
    destinationChainId: 31338,
    ...overrides,
  });
}

type Served = Listening & { registry: Registry; ws: (query?: string) => string };

async function serve(store: Store, websocket: Record<string, unknown> = {}, logger?: ReturnType<typeof logCapture>["logger"]): Promise<Served> {
  const registry = new Registry();
  const config = fixtureConfig({ websocket: { pollIntervalMs: 20, ...websocket }, rateLimits: { anonymousPerMinute: 10_000 } });
  const server = await listen({ config, deps: { store, metricsRegistry: registry }, ...(logger ? { logger } : {}) });
  return { ...server, registry, ws: (query = "") => wsUrl(server.url, "/ws", query) };
}

async function metricValue(registry: Registry, name: string, labels: Record<string, string> = {}): Promise<number> {
  const metric = registry.getSingleMetric(name);
  if (!metric) return 0;
  const { values } = await metric.get();
  const found = values.find((v) => Object.entries(labels).every(([k, value]) => v.labels[k] === value));
  return found?.value ?? 0;
}

async function until(condition: () => Promise<boolean> | boolean, timeoutMs = 5_000, what = "condition"): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(10);
  }
}

describe("websocket route", function () {
  // One PGlite store for every suite (opening one takes seconds).
  let sharedStore: Store;
  before(async function () {
    this.timeout(60_000);
    sharedStore = await createStore();
  });
  after(async () => sharedStore?.close());

  describe("websocket: changes committed in this process", function () {
    this.timeout(30_000);
    it("reach a subscriber at once, without waiting for the outbox poll (pollIntervalMs 60 s)", async () => {
      const server = await serve(sharedStore, { pollIntervalMs: 60_000 });
      const socket = await connect(server.ws());
      try {
        const request = newRequest();
        socket.send(subscribe(request.id));
        await socket.next();
        await sleep(50);
        const startedAt = Date.now();
        await sharedStore.createRequest(request);
        await sharedStore.transaction(async (tx) => {
          await tx.transitionRequest(request.id, "pending");
          await tx.transitionRequest(request.id, "submitted");
        });
        const updates = [];
        for (let i = 0; i < 3; i++) updates.push(await socket.next(isUpdate(request.id), 5_000));
        expect(updates.map((u) => u.data.status)).to.deep.equal(["waiting", "pending", "submitted"]);
        expect(Date.now() - startedAt).to.be.below(5_000);
      } finally {
        socket.ws.terminate();
        await server.close();
      }
    });
  });

  describe("websocket: no subscriber, no outbox reads", function () {
    this.timeout(30_000);
    it("status changes committed here while nobody is subscribed cost the hub no outbox read; once someone subscribes they reach them at once", async () => {
      let reads = 0;
      const engine = sharedStore.engine;
      const counted: Store = {
        ...sharedStore,
        engine: {
          ...engine,
          query: (sql, params) => {
            if (/FROM request_events WHERE id >/.test(sql)) reads += 1;
            return engine.query(sql, params);
          },
        },
      };
      const server = await serve(counted, { pollIntervalMs: 60_000 });
      try {
        await sleep(50);
        const before = reads;
        for (let i = 0; i < 5; i++) {
          const request = newRequest();
          await sharedStore.createRequest(request);
          await sharedStore.transitionRequest(request.id, "pending");
        }
        await sleep(100);
        expect(reads - before, "outbox reads with no subscriber").to.equal(0);
        const socket = await connect(server.ws());
        try {
          const request = newRequest();
          socket.send(subscribe(request.id));
          await socket.next();
          await sharedStore.createRequest(request);
          await sharedStore.transitionRequest(request.id, "pending");
          const updates = [await socket.next(isUpdate(request.id), 5_000), await socket.next(isUpdate(request.id), 5_000)];
          expect(updates.map((u) => u.data.status)).to.deep.equal(["waiting", "pending"]);
        } finally {
          socket.ws.terminate();
        }
      } finally {
        await server.close();
      }
    });
  });

  describe("websocket: protocol over loopback", function () {
    this.timeout(30_000);
    let store: Store;
    let server: Served;
    const sockets: TestSocket[] = [];
    const open = async (query = "") => {
      const socket = await connect(server.ws(query));
      sockets.push(socket);
      return socket;
    };

    before(async () => {
      store = sharedStore;
      server = await serve(store, { maxSubscriptionsPerConnection: 3 });
    });
    afterEach(() => {
      for (const socket of sockets.splice(0)) socket.ws.terminate();
    });
    after(async () => {
      await server.close();
    });

    it("greets every connection with {type: connection, status: ready, data: {id}}, a distinct id each", async () => {
      const raw = new WebSocket(server.ws());
      const first = await new Promise<string>((resolve) => raw.once("message", (data) => resolve(data.toString())));
      raw.terminate();
      const greeting = JSON.parse(first);
      expect(Object.keys(greeting)).to.deep.equal(["type", "status", "data"]);
      expect(greeting.type).to.equal("connection");
      expect(greeting.status).to.equal("ready");
      expect(Object.keys(greeting.data)).to.deep.equal(["id"]);
      expect(greeting.data.id).to.match(/^[0-9a-z]{1,13}$/);
      const [a, b] = [await open(), await open()];
      expect(a.connectionId).to.not.equal(b.connectionId);
    });

    it("acks a subscribe exactly, sends no status for an id never seen, then pushes every change in order with publishedAt", async () => {
      const socket = await open();
      const request = newRequest();
      socket.send(subscribe(request.id));
      expect(await socket.next()).to.deep.equal({
        type: "subscribe",
        status: "success",
        data: { event: "request.status.updated", filters: { id: request.id } },
      });
      expect(await socket.drain(100), "nothing for an unknown id").to.deep.equal([]);

      const before = Date.now();
      await store.createRequest(request);
      await store.transitionRequest(request.id, "pending", { inTxHashes: [canonicalHex(hex(0xdead))] });
      await store.transitionRequest(request.id, "submitted", { txHashes: [canonicalHex(hex(0xbeef))] });
      await store.transitionRequest(request.id, "success");
      const updates = [];
      for (let i = 0; i < 4; i++) updates.push(await socket.next(isUpdate(request.id)));
      const after = Date.now();

      expect(updates.map((u) => u.data.status)).to.deep.equal(["waiting", "pending", "submitted", "success"]);
      const events = await store.requestEvents(request.id);
      updates.forEach((update, i) => {
        expect(Object.keys(update)).to.deep.equal(["event", "data", "publishedAt"]);
        expect(update.event).to.equal("request.status.updated");
        expect(update.data).to.deep.equal(statusEventData(events[i]!.payload));
        expect(update.publishedAt).to.be.a("number").within(before, after);
      });
      expect(updates[1]!.data.inTxHashes).to.deep.equal([hex(0xdead)]);
      expect(updates[3]!.data.txHashes).to.deep.equal([hex(0xbeef)]);
      expect(await socket.drain(100), "each change once").to.deep.equal([]);
    });

    it("sends the current status once right after the ack when the request has one, then only newer changes", async () => {
      const request = newRequest();
      await store.createRequest(request);
      await store.transitionRequest(request.id, "pending", { inTxHashes: [canonicalHex(hex(0xabc))] });
      const socket = await open();
      socket.send(subscribe(request.id.toUpperCase().replace("0X", "0x")));
      const ack = await socket.next();
      expect(ack.type).to.equal("subscribe");
      expect(ack.data.filters.id, "the id lowercased").to.equal(request.id);
      const current = await socket.next();
      expect(current.event).to.equal("request.status.updated");
      expect(current.data.status).to.equal("pending");
      expect(current.data.requestId).to.equal(request.id);
      expect(current.data.inTxHashes).to.deep.equal([hex(0xabc)]);
      expect(current.data.failReason).to.equal("N/A");
      expect(current.data.depositAddress).to.equal(null);
      // Polls of the outbox after the subscription do not send `pending` again.
      await sleep(100);
      await store.transitionRequest(request.id, "submitted");
      expect((await socket.next(isUpdate(request.id))).data.status).to.equal("submitted");
      expect(await socket.drain(100)).to.deep.equal([]);
    });

    it("sends `waiting` from the quote for a requestId quoted but not deposited, then the deposit's events", async () => {
      const request = newRequest();
      const intent = testIntent(7, { requestId: canonicalHex(request.id), orderId: canonicalHex(request.orderId) });
      const quote = await store.saveQuote({
        requestId: request.id,
        orderId: request.orderId,
        orderData: testOrder(intent),
        quote: {},
        intent,
        expiresAt: new Date(Date.now() + 60_000),
      });
      const socket = await open();
      socket.send(subscribe(request.id));
      await socket.next((m) => m.type === "subscribe");
      const waiting = await socket.next(isUpdate(request.id));
      expect(waiting.data).to.deep.include({ status: "waiting", inTxHashes: [], txHashes: [], originChainId: 31337, destinationChainId: 31338 });
      expect(waiting.data.updatedAt).to.equal(Date.parse(quote.createdAt));
      await store.createRequest({ ...request, inTxHashes: [canonicalAddress(hex(0xfeed))] });
      await store.transitionRequest(request.id, "pending");
      const next = [await socket.next(isUpdate(request.id)), await socket.next(isUpdate(request.id))];
      expect(next.map((u) => u.data.status)).to.deep.equal(["waiting", "pending"]);
      expect(next[0]!.data.inTxHashes).to.deep.equal([hex(0xfeed)]);
    });

    it("fans out: several subscribers of one request, several requests on one connection", async () => {
      const [r1, r2] = [newRequest(), newRequest()];
      const [a, b] = [await open(), await open()];
      a.send(subscribe(r1.id));
      a.send(subscribe(r2.id));
      b.send(subscribe(r1.id));
      b.send(subscribe(r1.id)); // twice: one subscription, acked again
      for (const socket of [a, a, b, b]) expect((await socket.next((m) => m.type === "subscribe")).status).to.equal("success");
      expect(await metricValue(server.registry, "ferry_websocket_subscriptions")).to.equal(3);

      await store.createRequest(r1);
      await store.createRequest(r2);
      expect((await a.next(isUpdate(r1.id))).data.status).to.equal("waiting");
      expect((await a.next(isUpdate(r2.id))).data.status).to.equal("waiting");
      expect((await b.next(isUpdate(r1.id))).data.status).to.equal("waiting");
      expect(await b.drain(100), "b: one update per change, nothing of r2").to.deep.equal([]);
    });

    it("unsubscribe is acked exactly and stops the pushes of that request only", async () => {
      const request = newRequest();
      await store.createRequest(request);
      const [a, b] = [await open(), await open()];
      for (const socket of [a, b]) {
        socket.send(subscribe(request.id));
        await socket.next((m) => m.type === "subscribe");
        await socket.next(isUpdate(request.id)); // the current status
      }
      a.send(unsubscribe(request.id));
      expect(await a.next((m) => m.type === "unsubscribe")).to.deep.equal({
        type: "unsubscribe",
        status: "success",
        data: { event: "request.status.updated", filters: { id: request.id } },
      });
      await store.transitionRequest(request.id, "pending");
      expect((await b.next(isUpdate(request.id))).data.status).to.equal("pending");
      expect(await a.drain(150)).to.deep.equal([]);
      // Unsubscribing again (not subscribed) is acked too.
      a.send(unsubscribe(request.id));
      expect((await a.next()).status).to.equal("success");
    });

    it("answers bad input with an error message and keeps the connection and the server working", async () => {
      const socket = await open();
      const cases: [unknown, Record<string, unknown>][] = [
        ["not json {", { type: "error", errorCode: "INVALID_MESSAGE" }],
        ["[1,2]", { type: "error", errorCode: "INVALID_MESSAGE" }],
        ["null", { type: "error", errorCode: "INVALID_MESSAGE" }],
        [{ event: "request.status.updated" }, { type: "error", errorCode: "INVALID_MESSAGE" }],
        [{ type: "ping" }, { type: "error", errorCode: "UNKNOWN_MESSAGE_TYPE" }],
        [{ type: "subscribe", event: "request.created", filters: { id: hex(1) } }, { type: "subscribe", status: "error", errorCode: "UNSUPPORTED_EVENT" }],
        [{ type: "subscribe", event: "request.status.updated", filters: { id: "0x1234" } }, { type: "subscribe", status: "error", errorCode: "INVALID_REQUEST_ID" }],
        [{ type: "subscribe", event: "request.status.updated", filters: { id: 5 } }, { type: "subscribe", status: "error", errorCode: "INVALID_REQUEST_ID" }],
        [{ type: "subscribe", event: "request.status.updated" }, { type: "subscribe", status: "error", errorCode: "INVALID_REQUEST_ID" }],
        [{ type: "subscribe", event: "request.status.updated", filters: { id: hex(1), user: "x" } }, { type: "subscribe", status: "error", errorCode: "INVALID_REQUEST_ID" }],
        [{ type: "unsubscribe", event: "request.status.updated", filters: { id: "'; DROP TABLE requests;--" } }, { type: "unsubscribe", status: "error", errorCode: "INVALID_REQUEST_ID" }],
      ];
      for (const [message, expected] of cases) {
        socket.send(message);
        const answer = await socket.next();
        expect(answer, JSON.stringify(message)).to.deep.include(expected);
        expect(answer.message, "a message for humans").to.be.a("string").and.not.empty;
      }
      socket.ws.send(Buffer.from(JSON.stringify(subscribe(hex(1)))), { binary: true });
      expect(await socket.next()).to.deep.include({ type: "error", errorCode: "INVALID_MESSAGE" });

      // Still open and working.
      const request = newRequest();
      socket.send(subscribe(request.id));
      expect((await socket.next()).status).to.equal("success");
      await store.createRequest(request);
      expect((await socket.next(isUpdate(request.id))).data.status).to.equal("waiting");
      expect((await fetch(`${server.url}/health`)).status).to.equal(200);
    });

    it("refuses subscriptions beyond maxSubscriptionsPerConnection (re-subscribing and unsubscribing still work)", async () => {
      const socket = await open();
      const ids = [hex(0xa1), hex(0xa2), hex(0xa3), hex(0xa4)];
      for (const id of ids.slice(0, 3)) {
        socket.send(subscribe(id));
        expect((await socket.next()).status).to.equal("success");
      }
      socket.send(subscribe(ids[3]!));
      expect(await socket.next()).to.deep.include({ type: "subscribe", status: "error", errorCode: "TOO_MANY_SUBSCRIPTIONS" });
      socket.send(subscribe(ids[0]!));
      expect((await socket.next()).status, "already subscribed").to.equal("success");
      socket.send(unsubscribe(ids[0]!));
      await socket.next();
      socket.send(subscribe(ids[3]!));
      expect((await socket.next()).status).to.equal("success");
    });

    it("closes a connection that sends a frame over the size limit with 1009; others are unaffected", async () => {
      const [big, other] = [await open(), await open()];
      big.send({ type: "subscribe", event: "request.status.updated", filters: { id: hex(1) }, pad: "x".repeat(10_000) });
      expect((await big.closed).code).to.equal(1009);
      other.send(subscribe(hex(2)));
      expect((await other.next()).status).to.equal("success");
    });

    it("frees a closed connection's subscriptions (gauges back down)", async () => {
      const before = await metricValue(server.registry, "ferry_websocket_connections");
      const socket = await connect(server.ws());
      socket.send(subscribe(hex(0xc1)));
      await socket.next();
      expect(await metricValue(server.registry, "ferry_websocket_connections")).to.equal(before + 1);
      const subscriptions = await metricValue(server.registry, "ferry_websocket_subscriptions");
      socket.ws.close();
      await socket.closed;
      await until(async () => (await metricValue(server.registry, "ferry_websocket_connections")) === before, 2_000, "connection gauge");
      expect(await metricValue(server.registry, "ferry_websocket_subscriptions")).to.equal(subscriptions - 1);
    });

    it("answers a plain GET with 426 UPGRADE_REQUIRED, an unknown query field with 400, an upgrade elsewhere with 404; not in /openapi.json", async () => {
      const plain = await fetch(`${server.url}/ws`);
      expect(plain.status).to.equal(426);
      expect(plain.headers.get("upgrade")).to.equal("websocket");
      expect(await plain.json()).to.include({ errorCode: "UPGRADE_REQUIRED" });
      const unknownField = await fetch(`${server.url}/ws?__unexpected=1`);
      expect(unknownField.status).to.equal(400);
      expect(((await unknownField.json()) as { errorCode: string }).errorCode).to.equal("INVALID_REQUEST");

      const elsewhere = await upgradeRejection(wsUrl(server.url, "/health"));
      expect(elsewhere.status).to.equal(404);
      expect(JSON.parse(elsewhere.body).errorCode).to.equal("NOT_FOUND");
      expect((await upgradeRejection(wsUrl(server.url, "/nowhere"))).status).to.equal(404);
      expect((await upgradeRejection(server.ws("?other=1"))).status).to.equal(400);

      const openapi = (await (await fetch(`${server.url}/openapi.json`)).json()) as { paths: Record<string, unknown> };
      expect(Object.keys(openapi.paths)).to.not.include("/ws");
      expect((await fetch(`${server.url}/health`)).status).to.equal(200);
    });
  });

  describe("websocket: API keys at the upgrade", function () {
    this.timeout(30_000);
    let store: Store;
    let server: Served;
    let key: string;
    const capture = logCapture();

    before(async () => {
      store = sharedStore;
      key = (await apiKeyStore(store).createApiKey("ws-test")).key;
      server = await serve(store, {}, capture.logger);
    });
    after(async () => {
      await server.close();
    });

    it("refuses an API key in the URL (?apiKey=, valid or not) with 400 API_KEY_IN_URL before the upgrade; 401 for an invalid x-api-key; accepts a valid one; never logs a key", async () => {
      const badKey = `bad-${key.slice(4)}`;
      for (const inUrl of [key, badKey, "k".repeat(300)]) {
        const rejected = await upgradeRejection(server.ws(`?apiKey=${encodeURIComponent(inUrl)}`));
        expect(rejected.status).to.equal(400);
        expect(JSON.parse(rejected.body)).to.deep.include({ errorCode: "API_KEY_IN_URL" });
      }
      expect((await upgradeRejection(server.ws(), { headers: { "x-api-key": badKey } })).status).to.equal(401);

      for (const socket of [await connect(server.ws()), await connect(server.ws(), { headers: { "x-api-key": key } })]) {
        socket.send(subscribe(hex(0xd1)));
        expect((await socket.next()).status).to.equal("success");
        socket.ws.close();
        await socket.closed;
      }
      const log = capture.lines.join("\n");
      expect(log).to.include("/ws?apiKey=[redacted]");
      expect(log).to.not.include(key);
      expect(log).to.not.include(badKey);
    });
  });

  describe("websocket: heartbeat", function () {
    this.timeout(30_000);
    let store: Store;
    let server: Served;

    before(async () => {
      store = sharedStore;
      server = await serve(store, { heartbeatMs: 100 });
    });
    after(async () => {
      await server.close();
    });

    it("terminates a client that stops answering pings; one that answers stays connected and served", async () => {
      const silent = await connect(server.ws(), { autoPong: false });
      const healthy = await connect(server.ws());
      let pings = 0;
      silent.ws.on("ping", () => pings++);
      const started = Date.now();
      const { code } = await silent.closed;
      expect(code, "terminated, no close frame").to.equal(1006);
      expect(pings).to.be.greaterThan(0);
      expect(Date.now() - started).to.be.below(1_000);
      expect(await metricValue(server.registry, "ferry_websocket_server_closes_total", { reason: "heartbeat_timeout" })).to.equal(1);

      await sleep(400); // several heartbeats
      expect(healthy.ws.readyState).to.equal(WebSocket.OPEN);
      const request = newRequest();
      healthy.send(subscribe(request.id));
      await healthy.next();
      await store.createRequest(request);
      expect((await healthy.next(isUpdate(request.id))).data.status).to.equal("waiting");
      healthy.ws.close();
    });
  });

  describe("websocket: slow consumers and shutdown", function () {
    this.timeout(60_000);
    let store: Store;
    let server: Served;
    // Above a burst of ten 256 KiB events (2.5 MiB): a reading client is never over it, even when its
    // process is too busy to read during a burst (a 64 KiB bound closed the reading client too under load).
    const MAX_BUFFERED = 4 * 1024 * 1024;

    before(async () => {
      store = sharedStore;
      server = await serve(store, { maxBufferedBytes: MAX_BUFFERED });
    });
    after(async () => {
      await server.close().catch(() => {});
    });

    it("closes a client that does not read with 1008 once over maxBufferedBytes; a reading client keeps everything", async () => {
      const request = newRequest();
      const created = await store.createRequest(request);
      const [slow, fast] = [await connect(server.ws()), await connect(server.ws())];
      for (const socket of [slow, fast]) {
        socket.send(subscribe(request.id));
        await socket.next(isUpdate(request.id));
      }
      slow.ws.pause(); // stops reading: the kernel buffers fill, then the server's
      let fastReceived = 0;
      fast.ws.on("message", () => fastReceived++);

      // Big events (256 KiB of details each) straight into the outbox, until the server gives up on `slow`.
      await store.patchRequest(created.id, { details: { blob: "x".repeat(256 * 1024) } });
      let written = 0;
      const slowClosed = () => metricValue(server.registry, "ferry_websocket_server_closes_total", { reason: "slow_consumer" });
      for (let round = 0; round < 80 && (await slowClosed()) === 0; round++) {
        for (let i = 0; i < 10; i++) {
          await insertOutboxEventOf(store.engine, created.id, "waiting", new Date().toISOString());
          written++;
        }
        await sleep(60);
      }
      expect(await slowClosed(), `closed after ${written} events of 256 KiB`).to.equal(1);
      slow.ws.resume();
      const { code, reason } = await slow.closed;
      expect(code).to.equal(1008);
      expect(reason).to.equal("slow consumer");

      await until(() => fastReceived === written, 20_000, "the fast client's updates");
      expect(fast.ws.readyState).to.equal(WebSocket.OPEN);
      fast.ws.close();
    });

    it("closes every connection with 1001 when the app closes", async () => {
      const socket = await connect(server.ws());
      socket.send(subscribe(hex(0xe1)));
      await socket.next();
      await server.close();
      const { code } = await socket.closed;
      expect(code).to.equal(1001);
    });
  });
});

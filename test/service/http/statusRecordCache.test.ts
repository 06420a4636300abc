/**
 * GET /intents/status/v3 served from the status cache (ts/service/http/statusRecordCache.ts), over
 * HTTP on loopback, on both store engines: a request polled again and again is read from the database
 * once per change; this process's writes show at once; another process's writes — a second store on
 * the same PostgreSQL database, or (both engines) the repositories run on the engine directly, which
 * notifies no one — show within the refresh interval; nothing is served older than `maxAgeMs`.
 */
import { expect } from "chai";
import { engineDb } from "../../../ts/service/store/engine.ts";
import { createRequest, patchRequest, transitionRequest } from "../../../ts/service/store/requests.ts";
import type { Store } from "../../../ts/service/store/createStore.ts";
import { createStatusRecordCache } from "../../../ts/service/http/statusRecordCache.ts";
import { toStatusRecord } from "../../../ts/service/model/publicRecords.ts";
import { testIntent } from "../fixtures/testIntent.ts";
import { testOrder } from "../fixtures/testOrder.ts";
import { hex, testNewRequest } from "../fixtures/testRequest.ts";
import { describeEachEngine } from "../store/engines.ts";
import { fixtureConfig, listen, type Listening } from "./testApp.ts";

const REFRESH_MS = 50;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describeEachEngine("status route served from the status cache", (engine) => {
  let server: Listening;
  let reads = 0;
  /** The store with its reads of the status route's tables counted. */
  let counted: Store;
  const status = async (n: number) => {
    const response = await fetch(`${server.url}/intents/status/v3?requestId=${hex(n)}`);
    return { code: response.status, body: (await response.json()) as Record<string, unknown> };
  };
  /** Repositories run on the engine directly: writes no listener of this process hears of (as another process's). */
  const elsewhere = () => ({ db: engineDb(engine.store.engine), now: () => new Date() });

  before(async () => {
    counted = {
      ...engine.store,
      getRequest: async (id) => (reads++, engine.store.getRequest(id)),
      getQuote: async (id) => (reads++, engine.store.getQuote(id)),
    };
    server = await listen({
      config: fixtureConfig({ rateLimits: { anonymousPerMinute: 100_000 }, server: { statusCacheRefreshMs: REFRESH_MS } }),
      deps: { store: counted },
    });
  });
  after(async () => server?.close());
  beforeEach(() => {
    reads = 0;
    engine.clock.ms = Date.now();
  });

  it("reads the database once for many polls of one request, and serves the record its row makes", async () => {
    const created = await engine.store.createRequest(testNewRequest(1, { inTxHashes: [hex(0xf001)] }));
    for (let i = 0; i < 10; i++) {
      const { code, body } = await status(1);
      expect(code).to.equal(200);
      expect(body).to.deep.equal(toStatusRecord(created));
    }
    // The next refresh sees the creation as a recent write and may evict the entry once (it cannot tell
    // a read before the write from one after it within a millisecond); after that, no more reads.
    expect(reads, "ten polls").to.be.at.most(2);
    await sleep(3 * REFRESH_MS);
    await status(1);
    const settled = reads;
    for (let i = 0; i < 20; i++) await status(1);
    expect(reads - settled, "twenty more polls").to.equal(0);
  });

  it("serves this process's writes at once: a transition, a patch without a status change", async () => {
    await engine.store.createRequest(testNewRequest(2));
    expect((await status(2)).body.status).to.equal("waiting");
    engine.clock.ms += 1;
    await engine.store.transitionRequest(hex(2), "pending");
    expect((await status(2)).body.status).to.equal("pending");
    engine.clock.ms += 1;
    await engine.store.transitionRequest(hex(2), "submitted", { txHashes: [hex(0xe002)] });
    expect((await status(2)).body.txHashes).to.deep.equal([hex(0xe002)]);
    engine.clock.ms += 1;
    await engine.store.patchRequest(hex(2), { dropTxHash: hex(0xe002), txHashes: [hex(0xe003)] });
    expect((await status(2)).body.txHashes, "a resent fill, patched without an event").to.deep.equal([hex(0xe003)]);
    engine.clock.ms += 1;
    await engine.store.transaction(async (tx) => tx.transitionRequest(hex(2), "failure", { failReason: "ORDER_EXPIRED" }));
    // A failure with its refund under way shows the status before it until the refund lands.
    expect((await status(2)).body).to.include({ status: "submitted" });
    engine.clock.ms += 1;
    await engine.store.transaction(async (tx) => tx.transitionRequest(hex(2), "refund", { txHashes: [hex(0xe004)] }));
    expect((await status(2)).body).to.include({ status: "refund", failReason: "ORDER_EXPIRED" });
  });

  it("serves another process's writes within the refresh interval", async () => {
    await engine.store.createRequest(testNewRequest(3));
    expect((await status(3)).body.status).to.equal("waiting");
    await transitionRequest(elsewhere(), hex(3), "pending");
    await sleep(3 * REFRESH_MS);
    expect((await status(3)).body.status).to.equal("pending");
    await patchRequest(elsewhere(), hex(3), { refundFailReason: "AMOUNT_TOO_LOW_TO_REFUND" });
    await sleep(3 * REFRESH_MS);
    expect((await status(3)).body.refundFailReason).to.equal("AMOUNT_TOO_LOW_TO_REFUND");
  });

  it("serves a quoted requestId as waiting, then its request once another process creates the row", async () => {
    const intent = testIntent(4, { requestId: hex(4), orderId: hex(1004) });
    await engine.store.saveQuote({ requestId: hex(4), orderId: hex(1004), orderData: testOrder(intent), quote: {}, intent, expiresAt: new Date(Date.now() + 60_000) });
    expect((await status(4)).body.status).to.equal("waiting");
    expect((await status(4)).body.status).to.equal("waiting");
    expect(reads, "the quote's record is cached too").to.equal(2);
    await createRequest(elsewhere(), testNewRequest(4, { inTxHashes: [hex(0xf004)] }));
    await transitionRequest(elsewhere(), hex(4), "pending");
    await sleep(3 * REFRESH_MS);
    expect((await status(4)).body).to.include({ status: "pending" });
  });

  it("counts the store statements its misses issue in ferry_status_store_reads_total (what bench:intent-cost takes off)", async () => {
    const metric = async () => Number(/^ferry_status_store_reads_total (\d+)/m.exec(await (await fetch(`${server.url}/metrics`)).text())?.[1]);
    const before = await metric();
    const intent = testIntent(12, { requestId: hex(12), orderId: hex(1012) });
    await engine.store.saveQuote({ requestId: hex(12), orderId: hex(1012), orderData: testOrder(intent), quote: {}, intent, expiresAt: new Date(Date.now() + 60_000) });
    await status(12);
    await engine.store.createRequest(testNewRequest(12));
    await status(12);
    await status(12);
    expect(reads, "a quote-only miss (request, quote), a miss after the creation, then a hit (or one more miss: a refresh's eviction)").to.be.within(3, 4);
    expect((await metric()) - before).to.equal(reads);
  });

  it("does not cache an unknown requestId: quoted a moment later, it is found", async () => {
    expect((await status(5)).code).to.equal(404);
    const intent = testIntent(5, { requestId: hex(5), orderId: hex(1005) });
    await engine.store.saveQuote({ requestId: hex(5), orderId: hex(1005), orderData: testOrder(intent), quote: {}, intent, expiresAt: new Date(Date.now() + 60_000) });
    expect((await status(5)).body.status).to.equal("waiting");
  });

  if (engine.kind === "postgres") {
    it("serves a write by another replica (a second store on the same database) within the refresh interval", async () => {
      const db = await engine.freshDatabase();
      // Real clocks: two replicas' writes carry their own times.
      const mine = await db.open(() => new Date());
      const replica = await db.open(() => new Date());
      const app = await listen({ config: fixtureConfig({ server: { statusCacheRefreshMs: REFRESH_MS } }), deps: { store: mine } });
      try {
        await mine.createRequest(testNewRequest(6));
        const poll = async () => ((await (await fetch(`${app.url}/intents/status/v3?requestId=${hex(6)}`)).json()) as { status: string }).status;
        expect(await poll()).to.equal("waiting");
        await replica.transitionRequest(hex(6), "pending");
        const started = Date.now();
        while ((await poll()) !== "pending") {
          expect(Date.now() - started, "seen within a few refresh intervals").to.be.below(20 * REFRESH_MS);
          await sleep(5);
        }
      } finally {
        await app.close();
        await replica.close();
        await mine.close();
      }
    });
  }

  /** The engine's store whose `getRequest` reads, then holds its answer until `release()`; `reads()` counts them. */
  function gatedReads(): { store: Store; release: () => void; reads: () => number } {
    let release: () => void = () => {};
    const gate = new Promise<void>((resolve) => (release = resolve));
    let reads = 0;
    const store: Store = {
      ...engine.store,
      getRequest: async (id) => {
        reads++;
        const row = await engine.store.getRequest(id);
        await gate;
        return row;
      },
    };
    return { store, release: () => release(), reads: () => reads };
  }

  it("does not keep a read that overlapped a write of this process", async () => {
    await engine.store.createRequest(testNewRequest(7));
    const { store: slow, release } = gatedReads();
    const cache = createStatusRecordCache({ store: slow, refreshMs: 60_000 });
    cache.start();
    try {
      const first = cache.read(hex(7));
      await sleep(10);
      await engine.store.transitionRequest(hex(7), "pending");
      release();
      expect(JSON.parse((await first)!).status, "the read in flight answers what it read").to.equal("waiting");
      expect(JSON.parse((await cache.read(hex(7)))!).status, "but it was not kept").to.equal("pending");
    } finally {
      await cache.stop();
    }
  });

  it("keeps a read that overlapped only writes of other requests (at 200 users every read overlapped one)", async () => {
    await engine.store.createRequest(testNewRequest(10));
    await engine.store.createRequest(testNewRequest(11));
    const { store: slow, release, reads } = gatedReads();
    const cache = createStatusRecordCache({ store: slow, refreshMs: 60_000 });
    cache.start();
    try {
      const first = cache.read(hex(10));
      await sleep(10);
      await engine.store.transitionRequest(hex(11), "pending");
      release();
      expect(JSON.parse((await first)!).status).to.equal("waiting");
      expect(JSON.parse((await cache.read(hex(10)))!).status).to.equal("waiting");
      expect(reads(), "the second poll is served from the cache").to.equal(1);
      expect(JSON.parse((await cache.read(hex(11)))!).status, "the other request's write shows").to.equal("pending");
    } finally {
      await cache.stop();
    }
  });

  it("serves nothing older than maxAgeMs, even a write it never heard of (a writer's clock an hour behind)", async () => {
    let now = Date.now();
    const cache = createStatusRecordCache({ store: engine.store, refreshMs: 60_000, maxAgeMs: 30_000, now: () => now });
    cache.start();
    try {
      await engine.store.createRequest(testNewRequest(8));
      expect(JSON.parse((await cache.read(hex(8)))!).status).to.equal("waiting");
      await transitionRequest({ db: engineDb(engine.store.engine), now: () => new Date(Date.now() - 3_600_000) }, hex(8), "pending");
      now += 29_000;
      expect(JSON.parse((await cache.read(hex(8)))!).status, "within maxAgeMs: may be stale").to.equal("waiting");
      now += 2_000;
      expect(JSON.parse((await cache.read(hex(8)))!).status, "past maxAgeMs: read again").to.equal("pending");
    } finally {
      await cache.stop();
    }
  });

  it("with statusCacheRefreshMs 0, reads the database on every poll", async () => {
    const uncached = await listen({ config: fixtureConfig({ server: { statusCacheRefreshMs: 0 } }), deps: { store: counted } });
    try {
      await engine.store.createRequest(testNewRequest(9));
      for (let i = 0; i < 3; i++) await fetch(`${uncached.url}/intents/status/v3?requestId=${hex(9)}`).then((r) => r.arrayBuffer());
      expect(reads).to.equal(3);
    } finally {
      await uncached.close();
    }
  });
});

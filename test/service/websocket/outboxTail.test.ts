/**
 * The outbox tail (ts/service/websocket/outboxTail.ts) on both engines: it starts at the current
 * position, delivers each event once in id order, reads on after a full batch, forgets holes left by
 * rollbacks after `holeTimeoutMs` — and, on PostgreSQL, delivers an event whose transaction commits
 * after a newer id was already delivered (also one in flight when the tail starts).
 */
import { expect } from "chai";
import type { StreamedEvent } from "../../../ts/service/store/eventStream.ts";
import type { NewRequest } from "../../../ts/service/model/storedRequest.ts";
import { createOutboxTail, type OutboxTail } from "../../../ts/service/websocket/outboxTail.ts";
import { describeEachEngine } from "../store/engines.ts";
import { withIntent } from "../fixtures/testRequest.ts";
import { canonicalHex, canonicalAddress } from "../../../ts/service/model/values.ts";

const hex = (n: number) => `0x${n.toString(16).padStart(64, "0")}` as const;
const request = (n: number): NewRequest =>
  withIntent({
    id: canonicalHex(hex(n)),
    orderId: canonicalHex(hex(0x9000 + n)),
    user: canonicalAddress(`0x${"aa".repeat(20)}`),
    recipient: canonicalAddress(`0x${"bb".repeat(20)}`),
    originChainId: 31337,
    destinationChainId: 31338,
  });

describeEachEngine("websocket outbox tail", (engine) => {
  let delivered: StreamedEvent[];
  let tails: OutboxTail[];
  let clockMs: number;
  const tail = (options: { batchSize?: number; holeTimeoutMs?: number; store?: typeof engine.store } = {}) => {
    const created = createOutboxTail({
      engine: (options.store ?? engine.store).engine,
      // The tests poll by hand; the loop's own polls are far apart.
      pollIntervalMs: 60_000,
      onEvents: (events) => delivered.push(...events),
      now: () => clockMs,
      ...(options.batchSize ? { batchSize: options.batchSize } : {}),
      ...(options.holeTimeoutMs ? { holeTimeoutMs: options.holeTimeoutMs } : {}),
    });
    tails.push(created);
    return created;
  };

  beforeEach(() => {
    delivered = [];
    tails = [];
    clockMs = 1_000_000;
  });
  afterEach(async () => {
    for (const t of tails) await t.stop();
  });

  it("tail_startsAtTheCurrentPosition_andDeliversEachLaterEventOnceInIdOrder", async () => {
    const { store } = engine;
    await store.createRequest(request(1));
    const t = tail();
    await t.start();
    expect(t.position).to.be.greaterThan(0);
    await t.poll();
    expect(delivered, "events before the start are not delivered").to.deep.equal([]);

    await store.transitionRequest(canonicalHex(hex(1)), "pending");
    await store.createRequest(request(2));
    await t.poll();
    await t.poll();
    expect(delivered.map((e) => [e.requestId, e.payload.status])).to.deep.equal([
      [hex(1), "pending"],
      [hex(2), "waiting"],
    ]);
    expect(delivered[0]!.id).to.be.lessThan(delivered[1]!.id);
    expect(t.position).to.equal(delivered[1]!.id);
    expect(t.holes).to.deep.equal([]);
  });

  it("tail_fullBatch_readsOnInTheSamePoll", async () => {
    const t = tail({ batchSize: 2 });
    await t.start();
    for (let n = 1; n <= 5; n++) await engine.store.createRequest(request(n));
    await t.poll();
    expect(delivered.map((e) => e.requestId)).to.deep.equal([1, 2, 3, 4, 5].map(hex));
  });

  it("tail_holeOfARolledBackTransaction_isForgottenAfterHoleTimeout", async () => {
    const { store } = engine;
    const t = tail({ holeTimeoutMs: 5_000 });
    await t.start();
    await store
      .transaction(async (tx) => {
        await tx.createRequest(request(1));
        throw new Error("roll back");
      })
      .catch(() => {});
    await store.createRequest(request(2));
    await t.poll();
    expect(delivered.map((e) => e.requestId)).to.deep.equal([hex(2)]);
    expect(t.holes, "the rolled-back id is watched").to.deep.equal([delivered[0]!.id - 1]);
    clockMs += 4_000;
    await t.poll();
    expect(t.holes).to.have.length(1);
    clockMs += 2_000;
    await t.poll();
    expect(t.holes).to.deep.equal([]);
    expect(delivered).to.have.length(1);
  });

  it("tail_lateCommit_isDeliveredAfterTheNewerIdWithoutDuplicates (PostgreSQL)", async function () {
    if (engine.kind !== "postgres") this.skip(); // PGlite runs one transaction at a time
    const db = await engine.freshDatabase();
    const [a, b] = [await db.open(), await db.open()];
    try {
      const t = tail({ store: a });
      await t.start();
      let release!: () => void;
      const gate = new Promise<void>((resolve) => (release = resolve));
      let inserted!: () => void;
      const insertedPromise = new Promise<void>((resolve) => (inserted = resolve));
      // Replica A takes the lower id and holds its transaction open…
      const slow = a.transaction(async (tx) => {
        await tx.createRequest(request(1));
        inserted();
        await gate;
      });
      await insertedPromise;
      // …while replica B takes the next id and commits.
      await b.createRequest(request(2));
      await t.poll();
      expect(delivered.map((e) => e.requestId)).to.deep.equal([hex(2)]);
      expect(t.holes).to.deep.equal([delivered[0]!.id - 1]);

      release();
      await slow;
      await t.poll();
      expect(delivered.map((e) => e.requestId)).to.deep.equal([hex(2), hex(1)]);
      expect(delivered[1]!.id).to.equal(delivered[0]!.id - 1);
      expect(t.holes).to.deep.equal([]);
      await t.poll();
      expect(delivered).to.have.length(2);
    } finally {
      await a.close();
      await b.close();
    }
  });

  it("tail_transactionInFlightAtStart_isDeliveredWhenItCommits (PostgreSQL)", async function () {
    if (engine.kind !== "postgres") this.skip();
    const db = await engine.freshDatabase();
    const [a, b] = [await db.open(), await db.open()];
    try {
      let release!: () => void;
      const gate = new Promise<void>((resolve) => (release = resolve));
      let inserted!: () => void;
      const insertedPromise = new Promise<void>((resolve) => (inserted = resolve));
      const slow = a.transaction(async (tx) => {
        await tx.createRequest(request(1));
        inserted();
        await gate;
      });
      await insertedPromise;
      await b.createRequest(request(2));
      const t = tail({ store: b });
      await t.start(); // position: request 2's id; request 1's id is a hole
      expect(t.holes).to.include(t.position - 1);
      release();
      await slow;
      await t.poll();
      expect(delivered.map((e) => e.requestId)).to.deep.equal([hex(1)]);
    } finally {
      await a.close();
      await b.close();
    }
  });
});

/**
 * The status hub (ts/service/websocket/statusHub.ts) reads the outbox only while someone is subscribed:
 * with no subscriber, every replica's tail read every event of every replica at its poll interval for
 * no one (issue 26: 0.8 store queries per intent per replica). A subscription starts the tail before
 * the request's current status is read, so a change made after it is delivered, once.
 */
import { expect } from "chai";
import type { Queryable } from "../../../ts/service/store/engine.ts";
import { createStatusHub, type HubConnection } from "../../../ts/service/websocket/statusHub.ts";
import { describeEachEngine } from "../store/engines.ts";
import { testNewRequest } from "../fixtures/testRequest.ts";

const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describeEachEngine("websocket status hub, idle", (engine) => {
  it("noSubscriber_noOutboxRead_aSubscriptionReadsAndDeliversEachChangeOnce_theLastOneLeavingStopsTheReads", async () => {
    const { store } = engine;
    const reads: string[] = [];
    const counted: Queryable = {
      query: (sql, params) => {
        if (sql.includes("request_events")) reads.push(sql);
        return store.engine.query(sql, params);
      },
      exec: (sql) => store.engine.exec(sql),
    };
    const hub = createStatusHub({ engine: counted, getQuote: (id) => store.getQuote(id), pollIntervalMs: 20 });
    await hub.start();
    try {
      await store.createRequest(testNewRequest(1));
      await wait(300);
      expect(reads, "started, nobody subscribed: no outbox read").to.deep.equal([]);

      const received: string[] = [];
      const connection: HubConnection = { id: "c1", send: (text) => void received.push(text) };
      await hub.subscribe(connection, testNewRequest(1).id);
      await store.transitionRequest(testNewRequest(1).id, "pending");
      for (let i = 0; i < 100 && received.filter((t) => t.includes('"pending"')).length === 0; i++) await wait(20);
      const statuses = received.map((t) => JSON.parse(t) as { event?: string; data?: { status?: string } }).filter((m) => m.data?.status).map((m) => m.data!.status);
      expect(statuses, JSON.stringify(received)).to.deep.equal(["waiting", "pending"]);
      expect(reads.length, "subscribed: the tail reads").to.be.greaterThan(0);

      hub.disconnect(connection);
      await wait(100);
      const after = reads.length;
      await wait(300);
      expect(reads.length, "the last subscriber gone: no more reads").to.equal(after);
    } finally {
      await hub.stop();
    }
  });
});

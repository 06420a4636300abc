/**
 * The status hub (ts/service/websocket/statusHub.ts) starts and stops its outbox tail as subscribers
 * come and go, one change at a time. A change queued by a leaving subscriber may find a new subscriber
 * when it runs, and then has to start the tail: with the database away that start fails. Nobody awaits
 * that change, so its failure must never become an unhandled rejection, which ends the process (Node's
 * default): every websocket client of the replica would be cut off by one outage that the polls ride
 * out. (The hub's chain of changes handles each one's failure; this holds it to that.)
 */
import { expect } from "chai";
import type { Queryable } from "../../../ts/service/store/engine.ts";
import { createStatusHub, type HubConnection } from "../../../ts/service/websocket/statusHub.ts";
import { describeEachEngine } from "../store/engines.ts";
import { testNewRequest } from "../fixtures/testRequest.ts";

const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const connection = (id: string): HubConnection => ({ id, send: () => {} });

describeEachEngine("websocket status hub, database away", (engine) => {
  it("aTailStartThatFailsInAChangeNobodyAwaits_isReported_notAnUnhandledRejection", async () => {
    const { store } = engine;
    // The outbox reads: normal, then held (a poll in flight while the database goes away), then failing.
    let mode: "ok" | "held" | "failing" = "ok";
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let heldReads = 0;
    const outage = () => new Error("connection refused (the database is away)");
    const db: Queryable = {
      query: async (sql, params) => {
        if (sql.includes("request_events")) {
          if (mode === "held") {
            heldReads++;
            await held;
            throw outage();
          }
          if (mode === "failing") throw outage();
        }
        return store.engine.query(sql, params);
      },
      exec: (sql) => store.engine.exec(sql),
    };
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown) => void unhandled.push(reason);
    // Mocha's own listener would fail the run on the first one; this test counts them itself.
    const mochaListeners = process.listeners("unhandledRejection");
    process.removeAllListeners("unhandledRejection");
    process.on("unhandledRejection", onUnhandled);
    const reported: Error[] = [];
    const hub = createStatusHub({ engine: db, getQuote: async () => null, pollIntervalMs: 10, onError: (error) => void reported.push(error) });
    const id = testNewRequest(1).id;
    try {
      await hub.start();
      const [a, b, c] = [connection("a"), connection("b"), connection("c")];
      await hub.subscribe(a, id);
      mode = "held";
      for (let i = 0; i < 200 && heldReads === 0; i++) await wait(5);
      expect(heldReads, "a tail poll in flight").to.be.greaterThan(0);

      hub.disconnect(a); // the last one: the tail stops once its poll in flight ends
      const subscribedB = hub.subscribe(b, id).then(() => "subscribed", (error: Error) => error.message);
      hub.disconnect(b); // its change queued behind B's start: nobody awaits it
      const subscribedC = hub.subscribe(c, id).then(() => "subscribed", (error: Error) => error.message);
      mode = "failing";
      release();

      expect(await subscribedB).to.match(/database is away/);
      expect(await subscribedC).to.match(/database is away/);
      await wait(50);
      expect(unhandled.map(String), "unhandled rejections").to.deep.equal([]);
      expect(reported.map((e) => e.message)).to.include("connection refused (the database is away)");
    } finally {
      process.removeListener("unhandledRejection", onUnhandled);
      for (const listener of mochaListeners) process.on("unhandledRejection", listener);
      mode = "ok";
      await hub.stop();
    }
  });
});

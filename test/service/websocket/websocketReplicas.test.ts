/**
 * Several replicas on one PostgreSQL database: a status change written by one replica's store reaches
 * websocket subscribers connected to any replica (each replica's hub tails the shared outbox).
 */
import { expect } from "chai";
import type { Store } from "../../../ts/service/store/createStore.ts";
import { describeEachEngine } from "../store/engines.ts";
import { fixtureConfig, listen, type Listening } from "../http/testApp.ts";
import { connect, isUpdate, subscribe, wsUrl } from "./wsTestClient.ts";
import { withIntent } from "../fixtures/testRequest.ts";
import { canonicalHex, canonicalAddress } from "../../../ts/service/model/values.ts";

const hex = (n: number) => canonicalHex(`0x${n.toString(16).padStart(64, "0")}`);

describeEachEngine("websocket across replicas", (engine) => {
  const stores: Store[] = [];
  const servers: Listening[] = [];

  before(function () {
    if (engine.kind !== "postgres") this.skip(); // PGlite is one process's embedded database
  });
  after(async () => {
    for (const server of servers) await server.close().catch(() => {});
    for (const store of stores) await store.close().catch(() => {});
  });

  it("replicas_statusChangeWrittenByAnotherReplica_reachesSubscribersOnEveryReplica", async function () {
    this.timeout(30_000);
    const db = await engine.freshDatabase();
    const realClock = () => new Date();
    const [a, b, writer] = [await db.open(realClock), await db.open(realClock), await db.open(realClock)];
    stores.push(a, b, writer);
    const config = fixtureConfig({ websocket: { pollIntervalMs: 25 } });
    const [serverA, serverB] = [await listen({ config, deps: { store: a } }), await listen({ config, deps: { store: b } })];
    servers.push(serverA, serverB);
    const id = hex(0x77);
    const clients = [await connect(wsUrl(serverA.url)), await connect(wsUrl(serverB.url)), await connect(wsUrl(serverB.url))];
    for (const client of clients) {
      client.send(subscribe(id));
      expect((await client.next()).status).to.equal("success");
    }

    // A third store handle (another replica: the solver's) makes every change.
    await writer.createRequest(withIntent({
      id,
      orderId: hex(0x78),
      user: canonicalAddress(`0x${"aa".repeat(20)}`),
      recipient: canonicalAddress(`0x${"bb".repeat(20)}`),
      originChainId: 31337,
      destinationChainId: 31338,
    }));
    await writer.transitionRequest(id, "pending", { inTxHashes: [hex(1)] });
    await writer.transitionRequest(id, "submitted", { txHashes: [hex(2)] });
    await writer.transitionRequest(id, "success");

    for (const client of clients) {
      const statuses = [];
      for (let i = 0; i < 4; i++) statuses.push((await client.next(isUpdate(id))).data.status);
      expect(statuses).to.deep.equal(["waiting", "pending", "submitted", "success"]);
      expect(await client.drain(100)).to.deep.equal([]);
      client.ws.close();
    }
  });
});

// Two solver loops — two replicas on one PostgreSQL, or two loops of one process on PGlite — filling their
// pools at the same moment (a status change wakes every replica at once). Each must step requests the
// other does not: before, both read the same work list and then raced for each request's lease, one by
// one, and the loser had spent a store round trip on each lost claim (issue 26: two replicas cost 1.14×
// the store queries of one; 5.3 lease writes per intent against 3.6). Now the listing takes the leases
// in the same statement: what a loop is given is its own, and its step makes no second claim.
import { expect } from "chai";
import { createSolver, startSolver } from "../../../ts/service/solver/startSolver.ts";
import { countingStore, stepReadsOf, waitFor } from "./solverHelpers.ts";
import { indexDeposits } from "../../../ts/service/solver/indexer/indexDeposits.ts";
import type { Store } from "../../../ts/service/store/createStore.ts";
import { SILENT_LOG } from "../../../ts/service/logging/logger.ts";
import { describeEachEngine, type TestDatabase } from "../store/engines.ts";
import { deposit, makeIntent, saveQuote, useFreshDatabase, useTwoChains, type TwoChains } from "./twoChains.ts";
import type { QuotedIntent } from "../../../ts/service/model/quotedIntent.ts";

/** Every call to the store's lease and step-read methods, with the claim's answer. */
function recordingStore(store: Store): { store: Store; lostClaims: () => number; stepped: Set<string> } {
  let lost = 0;
  const stepped = new Set<string>();
  const recorded = new Proxy(store, {
    get(target, key, receiver) {
      const value = Reflect.get(target, key, receiver);
      if (key === "claimRequest") {
        return async (...args: Parameters<Store["claimRequest"]>) => {
          const held = await store.claimRequest(...args);
          if (!held) lost += 1;
          return held;
        };
      }
      return value;
    },
  });
  return { store: stepReadsOf(recorded, (id) => stepped.add(id)), lostClaims: () => lost, stepped };
}

describeEachEngine("solver: two loops fill their pools at once", (engine) => {
  let env: TwoChains;
  let db: TestDatabase;
  let store: Store;

  useTwoChains((started) => (env = started));
  useFreshDatabase(engine, (made) => ({ db, store } = made));

  it("attack_twoLoopsWokenTogether_neverRaceForARequest_eachStepsItsOwn_allAreStepped", async function () {
    this.timeout(120_000);
    const intents: QuotedIntent[] = [];
    for (let i = 0; i < 6; i++) {
      const intent = makeIntent(env);
      await saveQuote(store, intent);
      await deposit(env, { orderId: intent.orderId, amount: intent.originAmount });
      intents.push(intent);
    }
    // PostgreSQL: a second connection pool, as another replica has; PGlite (one process): the same store.
    const other = engine.kind === "postgres" ? await db.open(() => new Date()) : store;
    const a = recordingStore(store);
    const b = recordingStore(other);
    const solverA = createSolver({ config: env.config, store: a.store, owner: "loop-a" });
    const solverB = createSolver({ config: env.config, store: b.store, owner: "loop-b" });
    try {
      // The deposits indexed: six `pending` requests, nobody's lease on them.
      for (const client of solverA.ctx.clients.all()) await indexDeposits({ store, client, chains: solverA.ctx.chains, log: SILENT_LOG }, { maxRangesPerStep: 10 });
      const pending = await Promise.all(intents.map((i) => store.getRequest(i.requestId)));
      expect(pending.map((r) => r?.status)).to.deep.equal(intents.map(() => "pending"));

      await Promise.all([solverA.fillPool(() => {}), solverB.fillPool(() => {})]);
      await Promise.all([solverA.drain(), solverB.drain()]);

      expect(a.lostClaims() + b.lostClaims(), "claims lost to the other loop").to.equal(0);
      const both = [...a.stepped].filter((id) => b.stepped.has(id));
      expect(both, "stepped by both loops").to.deep.equal([]);
      expect([...a.stepped, ...b.stepped].sort(), "every request stepped").to.deep.equal(intents.map((i) => i.requestId).sort());
    } finally {
      if (other !== store) await other.close();
    }
  });

  it("twoRunningReplicas_onlyOneIndexesEachChain_andWhenItStopsTheOtherTakesOver", async function () {
    this.timeout(120_000);
    const other = engine.kind === "postgres" ? await db.open(() => new Date()) : store;
    const a = countingStore(store);
    const b = countingStore(other);
    const replicaA = startSolver({ config: env.config, store: a.store, owner: "replica-a", pollIntervalMs: 50 });
    let replicaB: ReturnType<typeof startSolver> | undefined;
    try {
      await new Promise((resolve) => setTimeout(resolve, 300));
      replicaB = startSolver({ config: env.config, store: b.store, owner: "replica-b", pollIntervalMs: 50 });
      const first = makeIntent(env);
      await saveQuote(store, first);
      await deposit(env, { orderId: first.orderId, amount: first.originAmount });
      await waitFor(async () => (await store.getRequest(first.requestId))?.status === "success" || undefined, 30_000, "the first intent filled");
      // Each chain's indexing (its checkpoint read each pass) and the background passes: replica A's only.
      const reads = (calls: string[], name: string) => calls.filter((c) => c === name).length;
      expect(reads(a.calls, "getIndexerCheckpoint"), "A indexes").to.be.greaterThan(0);
      expect(reads(b.calls, "getIndexerCheckpoint"), "B does not index while A does").to.equal(0);
      expect(reads(b.calls, "listPendingStrayDeposits"), "nor run the background passes").to.equal(0);

      await replicaA.stop(); // gives its leases back
      const second = makeIntent(env);
      await saveQuote(store, second);
      await deposit(env, { orderId: second.orderId, amount: second.originAmount });
      await waitFor(async () => (await store.getRequest(second.requestId))?.status === "success" || undefined, 30_000, "the second intent filled by B");
      expect(reads(b.calls, "getIndexerCheckpoint"), "B took the indexing over").to.be.greaterThan(0);
    } finally {
      await replicaA.stop();
      await replicaB?.stop();
      if (other !== store) await other.close();
    }
  });
});

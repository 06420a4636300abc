// Two service replicas on one PostgreSQL database: their solver loops run at the same time over the
// same work list, and every request is filled exactly once (the per-request lease in solver_claims,
// the row lock in transitionRequest, the unique order_id for deposits).
import { expect } from "chai";
import { createSolver } from "../../../ts/service/solver/startSolver.ts";
import type { Store } from "../../../ts/service/store/createStore.ts";
import { describeEachEngine } from "../store/engines.ts";
import { filledLogs } from "./solverHelpers.ts";
import { deposit, makeIntent, saveQuote, startTwoChains, type TwoChains } from "./twoChains.ts";

describeEachEngine("solver replicas on one database", (engine) => {
  let env: TwoChains | undefined;
  const stores: Store[] = [];

  before(async function () {
    this.timeout(120_000);
    if (engine.kind !== "postgres") this.skip(); // PGlite is one process's embedded database
    env = await startTwoChains();
  });
  after(async () => {
    for (const store of stores) await store.close().catch(() => {});
    await env?.close();
  });

  it("replicas_solvingConcurrently_fillEachRequestOnce", async function () {
    this.timeout(120_000);
    const db = await engine.freshDatabase();
    const realClock = () => new Date();
    const [a, b] = [await db.open(realClock), await db.open(realClock)];
    stores.push(a, b);
    const intents = [makeIntent(env!), makeIntent(env!), makeIntent(env!), makeIntent(env!)];
    for (const intent of intents) {
      await saveQuote(a, intent);
      await deposit(env!, { orderId: intent.orderId, amount: BigInt(intent.originAmount) });
    }
    const loops = [createSolver({ config: env!.config, store: a }), createSolver({ config: env!.config, store: b }), createSolver({ config: env!.config, store: b })];
    for (let i = 0; i < 12; i++) await Promise.all(loops.map((loop) => loop.tick()));
    for (const intent of intents) {
      expect((await a.getRequest(intent.requestId))!.status).to.equal("success");
      expect(await filledLogs(env!, intent.requestId)).to.have.length(1);
      expect((await b.requestEvents(intent.requestId)).map((e) => e.status)).to.deep.equal(["waiting", "pending", "submitted", "success"]);
    }
  });

  it("replicas_fillingAtOnceWithOneKey_neverClashOnANonce", async function () {
    // Field test: two replicas sharing the solver key took the same nonce from the node and their steps
    // failed (nonce too low / replacement underpriced) and dragged on past their leases. Nonces now come
    // from the store: every send of every replica gets its own, first time.
    this.timeout(180_000);
    const db = await engine.freshDatabase();
    const realClock = () => new Date();
    const [a, b] = [await db.open(realClock), await db.open(realClock)];
    stores.push(a, b);
    const intents = Array.from({ length: 16 }, () => makeIntent(env!));
    for (const intent of intents) {
      await saveQuote(a, intent);
      await deposit(env!, { orderId: intent.orderId, amount: BigInt(intent.originAmount) });
    }
    const complaints: string[] = [];
    const log = {
      debug() {},
      info() {},
      warn: (fields: Record<string, unknown>, message: string) => void complaints.push(`${message} ${JSON.stringify(fields)}`),
      error: (fields: Record<string, unknown>, message: string) => void complaints.push(`${message} ${JSON.stringify(fields)}`),
    };
    const loops = [createSolver({ config: env!.config, store: a, log }), createSolver({ config: env!.config, store: b, log }), createSolver({ config: env!.config, store: b, log })];
    for (let i = 0; i < 8; i++) await Promise.all(loops.map((loop) => loop.tick()));
    for (const intent of intents) {
      expect((await a.getRequest(intent.requestId))!.status).to.equal("success");
      expect(await filledLogs(env!, intent.requestId)).to.have.length(1);
    }
    expect(complaints.filter((line) => /nonce|underpriced/i.test(line))).to.deep.equal([]);
  });
});

// A hanging RPC must not make a solver step outlive its lease: two solver loops on one store, the
// destination chain's RPC behind a real proxy that accepts and never answers. Every step gives up
// before its lease ends, so the two loops never hold one request at the same time (the field test saw
// steps outlive the 15 s lease and two replicas clash on a nonce); once the RPC answers again the
// request fills once.
import { expect } from "chai";
import { createSolver } from "../../../ts/service/solver/startSolver.ts";
import { createStore, type Store } from "../../../ts/service/store/createStore.ts";
import { startChainProxy, type ChainProxy } from "../../faults/chainProxy.ts";
import { filledLogs, waitFor } from "./solverHelpers.ts";
import { deposit, makeIntent, saveQuote, startTwoChains, type TwoChains } from "./twoChains.ts";
import { canonicalAddress } from "../../../ts/service/model/values.ts";

const TTL_MS = 3_000;

describe("solver steps under a hanging RPC", function () {
  this.timeout(300_000);
  let env: TwoChains;
  let store: Store;
  let proxy: ChainProxy;

  before(async () => {
    env = await startTwoChains();
    proxy = await startChainProxy(env.destination.rpcUrl);
    store = await createStore();
  });
  after(async () => {
    await proxy?.close();
    await store?.close();
    await env?.close();
  });

  it("twoLoops_neverHoldOneRequestAtOnce_andEachStepEndsWithinItsLease", async () => {
    const intent = makeIntent(env);
    await saveQuote(store, intent);
    await deposit(env, { orderId: intent.orderId, amount: intent.originAmount });
    const chains = env.config.chains.map((c) => (c.id === env.destination.chainId ? { ...c, rpcUrl: proxy.url, rpcUrls: [proxy.url] } : c));
    const config = { ...env.config, chains };

    type Hold = { owner: string; from: number; to: number | null };
    const holds: Hold[] = [];
    const recording = (owner: string): Store => ({
      ...store,
      claimRequest: async (id, who, ttl) => {
        const ok = await store.claimRequest(id, who, ttl);
        if (ok && id === intent.requestId.toLowerCase()) holds.push({ owner, from: Date.now(), to: null });
        return ok;
      },
      releaseRequest: async (id, who) => {
        if (id === intent.requestId.toLowerCase()) {
          const open = holds.findLast((h) => h.owner === owner && h.to === null);
          if (open) open.to = Date.now();
        }
        return store.releaseRequest(id, who);
      },
    });
    const loops = ["a", "b"].map((owner) => createSolver({ config, store: recording(owner), owner, claimTtlMs: TTL_MS }));

    await proxy.setMode({ kind: "hang" });
    const until = Date.now() + 4 * TTL_MS;
    await Promise.all(
      loops.map(async (loop) => {
        while (Date.now() < until) await loop.tick();
      }),
    );
    const closed = holds.filter((h): h is Hold & { to: number } => h.to !== null);
    expect(closed.length, JSON.stringify(holds)).to.be.greaterThan(0);
    for (const hold of closed) expect(hold.to - hold.from, `a step held its lease ${hold.to - hold.from} ms`).to.be.below(TTL_MS);
    for (const a of closed) {
      for (const b of closed) {
        if (a.owner === b.owner) continue;
        expect(a.to <= b.from || b.to <= a.from, `loops ${a.owner} and ${b.owner} held the request at once`).to.equal(true);
      }
    }

    await proxy.setMode({ kind: "pass" });
    await waitFor(
      async () => {
        await loops[0]!.tick();
        const request = await store.getRequest(canonicalAddress(intent.requestId.toLowerCase()));
        return request?.status === "success";
      },
      60_000,
      "success once the RPC answers",
    );
    expect(await filledLogs(env, intent.requestId)).to.have.length(1);
  });
});

// What crediting a deposit reads (ts/service/solver/indexer/recordDeposits.ts): what its orderId names —
// a funding order, else its quote and the order's request (by its orderId, else by its requestId) — in
// one statement (`getDepositOrder`). First the two request lookups were separate reads, both run for
// every new deposit (its request did not exist yet); then the funding order, the quote and the request
// were still three: two store queries per intent more at 200 users than one (issue 26). The orders of a
// range's deposits are read in one statement.
import { expect } from "chai";
import { createChainClients } from "../../../../ts/service/chains/chainClients.ts";
import { SILENT_LOG } from "../../../../ts/service/logging/logger.ts";
import { DEFAULT_INDEX_OPTIONS, indexDeposits } from "../../../../ts/service/solver/indexer/indexDeposits.ts";
import { createStore, type Store } from "../../../../ts/service/store/createStore.ts";
import { deposit, makeIntent, saveQuote, useTwoChainsAndStore, type TwoChains } from "../twoChains.ts";

/** The store with every repository call counted by name, those made inside its transactions too. */
function countingInTransactions(store: Store): { store: Store; calls: string[] } {
  const calls: string[] = [];
  const count = <T extends object>(target: T): T =>
    new Proxy(target, {
      get(t, key, receiver) {
        const value = Reflect.get(t, key, receiver);
        if (typeof value !== "function") return value;
        return (...args: unknown[]) => {
          calls.push(String(key));
          return value.apply(t, args);
        };
      },
    });
  const counted: Store = { ...store, transaction: (run) => store.transaction((tx) => run(count(tx))) };
  return { store: counted, calls };
}

describe("indexer: what crediting a deposit reads", function () {
  this.timeout(300_000);
  let env: TwoChains;
  let store: Store;

  useTwoChainsAndStore((made) => ({ env, store } = made));

  it("aNewDeposit_readsItsOrder_quoteAndRequestInOneStatement", async () => {
    const { store: counted, calls } = countingInTransactions(store);
    const client = createChainClients(env.config.chains, { headMaxAgeMs: 0 }).get(env.origin.chainId);
    const step = () => indexDeposits({ store: counted, client, chains: env.config.chains, log: SILENT_LOG }, DEFAULT_INDEX_OPTIONS);
    await step(); // catches up with the chain
    const intent = makeIntent(env);
    await saveQuote(store, intent);
    await deposit(env, { orderId: intent.orderId, amount: BigInt(intent.originAmount) });
    await env.origin.testClient.mine({ blocks: 1 }); // the devnet's confirmations: 1
    calls.length = 0;
    expect((await step()).map((o) => o.outcome)).to.deep.equal(["credited"]);
    const reads = calls.filter((c) => c.startsWith("get") || c.startsWith("list"));
    expect(reads, JSON.stringify(calls)).to.deep.equal(["getDepositOrder"]);
    expect((await store.getRequest(intent.requestId))?.status).to.equal("pending");
  });

  it("aRangeOfDeposits_readsTheirOrdersInOneStatement_andReadsAnOrderAgainOnlyForItsSecondDeposit", async () => {
    const { store: counted, calls } = countingInTransactions(store);
    const client = createChainClients(env.config.chains, { headMaxAgeMs: 0 }).get(env.origin.chainId);
    const step = () => indexDeposits({ store: counted, client, chains: env.config.chains, log: SILENT_LOG }, DEFAULT_INDEX_OPTIONS);
    await step();
    const [a, b, c] = [makeIntent(env), makeIntent(env), makeIntent(env)];
    for (const intent of [a, b, c]) await saveQuote(store, intent);
    for (const intent of [a, b, a, c, b]) await deposit(env, { orderId: intent.orderId, amount: BigInt(intent.originAmount) });
    await env.origin.testClient.mine({ blocks: 1 });
    calls.length = 0;
    const outcomes = await step();
    expect(outcomes.map((o) => [o.orderId, o.outcome])).to.deep.equal([
      [a.orderId, "credited"],
      [b.orderId, "credited"],
      [a.orderId, "extra"], // a's second deposit: read again, after the first credited a
      [c.orderId, "credited"],
      [b.orderId, "extra"],
    ]);
    const reads = calls.filter((call) => call.startsWith("get") || call.startsWith("list"));
    // The two double spends are read again (and each recorded as a stray, which reads where stray tracking starts).
    expect(reads, JSON.stringify(calls)).to.deep.equal(["getDepositOrders", "getDepositOrder", "getStrayTrackingStart", "getDepositOrder", "getStrayTrackingStart"]);
  });
});

// The indexer's step at a head it already read everything final at (ts/service/solver/indexer/indexDeposits.ts):
// it touches the store no more — the checkpoint read alone was 11.8 store queries per intent at 200 users —
// and once a block is mined it reads on and credits what arrived, exactly as before.
import { expect } from "chai";
import { createChainClients } from "../../../../ts/service/chains/chainClients.ts";
import { SILENT_LOG } from "../../../../ts/service/logging/logger.ts";
import { DEFAULT_INDEX_OPTIONS, indexDeposits } from "../../../../ts/service/solver/indexer/indexDeposits.ts";
import { createStore, type Store } from "../../../../ts/service/store/createStore.ts";
import { deposit, makeIntent, saveQuote, useTwoChainsAndStore, type TwoChains } from "../twoChains.ts";
import { countingStore } from "../solverHelpers.ts";

describe("indexer: a step at a head already read", function () {
  this.timeout(300_000);
  let env: TwoChains;
  let store: Store;

  useTwoChainsAndStore((made) => ({ env, store } = made));

  it("readsNothingFromTheStore_untilTheHeadMoves_thenCreditsTheNewDeposit", async () => {
    // Every store call the indexer makes, counted by name.
    const { store: counted, calls } = countingStore(store);
    const client = createChainClients(env.config.chains, { headMaxAgeMs: 0 }).get(env.origin.chainId);
    const step = () => indexDeposits({ store: counted, client, chains: env.config.chains, log: SILENT_LOG }, DEFAULT_INDEX_OPTIONS);

    await step(); // catches up with the chain
    calls.length = 0;
    for (let i = 0; i < 5; i++) await step();
    expect(calls, "steps at the same head").to.deep.equal([]);

    // A deposit mines a block: the next step reads on and credits it.
    const intent = makeIntent(env);
    await saveQuote(store, intent);
    await deposit(env, { orderId: intent.orderId, amount: BigInt(intent.originAmount) });
    await env.origin.testClient.mine({ blocks: 1 }); // the devnet's confirmations: 1
    const outcomes = await step();
    expect(outcomes.map((o) => o.outcome)).to.deep.equal(["credited"]);
    expect(calls).to.include("getIndexerCheckpoint");
    expect((await store.getRequest(intent.requestId))?.status).to.equal("pending");
  });
});

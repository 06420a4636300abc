// The indexer is woken by its chain's new heads (ts/service/solver/startSolver.ts): on a chain whose
// heads are pushed (Anvil's newHeads over a websocket), a deposit is credited as soon as its block is
// pushed, not at the indexer's next timed pass. Here the timed passes are a minute apart, so only the
// wake-up can credit the deposit within seconds.
import { expect } from "chai";
import { SILENT_LOG } from "../../../../ts/service/logging/logger.ts";
import { startSolver, type RunningSolver } from "../../../../ts/service/solver/startSolver.ts";
import { createStore, type Store } from "../../../../ts/service/store/createStore.ts";
import { deposit, makeIntent, saveQuote, startTwoChains, type TwoChains } from "../twoChains.ts";

describe("indexer: woken by each new head of its chain", function () {
  this.timeout(300_000);
  let env: TwoChains;
  let store: Store;
  let running: RunningSolver | undefined;

  before(async function () {
    this.timeout(240_000);
    env = await startTwoChains({ node: { kind: "anvil" } });
    store = await createStore();
  });
  after(async () => {
    await running?.stop();
    await store?.close();
    await env?.close();
  });

  it("aDepositsBlockPushed_isCreditedWithinSeconds_withTimedPassesAMinuteApart", async () => {
    expect(env.config.chains.every((c) => c.wsRpcUrl), "the chains push their heads").to.equal(true);
    running = startSolver({ config: env.config, store, log: SILENT_LOG, pollIntervalMs: 60_000 });
    await new Promise((resolve) => setTimeout(resolve, 1_000)); // the loops' first passes
    const intent = makeIntent(env);
    await saveQuote(store, intent);
    await deposit(env, { orderId: intent.orderId, amount: BigInt(intent.originAmount) }); // mined in its own block (automine)
    const deadline = Date.now() + 10_000;
    let status: string | undefined;
    while (Date.now() < deadline) {
      status = (await store.getRequest(intent.requestId))?.status;
      if (status !== undefined) break;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(status, "credited before the next timed pass").to.be.oneOf(["pending", "submitted", "success"]);
  });
});

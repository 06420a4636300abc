// Log scans against a provider that refuses ranges over 500 blocks (a real proxy answering Alchemy's
// error): the indexer still credits a deposit 3,000 blocks past its checkpoint, halving its pieces; the
// Filled lookup reads backwards in bounded pieces and stops at its time bound instead of reading from
// the deployment block to the head.
import { expect } from "chai";
import { createChainClients } from "../../../../ts/service/chains/chainClients.ts";
import { findFillTx, fillNotBefore } from "../../../../ts/service/solver/chainReads.ts";
import { createSolver } from "../../../../ts/service/solver/startSolver.ts";
import { createStore, type Store } from "../../../../ts/service/store/createStore.ts";
import { startChainProxy, type ChainProxy } from "../../../faults/chainProxy.ts";
import { filledLogs, tickUntil } from "../solverHelpers.ts";
import { chainNow, deposit, freshId, makeIntent, saveQuote, startTwoChains, type TwoChains } from "../twoChains.ts";

const LIMIT = 500;

describe("log scans on a provider with a range limit", function () {
  this.timeout(300_000);
  let env: TwoChains;
  let store: Store;
  let origin: ChainProxy;
  let destination: ChainProxy;

  before(async () => {
    env = await startTwoChains();
    origin = await startChainProxy(env.origin.rpcUrl);
    destination = await startChainProxy(env.destination.rpcUrl);
    origin.maxLogRange = LIMIT;
    destination.maxLogRange = LIMIT;
    store = await createStore();
  });
  after(async () => {
    await origin?.close();
    await destination?.close();
    await store?.close();
    await env?.close();
  });

  const proxied = () => ({
    ...env.config,
    chains: env.config.chains.map((c) => {
      const url = c.id === env.origin.chainId ? origin.url : destination.url;
      return { ...c, rpcUrl: url, rpcUrls: [url] };
    }),
  });

  it("indexer_creditsADepositThousandsOfBlocksOn_readingInPiecesTheProviderAccepts", async () => {
    const solver = createSolver({ config: proxied(), store });
    await tickUntil(solver, store, freshId(), () => false, 1).catch(() => {});
    await env.origin.testClient.mine({ blocks: 3_000 });
    const intent = makeIntent(env);
    await saveQuote(store, intent);
    await deposit(env, { orderId: intent.orderId, amount: intent.originAmount });
    origin.logRanges.length = 0;
    await tickUntil(solver, store, intent.requestId, (r) => r.status === "success", 20);
    expect(await filledLogs(env, intent.requestId)).to.have.length(1);
    const refused = origin.logRanges.filter(([from, to]) => to - from + 1n > BigInt(LIMIT));
    const accepted = origin.logRanges.filter(([from, to]) => to - from + 1n <= BigInt(LIMIT));
    expect(refused.length, "a refused range is halved, not retried as is").to.be.at.most(2);
    expect(accepted.length).to.be.greaterThan(5);
  });

  it("findFillTx_readsBackwardsInBoundedPieces_andStopsAtItsTimeBound", async () => {
    const intent = makeIntent(env);
    await saveQuote(store, intent);
    await deposit(env, { orderId: intent.orderId, amount: intent.originAmount });
    await tickUntil(createSolver({ config: proxied(), store }), store, intent.requestId, (r) => r.status === "success", 20);
    await env.destination.testClient.mine({ blocks: 2_000 });
    const client = createChainClients(proxied().chains).get(env.destination.chainId);
    destination.logRanges.length = 0;
    const found = await findFillTx(client, intent.requestId, fillNotBefore(intent));
    expect(found).to.equal((await filledLogs(env, intent.requestId))[0]!.transactionHash);
    const head = await env.destination.publicClient.getBlockNumber();
    for (const [from, to] of destination.logRanges.filter(([f, t]) => t - f + 1n <= BigInt(LIMIT))) expect(to <= head && from >= 0n).to.equal(true);

    // Nothing to find, and blocks older than the bound: the scan stops at the bound, far from block 0.
    await env.destination.testClient.increaseTime({ seconds: 3 * 86_400 });
    await env.destination.testClient.mine({ blocks: 1_200 });
    destination.logRanges.length = 0;
    const now = await chainNow(env.destination);
    expect(await findFillTx(client, freshId(), now - 60 + 3_600)).to.equal(null);
    const lowest = destination.logRanges.reduce((min, [from]) => (from < min ? from : min), head + 10_000n);
    const newHead = await env.destination.publicClient.getBlockNumber();
    expect(newHead - lowest < 2_000n, `scanned down to block ${lowest} of ${newHead}`).to.equal(true);
  });
});

// A request waiting for its block — a fill sent and not mined, a repayment sent and not mined — costs
// nothing while no block comes: the solver's loop steps it again only once the head of the chain it
// waits on has moved past what its last step saw (or after the fallback time, for a head that never
// moves), and the block that comes completes it at once. Two real EDR chains with their mining turned
// off by hand, a real store (PGlite), the solver's own loops (`startSolver`, not `tick()`), the RPC
// calls counted by a proxy in front of the chain the request waits on and the steps by the request reads the
// loop takes. Before this, such a request was stepped again as soon as its step ended — hundreds of
// steps and RPC calls per block at 12 s blocks (docs/performance.md, "Cost per intent").
import { expect } from "chai";
import { startSolver, type RunningSolver } from "../../../ts/service/solver/startSolver.ts";
import { createStore, type Store } from "../../../ts/service/store/createStore.ts";
import type { StoredRequest } from "../../../ts/service/model/storedRequest.ts";
import { canonicalAddress } from "../../../ts/service/model/values.ts";
import { startRpcCounter, type RpcCounter } from "../../../scripts/bench/rpcCounter.ts";
import { createChainClients } from "../../../ts/service/chains/chainClients.ts";
import { requireAccount, resolveAccounts } from "../../../ts/service/chains/serviceAccounts.ts";
import { filledLogs, stepReadsOf, waitFor } from "./solverHelpers.ts";
import { deposit, makeIntent, saveQuote, startTwoChains, type TwoChains } from "./twoChains.ts";

/** What following a transaction's nonce costs per step (../../../ts/service/transactions/nonceManager.ts). */
const FOLLOW_METHODS = ["eth_getTransactionReceipt", "eth_getTransactionByHash", "eth_getTransactionCount"];
const POLL_MS = 50;
const QUIET_MS = 1_500;

describe("solver: a request waiting for its block", function () {
  this.timeout(300_000);
  let env: TwoChains;
  let store: Store;
  let counter: RpcCounter;
  let solver: RunningSolver | undefined;

  before(async () => {
    env = await startTwoChains();
  });
  after(async () => {
    await env?.close();
  });
  beforeEach(async () => {
    store = await createStore();
  });
  afterEach(async () => {
    await solver?.stop();
    solver = undefined;
    await counter?.close();
    await env.origin.testClient.setAutomine(true);
    await env.destination.testClient.setAutomine(true);
    await store.close();
  });

  /** The solver's loops, `chainId`'s RPC behind the counting proxy; `steps()` counts the steps of `requestId` (each reads it once). */
  async function runSolver(chainId: number, requestId: string, options: { blockWaitMaxMs?: number } = {}) {
    const chain = chainId === env.origin.chainId ? env.origin : env.destination;
    counter = await startRpcCounter(chain.rpcUrl);
    const chains = env.config.chains.map((c) => (c.id === chainId ? { ...c, rpcUrl: counter.url, rpcUrls: [counter.url] } : c));
    let steps = 0;
    const counting: Store = stepReadsOf(store, (id) => {
      if (id === requestId.toLowerCase()) steps += 1;
    });
    solver = startSolver({ config: { ...env.config, chains }, store: counting, pollIntervalMs: POLL_MS, ...options });
    return { steps: () => steps };
  }

  const read = (requestId: string) => store.getRequest(canonicalAddress(requestId.toLowerCase()));
  const until = (requestId: string, done: (r: StoredRequest) => boolean, what: string, ms = 30_000) =>
    waitFor(async () => {
      const request = await read(requestId);
      return request && done(request) ? request : undefined;
    }, ms, what);
  const followCalls = () => FOLLOW_METHODS.reduce((sum, method) => sum + (counter.counts().get(method) ?? 0), 0);
  const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

  /** Steps and nonce-following RPC calls of `QUIET_MS` with no block mined, once the waiting step has ended. */
  async function quietCost(steps: () => number) {
    await sleep(300);
    counter.reset();
    const stepsBefore = steps();
    await sleep(QUIET_MS);
    return { steps: steps() - stepsBefore, rpc: followCalls(), byMethod: Object.fromEntries(counter.counts()) };
  }

  it("fillSentNotMined_isNotSteppedUntilABlockIsMined_thenSucceedsAtOnce", async () => {
    const intent = makeIntent(env);
    await saveQuote(store, intent);
    await deposit(env, { orderId: intent.orderId, amount: intent.originAmount });
    await env.destination.testClient.setAutomine(false);
    const { steps } = await runSolver(env.destination.chainId, intent.requestId);

    await until(intent.requestId, (r) => r.status === "submitted", "the fill sent");
    const quiet = await quietCost(steps);
    // Before: stepped again as soon as each step ended — dozens of steps and ~3 RPC calls each in 1.5 s.
    expect(quiet.steps, `steps while no block came: ${JSON.stringify(quiet)}`).to.equal(0);
    expect(quiet.rpc, `nonce-following calls while no block came: ${JSON.stringify(quiet)}`).to.equal(0);

    await env.destination.testClient.mine({ blocks: 1 });
    const mined = Date.now();
    const done = await until(intent.requestId, (r) => r.status === "success", "the fill confirmed");
    expect(Date.now() - mined, "success once the block came").to.be.below(2_000);
    expect(await filledLogs(env, intent.requestId)).to.have.length(1);
    await until(done.id, (r) => r.solver?.repayment?.status === "confirmed", "the repayment confirmed");
  });

  it("repaymentSentNotMined_isNotSteppedUntilABlockIsMined_thenConfirmsAtOnce", async () => {
    const intent = makeIntent(env);
    await saveQuote(store, intent);
    await deposit(env, { orderId: intent.orderId, amount: intent.originAmount });
    // The deposit's block is the head (final at the devnet's 1 confirmation); the repayment is sent into a chain that mines nothing.
    await env.origin.testClient.setAutomine(false);
    const { steps } = await runSolver(env.origin.chainId, intent.requestId);

    await until(intent.requestId, (r) => r.solver?.repayment?.status === "sent", "the repayment sent");
    const quiet = await quietCost(steps);
    expect(quiet.steps, `steps while no block came: ${JSON.stringify(quiet)}`).to.equal(0);
    expect(quiet.rpc, `nonce-following calls while no block came: ${JSON.stringify(quiet)}`).to.equal(0);

    await env.origin.testClient.mine({ blocks: 1 });
    const mined = Date.now();
    await until(intent.requestId, (r) => r.solver?.repayment?.status === "confirmed", "the repayment confirmed");
    expect(Date.now() - mined, "confirmed once the block came").to.be.below(2_000);
  });

  it("aNewHeadOfItsChain_wakesTheWorkList_notAPollLater", async () => {
    const intent = makeIntent(env);
    await saveQuote(store, intent);
    await deposit(env, { orderId: intent.orderId, amount: intent.originAmount });
    await env.destination.testClient.setAutomine(false);
    // A poll interval far longer than the test: only a wake-up can step the request once its block is mined.
    const accounts = resolveAccounts(env.config);
    const clients = createChainClients(env.config.chains, { solver: requireAccount(accounts, "solver"), attester: requireAccount(accounts, "attester"), headMaxAgeMs: 0 });
    try {
      solver = startSolver({ config: env.config, store, pollIntervalMs: 60_000, clients });
      await until(intent.requestId, (r) => r.status === "submitted", "the fill sent");
      await sleep(300);
      await env.destination.testClient.mine({ blocks: 1 });
      const mined = Date.now();
      // A reader of the process sees the new head (the chain watch, a quote, the indexer; pushed where the chain has a websocket).
      await clients.get(env.destination.chainId).head.latest();
      await until(intent.requestId, (r) => r.status === "success", "the fill confirmed", 10_000);
      expect(Date.now() - mined).to.be.below(2_000);
    } finally {
      await solver?.stop();
      solver = undefined;
      clients.close();
    }
  });

  it("headThatNeverMoves_requestSteppedAgainAfterTheFallbackTime", async () => {
    const intent = makeIntent(env);
    await saveQuote(store, intent);
    await deposit(env, { orderId: intent.orderId, amount: intent.originAmount });
    await env.destination.testClient.setAutomine(false);
    const { steps } = await runSolver(env.destination.chainId, intent.requestId, { blockWaitMaxMs: 400 });

    await until(intent.requestId, (r) => r.status === "submitted", "the fill sent");
    const quiet = await quietCost(steps);
    // 1.5 s at one step per 400 ms (and a poll): a stuck head or a missed notification strands nothing.
    expect(quiet.steps, JSON.stringify(quiet)).to.be.within(2, 5);
    expect((await read(intent.requestId))!.status).to.equal("submitted");

    await env.destination.testClient.mine({ blocks: 1 });
    await until(intent.requestId, (r) => r.status === "success", "the fill confirmed");
  });
});

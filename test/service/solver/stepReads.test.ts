// What a solver step reads before it acts (ts/service/solver/solverStep.ts): the request and the chains
// halted after a deep reorg, in one statement (`store.getStepRequest`), and the payout step takes the
// halted chains from there instead of reading them again. Before, every step read the request and the
// halted chains separately and a payout step read the halted chains once more: three store round
// trips per repayment step where one does (issue 26: store queries per intent). The deep-reorg tests
// (deepReorg.test.ts) hold that a halted chain's requests are still left alone.
import { expect } from "chai";
import { createSolver } from "../../../ts/service/solver/startSolver.ts";
import { createStore, type Store } from "../../../ts/service/store/createStore.ts";
import { canonicalHex } from "../../../ts/service/model/values.ts";
import { countingStore, tickUntil } from "./solverHelpers.ts";
import { deposit, makeIntent, saveQuote, startTwoChains, type TwoChains } from "./twoChains.ts";
import { startRpcCounter } from "../../../scripts/bench/rpcCounter.ts";
import { toFunctionSelector } from "viem";
import { attestedReceiverAbi } from "../../../ts/abi/AttestedReceiver.ts";

describe("solver: a step's first reads", function () {
  this.timeout(300_000);
  let env: TwoChains;
  let store: Store;

  before(async () => {
    env = await startTwoChains();
    store = await createStore();
  });
  after(async () => {
    await store?.close();
    await env?.close();
  });

  it("eachStep_readsTheRequestAndTheHaltedChainsOnce_fromDepositToConfirmedRepayment", async () => {
    const { store: counted, calls } = countingStore(store);
    const intent = makeIntent(env);
    await saveQuote(store, intent);
    await deposit(env, { orderId: intent.orderId, amount: BigInt(intent.originAmount) });
    const solver = createSolver({ config: env.config, store: counted });
    const done = await tickUntil(solver, store, intent.requestId, (r) => r.status === "success" && r.solver?.repayment?.status === "confirmed");
    expect(done.solver?.repayment?.status).to.equal("confirmed");
    const count = (name: string) => calls.filter((c) => c === name).length;
    // One lease per step; the steps' reads before acting: the request and the halted chains.
    const steps = count("claimRequest");
    const reads = count("getStepRequest") + count("getRequest") + count("listHaltedChains");
    expect(steps, "steps").to.be.greaterThan(0);
    expect(reads, `${steps} steps read ${JSON.stringify({ getStepRequest: count("getStepRequest"), getRequest: count("getRequest"), listHaltedChains: count("listHaltedChains") })}`).to.equal(steps);
    expect((await store.getRequest(canonicalHex(intent.requestId)))?.status).to.equal("success");
  });

  it("aFillConfirmedInTheStep_isNotReadAgainForItsRepayment_oneFilledDigestReadPerIntent", async () => {
    // The repayment re-verifies a recorded fill before it pays (a success written without verifying
    // must not pay for a foreign fill); when the same step has just verified it, that is a second
    // receipt and filledDigest read of the same fill. Before: 2 filledDigest reads per intent; now 1.
    const counter = await startRpcCounter(env.destination.rpcUrl);
    try {
      const chains = env.config.chains.map((c) => (c.id === env.destination.chainId ? { ...c, rpcUrl: counter.url, rpcUrls: [counter.url] } : c));
      const intent = makeIntent(env);
      await saveQuote(store, intent);
      await deposit(env, { orderId: intent.orderId, amount: BigInt(intent.originAmount) });
      const solver = createSolver({ config: { ...env.config, chains }, store });
      const done = await tickUntil(solver, store, intent.requestId, (r) => r.status === "success" && r.solver?.repayment?.status === "confirmed");
      expect(done.solver?.fill?.status).to.equal("confirmed");
      const selector = toFunctionSelector(attestedReceiverAbi.find((item) => item.type === "function" && item.name === "filledDigest")!);
      expect(counter.contractCalls().get(`eth_call ${selector}`), JSON.stringify(Object.fromEntries(counter.contractCalls()))).to.equal(1);
    } finally {
      await counter.close();
    }
  });
});

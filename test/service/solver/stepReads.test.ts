// What a solver step reads before it acts (ts/service/solver/solverStep.ts): the request and the chains
// halted after a deep reorg — read by the work list's statement that took the step's lease
// (`store.claimSolverWork`), or in one statement of its own (`store.getStepRequest`) when that lease is
// no longer fresh — and the payout step takes the halted chains from there instead of reading them
// again. Before, every step read the request and the halted chains separately and a payout step read
// the halted chains once more: three store round trips per repayment step where none does now (issue
// 26: store queries per intent). The deep-reorg tests (deepReorg.test.ts) hold that a halted chain's
// requests are still left alone.
import { expect } from "chai";
import { createSolver } from "../../../ts/service/solver/startSolver.ts";
import { createStore, type Store } from "../../../ts/service/store/createStore.ts";
import { canonicalHex } from "../../../ts/service/model/values.ts";
import { countingStore, tickUntil } from "./solverHelpers.ts";
import { deposit, makeIntent, saveQuote, useTwoChainsAndStore, type TwoChains } from "./twoChains.ts";
import { startRpcCounter } from "../../../scripts/bench/rpcCounter.ts";
import { hardhatTestAccount } from "../../../ts/devnet/devnetAccounts.ts";
import { signedFillDigest } from "../../../ts/service/solver/fill/verifyOnchainFill.ts";
import { toFunctionSelector } from "viem";
import { attestedReceiverAbi } from "../../../ts/abi/AttestedReceiver.ts";
import { depositoryAbi } from "../../../ts/abi/Depository.ts";

describe("solver: a step's first reads", function () {
  this.timeout(300_000);
  let env: TwoChains;
  let store: Store;

  useTwoChainsAndStore((made) => ({ env, store } = made));

  it("eachStep_readsTheRequestAndTheHaltedChainsOnce_fromDepositToConfirmedRepayment", async () => {
    const { store: counted, calls } = countingStore(store);
    const intent = makeIntent(env);
    await saveQuote(store, intent);
    await deposit(env, { orderId: intent.orderId, amount: BigInt(intent.originAmount) });
    const solver = createSolver({ config: env.config, store: counted });
    const done = await tickUntil(solver, store, intent.requestId, (r) => r.status === "success" && r.solver?.repayment?.status === "confirmed");
    expect(done.solver?.repayment?.status).to.equal("confirmed");
    const count = (name: string) => calls.filter((c) => c === name).length;
    // One lease per step (taken with the work list, tick() steps every request it got); the steps'
    // reads before acting: the request and the halted chains.
    const steps = count("claimedWork");
    const reads = count("listedRead") + count("getStepRequest") + count("getRequest") + count("listHaltedChains");
    const seen = JSON.stringify({ listedRead: count("listedRead"), getStepRequest: count("getStepRequest"), getRequest: count("getRequest"), listHaltedChains: count("listHaltedChains") });
    expect(steps, "steps").to.be.greaterThan(0);
    expect(reads, `${steps} steps read ${seen}`).to.equal(steps);
    // Each step started within a third of the lease the listing took: it read nothing itself.
    expect(count("listedRead"), `${steps} steps read ${seen}`).to.equal(steps);
    expect((await store.getRequest(canonicalHex(intent.requestId)))?.status).to.equal("success");
  });

  it("aVerifiedSuccess_plansItsRepaymentInTheSameWrite_noPatchOfItsOwnBeforeItIsSigned", async () => {
    // Batching off (the default): the repayment is planned by the write that records the success, and
    // is still stored before anything is signed. Before, its plan was a patch of its own.
    const writes: Array<{ kind: string; status?: string; repayment?: string }> = [];
    const recording: Store = {
      ...store,
      transitionRequest: async (id, to, patch) => {
        writes.push({ kind: "transition", status: to, ...(patch?.solver?.repayment && { repayment: patch.solver.repayment.status }) });
        return store.transitionRequest(id, to, patch);
      },
      patchRequest: async (id, patch) => {
        writes.push({ kind: "patch", ...(patch.solver?.repayment && { repayment: patch.solver.repayment.status }) });
        return store.patchRequest(id, patch);
      },
    };
    const intent = makeIntent(env);
    await saveQuote(store, intent);
    await deposit(env, { orderId: intent.orderId, amount: BigInt(intent.originAmount) });
    const solver = createSolver({ config: env.config, store: recording });
    const done = await tickUntil(solver, store, intent.requestId, (r) => r.status === "success" && r.solver?.repayment?.status === "confirmed");
    expect(done.solver?.repayment?.nonce).to.be.a("bigint");
    const seen = JSON.stringify(writes);
    expect(writes.filter((w) => w.kind === "transition" && w.status === "success"), seen).to.deep.equal([{ kind: "transition", status: "success", repayment: "prepared" }]);
    expect(writes.filter((w) => w.repayment === "prepared"), seen).to.have.length(1);
    // Confirmed: the repayment's only patch of its own here (its hash and nonce, `sent`, are recorded by
    // the nonce's store transaction before the broadcast, through that transaction's repositories).
    expect(writes.filter((w) => w.kind === "patch").map((w) => w.repayment), seen).to.deep.equal(["confirmed"]);
  });

  it("aFillConfirmedInTheStep_isNotReadAgainForItsRepayment_norItsDigestReadBack", async () => {
    // The repayment re-verifies a recorded fill before it pays (a success written without verifying
    // must not pay for a foreign fill); when the same step has just verified it, that is a second
    // receipt and filledDigest read of the same fill: 2 filledDigest reads per intent, then 1. And the
    // fill the service sent and saw succeed recorded the digest of the attestation it carried, which
    // the request stored with it: not read back either (verifyOnchainFill.ts) — 0.
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
      expect(counter.contractCalls().get(`eth_call ${selector}`) ?? 0, JSON.stringify(Object.fromEntries(counter.contractCalls()))).to.equal(0);
      expect(done.solver?.fill?.digest, "the digest recorded is the signed one").to.equal(signedFillDigest(intent, env.config.chains.find((c) => c.id === env.destination.chainId)!.contracts.attestedReceiver));
    } finally {
      await counter.close();
    }
  });

  const executedSelector = toFunctionSelector(depositoryAbi.find((item) => item.type === "function" && item.name === "executed")!);

  it("aPayoutNeverSent_isNotAskedWhetherItWasExecuted_beforeItsFirstSend", async () => {
    // Its hash is recorded before any broadcast, so a payout without one was never sent by the service;
    // before, every payout read the Depository's executed(nonce) before its first send.
    const counter = await startRpcCounter(env.origin.rpcUrl);
    try {
      const chains = env.config.chains.map((c) => (c.id === env.origin.chainId ? { ...c, rpcUrl: counter.url, rpcUrls: [counter.url] } : c));
      const intent = makeIntent(env);
      await saveQuote(store, intent);
      await deposit(env, { orderId: intent.orderId, amount: BigInt(intent.originAmount) });
      counter.reset();
      const solver = createSolver({ config: { ...env.config, chains }, store });
      await tickUntil(solver, store, intent.requestId, (r) => r.solver?.repayment?.status === "confirmed");
      expect(counter.contractCalls().get(`eth_call ${executedSelector}`) ?? 0, JSON.stringify(Object.fromEntries(counter.contractCalls()))).to.equal(0);
    } finally {
      await counter.close();
    }
  });

  it("aPayoutExecutedThoughItsRecordHasNoHash_isFoundByItsSimulation_andRecordedWithoutPayingTwice", async () => {
    // A record restored from before its send: the payout landed, the record says `prepared` with no hash.
    const intent = makeIntent(env);
    await saveQuote(store, intent);
    await deposit(env, { orderId: intent.orderId, amount: BigInt(intent.originAmount) });
    const solver = createSolver({ config: env.config, store });
    const repaid = await tickUntil(solver, store, intent.requestId, (r) => r.solver?.repayment?.status === "confirmed");
    const landed = repaid.solver!.repayment!;
    const { hash: _hash, txNonce: _txNonce, block: _block, ...unsent } = landed;
    await store.patchRequest(repaid.id, { solver: { repayment: { ...unsent, status: "prepared" } } });
    const sentBefore = await env.origin.publicClient.getTransactionCount({ address: env.solver });
    const again = await tickUntil(solver, store, intent.requestId, (r) => r.solver?.repayment?.status === "confirmed");
    expect(again.solver!.repayment!.hash, "the landed transaction, found").to.equal(landed.hash);
    expect(await env.origin.publicClient.getTransactionCount({ address: env.solver }), "nothing sent again").to.equal(sentBefore);
  });

  it("aFillAndItsRepayment_areNotReadBack_norTheFillLookedForFirst_theirEntriesAreTheCallsAsSent", async () => {
    // The fill's and the payout's outTxs entries (sender, call, value) came from eth_getTransactionByHash
    // of a transaction the service itself stored and sent: one read per fill and one per payout. The
    // nonce manager's `follow` now hands back the mined attempt as stored.
    const counters = { origin: await startRpcCounter(env.origin.rpcUrl), destination: await startRpcCounter(env.destination.rpcUrl) };
    try {
      const chains = env.config.chains.map((c) => {
        const counter = c.id === env.origin.chainId ? counters.origin : counters.destination;
        return { ...c, rpcUrl: counter.url, rpcUrls: [counter.url] };
      });
      const intent = makeIntent(env);
      await saveQuote(store, intent);
      await deposit(env, { orderId: intent.orderId, amount: BigInt(intent.originAmount) });
      const solver = createSolver({ config: { ...env.config, chains }, store });
      const done = await tickUntil(solver, store, intent.requestId, (r) => r.solver?.repayment?.status === "confirmed");
      expect(counters.destination.counts().get("eth_getTransactionByHash") ?? 0, "the fill, read back").to.equal(0);
      // Nor asked whether it was filled before the fill: its simulation says so when it is (fillPending.ts).
      const filledSelector = toFunctionSelector(attestedReceiverAbi.find((item) => item.type === "function" && item.name === "filled")!);
      expect(counters.destination.contractCalls().get(`eth_call ${filledSelector}`) ?? 0, "filled(requestId) reads").to.equal(0);
      // The deposit's transaction is the user's: the indexer reads it (its sender and input are its facts).
      expect(counters.origin.counts().get("eth_getTransactionByHash") ?? 0, "the deposit only, not the payout").to.equal(1);
      const fill = await env.destination.publicClient.getTransaction({ hash: done.solver!.fill!.hash! });
      expect(done.data.outTxs?.[0]?.data, "the fill's entry is the chain's transaction").to.deep.equal({ from: fill.from.toLowerCase(), to: fill.to!.toLowerCase(), input: fill.input.toLowerCase(), value: fill.value.toString() });
    } finally {
      await counters.origin.close();
      await counters.destination.close();
    }
  });

  it("fillsCheckedAtOneHead_readTheSolversBalanceOnce", async () => {
    // Each fill's checks read the solver's balance (eth_getBalance per fill at 200 users); at one head
    // block the answer is the same for all of them, and the fills in flight are held apart by the
    // reservations. Two deposits in one block, the destination not mining until both fills are sent.
    const counter = await startRpcCounter(env.destination.rpcUrl);
    const intents = [11, 12].map((n) => {
      const user = hardhatTestAccount(n);
      return { asUser: { ...env, user: { address: user.address, privateKey: user.privateKey } }, intent: makeIntent({ ...env, user: { address: user.address, privateKey: user.privateKey } }) };
    });
    try {
      const chains = env.config.chains.map((c) => (c.id === env.destination.chainId ? { ...c, rpcUrl: counter.url, rpcUrls: [counter.url] } : c));
      await env.origin.testClient.setAutomine(false);
      try {
        for (const { asUser, intent } of intents) {
          await saveQuote(store, intent);
          await deposit(asUser, { orderId: intent.orderId, amount: BigInt(intent.originAmount), wait: false });
        }
        await env.origin.testClient.mine({ blocks: 1 });
      } finally {
        await env.origin.testClient.setAutomine(true);
      }
      await env.destination.testClient.setAutomine(false);
      const solver = createSolver({ config: { ...env.config, chains }, store });
      try {
        for (const { intent } of intents) await tickUntil(solver, store, intent.requestId, (r) => r.status === "submitted");
        expect(counter.counts().get("eth_getBalance") ?? 0, "the solver's balance, read at the one head").to.equal(1);
      } finally {
        await env.destination.testClient.setAutomine(true);
        await env.destination.testClient.mine({ blocks: 1 });
      }
      for (const { intent } of intents) expect((await tickUntil(solver, store, intent.requestId, (r) => r.status === "success")).status).to.equal("success");
    } finally {
      await counter.close();
    }
  });
});

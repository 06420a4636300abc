// The solver end to end on two real EDR chains and a real store (PGlite): deposits are indexed,
// filled through the AttestedReceiver, repaid through Depository.execute; every fill check's
// failure ends refunded; restarts resume; concurrent loops fill once.
import { expect } from "chai";
import { parseEther, parseUnits, type Address, type Hex } from "viem";
import { generatePrivateKey } from "viem/accounts";
import { depositoryAbi } from "../../../ts/abi/Depository.ts";
import { createStore, type Store } from "../../../ts/service/store/createStore.ts";
import { createSolver } from "../../../ts/service/solver/startSolver.ts";
import type { Payout } from "../../../ts/service/model/payout.ts";
import { chainNow, deposit, freshAddress, makeIntent, NATIVE, saveQuote, startTwoChains, tokenBalance, type TwoChains } from "./twoChains.ts";
import { depository, filledLogs, tickUntil } from "./solverHelpers.ts";
import { canonicalAddress } from "../../../ts/service/model/values.ts";

describe("solver", function () {
  this.timeout(300_000);
  let env: TwoChains;
  let store: Store;

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
    await store.close();
  });

  const newSolver = (overrides: Partial<Parameters<typeof createSolver>[0]> = {}) => createSolver({ config: env.config, store, ...overrides });

  async function executedPayout(payout: Payout): Promise<boolean> {
    const chain = payout.chainId === env.origin.chainId ? env.origin : env.destination;
    return chain.publicClient.readContract({ address: depository(env, chain), abi: depositoryAbi, functionName: "executed", args: [BigInt(payout.nonce)] });
  }

  it("fill_nativeDeposit_reachesSuccessWithOneFillAndTheRepayment", async () => {
    const intent = makeIntent(env);
    await saveQuote(store, intent);
    const solverBefore = await tokenBalance(env.origin, NATIVE, env.solver);
    const txHash = await deposit(env, { orderId: intent.orderId, amount: BigInt(intent.originAmount) });
    const solver = newSolver();

    const done = await tickUntil(solver, store, intent.requestId, (r) => r.status === "success" && r.solver?.repayment?.status === "confirmed");
    expect(done.inTxHashes).to.deep.equal([txHash.toLowerCase()]);
    expect(done.txHashes).to.have.length(1);
    expect(await filledLogs(env, intent.requestId)).to.have.length(1);
    expect(await tokenBalance(env.destination, NATIVE, intent.recipient)).to.equal(BigInt(intent.destinationAmount));
    const data = done.data as Record<string, any>;
    expect(data.inTxs[0]).to.include({ hash: txHash.toLowerCase(), type: "onchain", chainId: env.origin.chainId, status: "success" });
    expect(BigInt(data.inTxs[0].fee) > 0n).to.equal(true);
    expect(data.outTxs[0]).to.include({ hash: done.txHashes[0], chainId: env.destination.chainId, status: "success" });
    expect(done.solver!.intent).to.deep.equal(intent);
    expect(done.solver!.deposit).to.include({ txHash: txHash.toLowerCase(), amount: intent.originAmount, token: NATIVE, chainId: env.origin.chainId });
    const repayment = done.solver!.repayment!;
    expect(repayment.calls).to.deep.equal([{ to: env.solver.toLowerCase(), token: NATIVE, amount: intent.originAmount }]);
    expect(await executedPayout(repayment)).to.equal(true);
    // The solver got the deposit back on the origin chain (minus the gas of the execute it sent).
    const solverAfter = await tokenBalance(env.origin, NATIVE, env.solver);
    expect(solverAfter - solverBefore > BigInt(intent.originAmount) - parseEther("0.01")).to.equal(true);
    const events = (await store.requestEvents(intent.requestId)).map((e) => e.status);
    expect(events).to.deep.equal(["waiting", "pending", "submitted", "success"]);
  });

  it("fill_erc20DepositAboveTheQuote_paysTheRecipientAndReturnsTheExcessWithTheRepayment", async () => {
    const amount = parseUnits("100", 6);
    const intent = makeIntent(env, {
      originCurrency: canonicalAddress(env.stablecoin),
      originAmount: amount,
      destinationCurrency: canonicalAddress(env.stablecoin),
      destinationAmount: parseUnits("99", 6),
    });
    await saveQuote(store, intent);
    await deposit(env, { orderId: intent.orderId, token: env.stablecoin, amount: amount + 5n });
    const done = await tickUntil(newSolver(), store, intent.requestId, (r) => r.solver?.repayment?.status === "confirmed");
    expect(done.status).to.equal("success");
    expect(await filledLogs(env, intent.requestId)).to.have.length(1);
    expect(await tokenBalance(env.destination, env.stablecoin, intent.recipient)).to.equal(parseUnits("99", 6));
    const repayment = done.solver!.repayment!;
    expect(repayment.calls).to.deep.equal([
      { to: env.solver.toLowerCase(), token: env.stablecoin.toLowerCase(), amount },
      { to: intent.refundTo, token: env.stablecoin.toLowerCase(), amount: 5n },
    ]);
    expect(await tokenBalance(env.origin, env.stablecoin, intent.refundTo)).to.equal(5n);
    expect(await executedPayout(repayment)).to.equal(true);
  });

  type Times = { origin: number; destination: number };
  const failures: { name: string; failReason: string; intent: (e: TwoChains, t: Times) => Parameters<typeof makeIntent>[1]; amount?: (i: ReturnType<typeof makeIntent>) => bigint }[] = [
    { name: "quoteExpiredBeforeTheDeposit", failReason: "ORDER_EXPIRED", intent: (_, t) => ({ expiresAt: t.origin }) },
    // A deposit on another chain, in another currency or below the quote never credits the order: it
    // is a stray, and the request keeps waiting (./frontRunDeposits.test.ts).
    { name: "fillDeadlinePassed", failReason: "ORDER_EXPIRED", intent: (_, t) => ({ fillDeadline: t.destination }) },
    // Before the deadline, but within the safety margin (solver.fillDeadlineMarginSeconds, 30 s): not sent.
    { name: "fillDeadlineWithinTheMargin", failReason: "ORDER_EXPIRED", intent: (_, t) => ({ fillDeadline: t.destination + 20 }) },
    { name: "solverBalanceTooLow", failReason: "SOLVER_BALANCE_TOO_LOW", intent: () => ({ destinationAmount: parseEther("1000000") }) },
  ];
  for (const f of failures) {
    it(`refund_${f.name}_failsWith${f.failReason}AndReturnsTheDeposit`, async () => {
      // A fresh block: the latest block time is "now" on the chain (an idle EDR chain's latest block is old).
      await env.destination.testClient.mine({ blocks: 1 });
      const times = { origin: await chainNow(env.origin), destination: await chainNow(env.destination) };
      const intent = makeIntent(env, f.intent(env, times));
      await saveQuote(store, intent);
      const amount = f.amount ? f.amount(intent) : BigInt(intent.originAmount);
      await deposit(env, { orderId: intent.orderId, amount });
      const done = await tickUntil(newSolver(), store, intent.requestId, (r) => r.status === "refund" || r.refundFailReason !== null);
      expect(done.status).to.equal("refund");
      expect(done.failReason, JSON.stringify(done.details)).to.equal(f.failReason);
      expect(await tokenBalance(env.origin, NATIVE, intent.refundTo)).to.equal(amount);
      expect(await filledLogs(env, intent.requestId)).to.have.length(0);
      const refund = done.solver!.refund!;
      expect(done.txHashes).to.deep.equal([refund.hash]);
      expect(refund.calls).to.deep.equal([{ to: intent.refundTo, token: NATIVE, amount }]);
      // The failure with its refund in progress is not a public status change: pollers and webhooks see pending → refund.
      expect((await store.requestEvents(intent.requestId)).map((e) => e.status)).to.deep.equal(["waiting", "pending", "refund"]);
    });
  }

  it("refund_fillSimulationRevertsWithAnUnknownAttester_failsWithInvalidSignerAndRefunds", async () => {
    const config = { ...env.config, keys: { ...env.config.keys, attester: { reveal: () => generatePrivateKey() } as (typeof env.config.keys)["attester"] } };
    const intent = makeIntent(env);
    await saveQuote(store, intent);
    await deposit(env, { orderId: intent.orderId, amount: BigInt(intent.originAmount) });
    const done = await tickUntil(createSolver({ config, store }), store, intent.requestId, (r) => r.status === "refund");
    expect(done.failReason).to.equal("INVALID_SIGNER");
    expect(done.details!.error).to.equal("SignerNotAllowed");
    expect(done.data.failedCallData).to.include({ to: env.config.chains[1]!.contracts.attestedReceiver.toLowerCase() });
    expect(await tokenBalance(env.origin, NATIVE, intent.refundTo)).to.equal(BigInt(intent.originAmount));
  });

  it("index_depositForAnUnknownOrder_isIgnoredAndTheCheckpointAdvances", async () => {
    const txHash = await deposit(env, { orderId: makeIntent(env).orderId, amount: 1000n });
    const receipt = await env.origin.publicClient.getTransactionReceipt({ hash: txHash });
    await newSolver().tick();
    expect((await store.listRequests({})).requests).to.have.length(0);
    const checkpoint = await store.getCheckpoint(env.origin.chainId, depository(env, env.origin));
    expect(checkpoint! >= Number(receipt.blockNumber)).to.equal(true);
  });

  it("index_afterASolverRestart_resumesFromTheCheckpointAndCreditsEachDepositOnce", async () => {
    const first = makeIntent(env);
    await saveQuote(store, first);
    await deposit(env, { orderId: first.orderId, amount: BigInt(first.originAmount) });
    await tickUntil(newSolver(), store, first.requestId, (r) => r.solver?.repayment?.status === "confirmed");
    const checkpoint = await store.getCheckpoint(env.origin.chainId, depository(env, env.origin));

    const second = makeIntent(env);
    await saveQuote(store, second);
    await deposit(env, { orderId: second.orderId, amount: BigInt(second.originAmount) });
    // A new solver on the same store: starts after the checkpoint, finds only the new deposit.
    await tickUntil(newSolver(), store, second.requestId, (r) => r.status === "success");
    expect((await store.getCheckpoint(env.origin.chainId, depository(env, env.origin)))! > checkpoint!).to.equal(true);
    expect((await store.requestEvents(first.requestId)).map((e) => e.status)).to.deep.equal(["waiting", "pending", "submitted", "success"]);

    // Even re-reading everything (checkpoint reset) credits nothing twice.
    await store.setCheckpoint(env.origin.chainId, depository(env, env.origin), 0);
    await newSolver().tick();
    for (const intent of [first, second]) {
      expect((await store.requestEvents(intent.requestId)).filter((e) => e.status === "pending")).to.have.length(1);
      expect(await filledLogs(env, intent.requestId)).to.have.length(1);
    }
  });

  it("fill_concurrentSolverLoops_fillOnce", async () => {
    const intents = [makeIntent(env), makeIntent(env), makeIntent(env)];
    for (const intent of intents) {
      await saveQuote(store, intent);
      await deposit(env, { orderId: intent.orderId, amount: BigInt(intent.originAmount) });
    }
    const loops = [newSolver(), newSolver(), newSolver()];
    for (let i = 0; i < 10; i++) await Promise.all(loops.map((l) => l.tick()));
    for (const intent of intents) {
      const request = await store.getRequest(intent.requestId);
      expect(request!.status).to.equal("success");
      expect(await filledLogs(env, intent.requestId)).to.have.length(1);
      expect((await store.requestEvents(intent.requestId)).map((e) => e.status)).to.deep.equal(["waiting", "pending", "submitted", "success"]);
    }
  });

  it("fill_submittedButUnmined_waitsAndCompletesOnceMined", async () => {
    const intent = makeIntent(env);
    await saveQuote(store, intent);
    await deposit(env, { orderId: intent.orderId, amount: BigInt(intent.originAmount) });
    await env.destination.testClient.setAutomine(false);
    try {
      const solver = newSolver();
      const submitted = await tickUntil(solver, store, intent.requestId, (r) => r.status === "submitted");
      await solver.tick();
      expect((await store.getRequest(intent.requestId))!.status).to.equal("submitted");
      await env.destination.testClient.mine({ blocks: 1 });
      const done = await tickUntil(newSolver(), store, intent.requestId, (r) => r.status === "success");
      expect(done.txHashes).to.deep.equal(submitted.txHashes);
      expect(await filledLogs(env, intent.requestId)).to.have.length(1);
    } finally {
      await env.destination.testClient.setAutomine(true);
    }
  });

  it("fill_recordedHashDroppedFromTheMempool_isResentAndFillsOnce", async () => {
    const intent = makeIntent(env);
    await saveQuote(store, intent);
    await deposit(env, { orderId: intent.orderId, amount: BigInt(intent.originAmount) });
    await env.destination.testClient.setAutomine(false);
    let lost: string;
    try {
      const submitted = await tickUntil(newSolver(), store, intent.requestId, (r) => r.status === "submitted");
      lost = submitted.txHashes[0]!;
      await env.destination.testClient.dropTransaction({ hash: lost as Hex });
    } finally {
      await env.destination.testClient.setAutomine(true);
    }
    const done = await tickUntil(newSolver(), store, intent.requestId, (r) => r.status === "success");
    // Re-signed with the same nonce and fees, the resent fill may be byte-identical (same hash): either way
    // the recorded fill is the one mined, and the receiver shows one fill.
    const fillHash = done.solver!.fill!.hash;
    expect(done.txHashes).to.include(lost!);
    expect(done.txHashes).to.include(fillHash);
    expect((await env.destination.publicClient.getTransactionReceipt({ hash: fillHash })).status).to.equal("success");
    const logs = await filledLogs(env, intent.requestId);
    expect(logs).to.have.length(1);
    expect(logs[0]!.transactionHash).to.equal(fillHash);
  });

  it("fill_minedAfterItsDeadline_revertsAndFailsWithOrderExpiredThenRefunds", async () => {
    const latest = await env.destination.publicClient.getBlock();
    const intent = makeIntent(env, { fillDeadline: Number(latest.timestamp) + 120 });
    await saveQuote(store, intent);
    await deposit(env, { orderId: intent.orderId, amount: BigInt(intent.originAmount) });
    await env.destination.testClient.setAutomine(false);
    try {
      await tickUntil(newSolver(), store, intent.requestId, (r) => r.status === "submitted");
      await env.destination.testClient.increaseTime({ seconds: 600 });
      await env.destination.testClient.mine({ blocks: 1 });
    } finally {
      await env.destination.testClient.setAutomine(true);
    }
    const done = await tickUntil(newSolver(), store, intent.requestId, (r) => r.status === "refund");
    expect(done.failReason).to.equal("ORDER_EXPIRED");
    const data = done.data as Record<string, any>;
    expect(data.failedTxHash).to.equal(done.txHashes[0]);
    expect(data.failedTxBlockNumber).to.be.a("number");
    expect(data.failedCallData).to.include({ to: env.config.chains[1]!.contracts.attestedReceiver.toLowerCase(), value: intent.destinationAmount.toString() });
    expect(done.details!.error).to.equal("AttestationExpired");
    expect(data.outTxs[0].status).to.equal("failure");
    expect(await filledLogs(env, intent.requestId)).to.have.length(0);
    expect(await tokenBalance(env.origin, NATIVE, intent.refundTo)).to.equal(BigInt(intent.originAmount));
    // The reverted fill's failure (refund in progress) shows as submitted: no event until the refund.
    expect((await store.requestEvents(intent.requestId)).map((e) => e.status)).to.deep.equal(["waiting", "pending", "submitted", "refund"]);
  });

  it("refund_ofAFailureWhoseRequestIsFilledOnchain_isNeverMade", async () => {
    const intent = makeIntent(env);
    await saveQuote(store, intent);
    await deposit(env, { orderId: intent.orderId, amount: BigInt(intent.originAmount) });
    const filled = await tickUntil(newSolver(), store, intent.requestId, (r) => r.status === "success");
    // Another database that (wrongly) holds the same request as failed: the receiver's word wins.
    const other = await createStore();
    try {
      await other.createRequest({ id: filled.id, orderId: filled.orderId, user: filled.user, recipient: filled.recipient, originChainId: filled.originChainId, destinationChainId: filled.destinationChainId, data: filled.data, solver: { intent: filled.solver!.intent } });
      await other.patchRequest(filled.id, { solver: { deposit: filled.solver!.deposit! } });
      await other.transitionRequest(filled.id, "pending");
      await other.transitionRequest(filled.id, "failure", { failReason: "UNKNOWN" });
      const solver = createSolver({ config: env.config, store: other });
      for (let i = 0; i < 3; i++) await solver.tick();
      const after = await other.getRequest(filled.id);
      expect(after!.status).to.equal("failure");
      expect(after!.solver!.refund).to.equal(undefined);
      expect(await tokenBalance(env.origin, NATIVE, intent.refundTo)).to.equal(0n);
    } finally {
      await other.close();
    }
  });
});

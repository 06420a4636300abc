// Stray deposits end to end on two real EDR chains and a real store (PGlite): a second deposit for a
// credited order and a deposit for an orderId never quoted are recorded once and returned in full to
// their depositor through Depository.execute; re-indexing, restarts and concurrent loops pay nothing
// twice; the Depository's replay guard rejects a second execution of the same refund.
import { expect } from "chai";
import { erc20Abi, parseEther, parseUnits, toHex, zeroAddress, type Address, type Hex } from "viem";
import { depositoryAbi } from "../../../ts/abi/Depository.ts";
import { signPayoutRequest } from "../../../ts/core/payoutRequest.ts";
import { payoutNonce, payoutRequestOf } from "../../../ts/service/solver/payout/payoutPlan.ts";
import { createSolver } from "../../../ts/service/solver/startSolver.ts";
import { createChainClients } from "../../../ts/service/chains/chainClients.ts";
import { requireAccount, resolveAccounts } from "../../../ts/service/chains/serviceAccounts.ts";
import { indexTransaction } from "../../../ts/service/solver/indexer/indexTransaction.ts";
import { SILENT_LOG } from "../../../ts/service/logging/logger.ts";
import { strayRefundNonce } from "../../../ts/service/solver/payout/strayRefundPlan.ts";
import { createStore, type Store } from "../../../ts/service/store/createStore.ts";
import type { StoredStrayDeposit, StrayDepositKey } from "../../../ts/service/store/solver/strayDeposits.ts";
import { depository, filledLogs, tickUntil } from "./solverHelpers.ts";
import { deposit, freshAddress, freshId, makeIntent, NATIVE, saveQuote, startTwoChains, tokenBalance, type TwoChains } from "./twoChains.ts";
import { canonicalHex } from "../../../ts/service/model/values.ts";

describe("solver stray deposits", function () {
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
    // The service is running before the deposits arrive: its first tick starts tracking strays (the
    // chain holds earlier tests' deposits, which this fresh database must never pay out).
    await newSolver().tick();
  });
  afterEach(async () => {
    await store.close();
  });

  const newSolver = () => createSolver({ config: env.config, store, ...(process.env.STRAY_DEBUG ? { log: { debug() {}, info: (o: object, m: string) => console.log(m, o), warn: (o: object, m: string) => console.log(m, o), error: (o: object, m: string) => console.log(m, o) } } : {}) });

  /** The user deposits under `orderId`, crediting `depositor` (a fresh address: its balance is exactly what it gets back). */
  async function depositFor(args: { orderId: Hex; depositor: Address; token?: Address; amount: bigint }): Promise<StrayDepositKey> {
    const chain = env.origin;
    const wallet = chain.walletClient(env.user.privateKey);
    const target = depository(env, chain);
    const token = args.token ?? NATIVE;
    let hash: Hex;
    if (token === NATIVE) {
      hash = await wallet.writeContract({ chain: wallet.chain, address: target, abi: depositoryAbi, functionName: "depositNative", args: [args.depositor, args.orderId], value: args.amount });
    } else {
      const approve = await wallet.writeContract({ chain: wallet.chain, address: token, abi: erc20Abi, functionName: "approve", args: [target, args.amount] });
      await chain.publicClient.waitForTransactionReceipt({ hash: approve });
      hash = await wallet.writeContract({ chain: wallet.chain, address: target, abi: depositoryAbi, functionName: "depositErc20", args: [args.depositor, token, args.amount, args.orderId] });
    }
    const receipt = await chain.publicClient.waitForTransactionReceipt({ hash });
    if (receipt.status !== "success") throw new Error(`deposit ${hash} reverted`);
    const log = receipt.logs.find((l) => l.address.toLowerCase() === target.toLowerCase())!;
    return { chainId: chain.chainId, txHash: canonicalHex(hash.toLowerCase()), logIndex: log.logIndex };
  }

  async function tickUntilStray(solver: { tick(): Promise<void> }, key: StrayDepositKey, done: (s: StoredStrayDeposit) => boolean, maxTicks = 20): Promise<StoredStrayDeposit> {
    let stray: StoredStrayDeposit | null = null;
    for (let i = 0; i < maxTicks; i++) {
      await solver.tick();
      stray = await store.getStrayDeposit(key);
      if (stray && done(stray)) return stray;
    }
    throw new Error(`stray ${key.txHash}:${key.logIndex} never got there: ${JSON.stringify(stray)}`);
  }

  const refunded = (s: StoredStrayDeposit) => s.state === "refunded";

  /** The Depository's RequestExecuted logs of `requestHash` on the origin chain. */
  async function executions(requestHash: Hex) {
    return env.origin.publicClient.getLogs({
      address: depository(env, env.origin),
      event: depositoryAbi.find((i) => i.type === "event" && i.name === "RequestExecuted")!,
      args: { requestHash },
      fromBlock: 0n,
      toBlock: "latest",
    });
  }

  /** Checks a refunded stray: state, a real successful transaction, exactly one execution, the deterministic nonce. */
  async function expectRefunded(stray: StoredStrayDeposit, key: StrayDepositKey, token: Address, amount: bigint) {
    expect(stray.state).to.equal("refunded");
    const refund = stray.refund!;
    expect(refund.status).to.equal("confirmed");
    expect(refund.calls).to.deep.equal([{ to: stray.depositor, token: token.toLowerCase(), amount }]);
    expect(refund.nonce).to.equal(strayRefundNonce(key.chainId, key.txHash, key.logIndex));
    const receipt = await env.origin.publicClient.getTransactionReceipt({ hash: refund.hash! });
    expect(receipt.status).to.equal("success");
    const logs = await executions(refund.requestHash);
    expect(logs.map((l) => l.transactionHash)).to.deep.equal([refund.hash]);
  }

  it("doubleSpend_secondDepositForACreditedOrder_isRefundedInFull_andTheRequestStillCompletes", async () => {
    const intent = makeIntent(env);
    await saveQuote(store, intent);
    await deposit(env, { orderId: intent.orderId, amount: BigInt(intent.originAmount) });
    const depositor = freshAddress();
    // A second deposit that matches the quote too (a smaller one is a mismatch: ./frontRunDeposits.test.ts).
    const amount = parseEther("1.3");
    const key = await depositFor({ orderId: intent.orderId, depositor, amount });
    const solver = newSolver();

    const done = await tickUntil(solver, store, intent.requestId, (r) => r.solver?.repayment?.status === "confirmed");
    const stray = await tickUntilStray(solver, key, refunded);

    expect(done.status).to.equal("success");
    expect(await filledLogs(env, intent.requestId)).to.have.length(1);
    expect(await tokenBalance(env.destination, NATIVE, intent.recipient)).to.equal(BigInt(intent.destinationAmount));
    expect((await store.requestEvents(intent.requestId)).map((e) => e.status)).to.deep.equal(["waiting", "pending", "submitted", "success"]);
    expect(done.solver!.repayment!.calls).to.deep.equal([{ to: env.solver.toLowerCase(), token: NATIVE, amount: intent.originAmount }]);

    expect(stray).to.include({ reason: "DOUBLE_SPEND", requestId: intent.requestId.toLowerCase(), depositor, token: NATIVE, amount });
    await expectRefunded(stray, key, NATIVE, amount);
    expect(await tokenBalance(env.origin, NATIVE, depositor)).to.equal(amount);
    // Its nonce is none of the request's payout nonces.
    const nonce = BigInt(stray.refund!.nonce);
    expect(nonce).to.not.equal(payoutNonce("refund", intent.requestId));
    expect(nonce).to.not.equal(payoutNonce("repayment", intent.requestId));
  });

  it("unknownOrder_depositForAnOrderIdNeverQuoted_isRefundedInFull", async () => {
    const orderId = freshId();
    const depositor = freshAddress();
    const amount = parseEther("0.25");
    const key = await depositFor({ orderId, depositor, amount });
    const stray = await tickUntilStray(newSolver(), key, refunded);
    expect(stray).to.include({ reason: "UNKNOWN_ORDER", requestId: null, orderId: orderId.toLowerCase() });
    await expectRefunded(stray, key, NATIVE, amount);
    expect(await tokenBalance(env.origin, NATIVE, depositor)).to.equal(amount);
    expect((await store.listRequests({})).requests).to.have.length(0);
  });

  it("erc20_strayStablecoinDeposit_isRefundedInFull", async () => {
    const depositor = freshAddress();
    const amount = parseUnits("12.345678", 6);
    const key = await depositFor({ orderId: freshId(), depositor, token: env.stablecoin, amount });
    const stray = await tickUntilStray(newSolver(), key, refunded);
    expect(stray.token).to.equal(env.stablecoin.toLowerCase());
    await expectRefunded(stray, key, env.stablecoin, amount);
    expect(await tokenBalance(env.origin, env.stablecoin, depositor)).to.equal(amount);
  });

  it("reindex_theSameRangeAgain_recordsNothingNewAndPaysNothingTwice", async () => {
    const intent = makeIntent(env);
    await saveQuote(store, intent);
    await deposit(env, { orderId: intent.orderId, amount: BigInt(intent.originAmount) });
    const depositor = freshAddress();
    const amount = parseEther("0.2");
    const key = await depositFor({ orderId: intent.orderId, depositor, amount });
    const solver = newSolver();
    await tickUntil(solver, store, intent.requestId, (r) => r.solver?.repayment?.status === "confirmed");
    const first = await tickUntilStray(solver, key, refunded);

    await store.setCheckpoint(env.origin.chainId, depository(env, env.origin), 0);
    for (let i = 0; i < 3; i++) await newSolver().tick();

    // Only the second deposit is stray (the credited one seen again is a no-op), recorded once, paid once.
    const strays = await store.listStrayDepositsByOrderId(intent.orderId);
    expect(strays.map((s) => [s.txHash, s.logIndex])).to.deep.equal([[key.txHash, key.logIndex]]);
    expect(strays[0]).to.deep.equal(first);
    expect(await tokenBalance(env.origin, NATIVE, depositor)).to.equal(amount);
    expect(await executions(first.refund!.requestHash)).to.have.length(1);
    expect((await store.requestEvents(intent.requestId)).filter((e) => e.status === "pending")).to.have.length(1);
  });

  it("indexRoute_andIndexer_bothSeeingAStray_recordAndPayItOnce", async () => {
    const depositor = freshAddress();
    const amount = parseEther("0.07");
    const key = await depositFor({ orderId: freshId(), depositor, amount });
    const client = createChainClients(env.config.chains).get(env.origin.chainId);
    const deps = { store, client, chains: env.config.chains, log: SILENT_LOG };
    // POST /transactions/index's logic, twice and concurrently, before and after the indexer.
    const results = await Promise.all([indexTransaction(deps, key.txHash), indexTransaction(deps, key.txHash)]);
    expect(results.map((r) => r.state)).to.deep.equal(["indexed", "indexed"]);
    const stray = await tickUntilStray(newSolver(), key, refunded);
    await indexTransaction(deps, key.txHash);
    await newSolver().tick();
    expect(await store.listStrayDepositsByOrderId(stray.orderId)).to.deep.equal([stray]);
    await expectRefunded(stray, key, NATIVE, amount);
    expect(await tokenBalance(env.origin, NATIVE, depositor)).to.equal(amount);
  });

  it("restart_refundHashStoredButNotYetConfirmed_completesWithOnePayment", async () => {
    const depositor = freshAddress();
    const amount = parseEther("0.15");
    const key = await depositFor({ orderId: freshId(), depositor, amount });
    await env.origin.testClient.setAutomine(false);
    let sent: StoredStrayDeposit;
    try {
      sent = await tickUntilStray(newSolver(), key, (s) => (s.refund as { status?: string } | null)?.status === "sent");
      // The process "restarts" with the refund in the mempool: the new loop waits for it.
      await newSolver().tick();
      expect((await store.getStrayDeposit(key))!.state).to.equal("pending");
      await env.origin.testClient.mine({ blocks: 1 });
    } finally {
      await env.origin.testClient.setAutomine(true);
    }
    const done = await tickUntilStray(newSolver(), key, refunded);
    const payout = done.refund!;
    expect(payout.hash).to.equal(sent!.refund!.hash);
    await expectRefunded(done, key, NATIVE, amount);
    expect(await tokenBalance(env.origin, NATIVE, depositor)).to.equal(amount);
  });

  it("restart_refundHashStoredButNeverBroadcast_resendsTheSameStructAndPaysOnce", async () => {
    const depositor = freshAddress();
    const amount = parseEther("0.15");
    const key = await depositFor({ orderId: freshId(), depositor, amount });
    await env.origin.testClient.setAutomine(false);
    let sent: StoredStrayDeposit;
    try {
      sent = await tickUntilStray(newSolver(), key, (s) => (s.refund as { status?: string } | null)?.status === "sent");
      // As if killed between recording the hash and broadcasting it: the node never saw it.
      await env.origin.testClient.dropTransaction({ hash: sent.refund!.hash! });
    } finally {
      await env.origin.testClient.setAutomine(true);
    }
    const done = await tickUntilStray(newSolver(), key, refunded);
    expect((done.refund!).requestHash).to.equal(sent!.refund!.requestHash);
    await expectRefunded(done, key, NATIVE, amount);
    expect(await tokenBalance(env.origin, NATIVE, depositor)).to.equal(amount);
  });

  it("replayGuard_aSecondExecuteOfTheSameRefund_revertsWithNonceAlreadyUsed", async () => {
    const depositor = freshAddress();
    const amount = parseEther("0.1");
    const key = await depositFor({ orderId: freshId(), depositor, amount });
    const stray = await tickUntilStray(newSolver(), key, refunded);
    const payout = stray.refund!;
    const struct = payoutRequestOf(payout);
    const signature = await signPayoutRequest({ account: requireAccount(resolveAccounts(env.config), "allocator"), chainId: env.origin.chainId, depository: payout.depository, request: struct });
    const error = await env.origin.publicClient
      .simulateContract({
        account: env.user.address,
        address: payout.depository,
        abi: depositoryAbi,
        functionName: "execute",
        args: [{ calls: [...struct.calls], nonce: struct.nonce, expiration: struct.expiration }, signature],
      })
      .catch((e: unknown) => e);
    expect(error).to.be.instanceOf(Error);
    expect(String((error as Error).message)).to.include("NonceAlreadyUsed");
    expect(await tokenBalance(env.origin, NATIVE, depositor)).to.equal(amount);
  });

  it("concurrentLoops_refundAStrayOnce", async () => {
    const depositor = freshAddress();
    const amount = parseEther("0.05");
    const key = await depositFor({ orderId: freshId(), depositor, amount });
    const loops = [newSolver(), newSolver(), newSolver()];
    for (let i = 0; i < 5; i++) await Promise.all(loops.map((l) => l.tick()));
    const stray = (await store.getStrayDeposit(key))!;
    await expectRefunded(stray, key, NATIVE, amount);
    expect(await tokenBalance(env.origin, NATIVE, depositor)).to.equal(amount);
  });

  it("tracking_depositsFromBeforeThisDatabaseWatchedTheChain_areNeverRefunded", async () => {
    const depositor = freshAddress();
    const early = await depositFor({ orderId: freshId(), depositor, amount: parseEther("0.01") });
    // A database that starts now (or was wiped) cannot tell whether that deposit was settled.
    const fresh = await createStore();
    try {
      const solver = createSolver({ config: env.config, store: fresh });
      for (let i = 0; i < 3; i++) await solver.tick();
      expect(await fresh.getStrayDeposit(early)).to.equal(null);
      expect(await fresh.getStrayTrackingStart(env.origin.chainId, depository(env, env.origin))).to.be.greaterThan(Number((await env.origin.publicClient.getTransactionReceipt({ hash: early.txHash as Hex })).blockNumber));
      // The database that was watching refunds it.
      const stray = await tickUntilStray(newSolver(), early, refunded);
      await expectRefunded(stray, early, NATIVE, parseEther("0.01"));
      expect(await tokenBalance(env.origin, NATIVE, depositor)).to.equal(parseEther("0.01"));
    } finally {
      await fresh.close();
    }
  });

  it("dust_aStrayBelowTheCurrencysThreshold_isIgnoredAndNothingIsSent_atTheThresholdItIsRefunded", async () => {
    // The devnet prices ETH at $3000: the default $1 threshold is ceil(1e18 / 3000) wei.
    const threshold = (10n ** 18n + 2999n) / 3000n;
    const dust = await depositFor({ orderId: freshId(), depositor: freshAddress(), amount: 1n });
    const below = await depositFor({ orderId: freshId(), depositor: freshAddress(), amount: threshold - 1n });
    const atDepositor = freshAddress();
    const at = await depositFor({ orderId: freshId(), depositor: atDepositor, amount: threshold });
    const solver = newSolver();
    const nonceBefore = await env.origin.publicClient.getTransactionCount({ address: env.solver });
    const refundedAt = await tickUntilStray(solver, at, refunded);
    for (const key of [dust, below]) {
      expect(await store.getStrayDeposit(key)).to.include({ state: "ignored", ignoredReason: "AMOUNT_TOO_LOW_TO_REFUND", refund: null });
    }
    // One transaction: the refund at the threshold; the dust cost the operator nothing.
    expect(await env.origin.publicClient.getTransactionCount({ address: env.solver })).to.equal(nonceBefore + 1);
    await expectRefunded(refundedAt, at, NATIVE, threshold);
    expect(await tokenBalance(env.origin, NATIVE, atDepositor)).to.equal(threshold);
  });

  it("griefing_aStrayAboveOneDollarButWorthLessThanItsRefundsGas_atAHighGasPrice_isIgnoredAndNothingIsSent", async () => {
    // The attack: at a high gas price, a stray just above the flat $1 threshold makes the operator pay
    // a refund that costs far more gas than the stray is worth (here ~$20 of gas for $1.01).
    const chain = env.origin.publicClient;
    const baseFee = async () => (await chain.getBlock({ blockTag: "latest" })).baseFeePerGas!;
    const before = await baseFee();
    const setBaseFee = async (fee: bigint) => {
      await chain.request({ method: "hardhat_setNextBlockBaseFeePerGas", params: [toHex(fee)] } as never);
      await chain.request({ method: "evm_mine", params: [] } as never);
    };
    await setBaseFee(100_000_000_000n); // 100 gwei
    try {
      const dollar = (10n ** 18n + 2999n) / 3000n; // $1 of ETH at the devnet's $3000
      const amount = (dollar * 101n) / 100n;
      const depositor = freshAddress();
      const key = await depositFor({ orderId: freshId(), depositor, amount });
      const solver = newSolver();
      const nonceBefore = await chain.getTransactionCount({ address: env.solver });
      const stray = await tickUntilStray(solver, key, (s) => s.state !== "pending" || s.refund !== null);
      expect(stray).to.include({ state: "ignored", ignoredReason: "AMOUNT_TOO_LOW_TO_REFUND", refund: null });
      expect(await chain.getTransactionCount({ address: env.solver }), "the operator sent nothing").to.equal(nonceBefore);
      expect(await tokenBalance(env.origin, NATIVE, depositor)).to.equal(0n);
    } finally {
      await setBaseFee(before);
    }
  });

  it("policy_unknownTokenOrZeroAmount_isIgnoredWithAReasonAndNothingIsSent", async () => {
    const unknownToken = freshAddress();
    const base = { chainId: env.origin.chainId, logIndex: 0, depository: depository(env, env.origin), block: 1, orderId: freshId(), depositor: freshAddress(), reason: "UNKNOWN_ORDER" as const };
    const unsupported = { ...base, txHash: freshId(), token: unknownToken, amount: 1000n };
    const zero = { ...base, txHash: freshId(), token: zeroAddress, amount: 0n };
    await store.recordStrayDeposit(unsupported);
    await store.recordStrayDeposit(zero);
    const nonceBefore = await env.origin.publicClient.getTransactionCount({ address: env.solver });
    await newSolver().tick();
    expect(await store.getStrayDeposit(unsupported)).to.include({ state: "ignored", ignoredReason: "UNSUPPORTED_CURRENCY", refund: null });
    expect(await store.getStrayDeposit(zero)).to.include({ state: "ignored", ignoredReason: "AMOUNT_TOO_LOW_TO_REFUND", refund: null });
    expect(await env.origin.publicClient.getTransactionCount({ address: env.solver })).to.equal(nonceBefore);
    expect(await store.listPendingStrayDeposits()).to.have.length(0);
  });
});

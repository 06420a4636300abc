// Batched repayment (ts/service/solver/payout/repaymentBatch.ts) on two real EDR chains and both store
// engines: N successful requests repaid by ONE origin transaction, each exactly once, the solver paid
// the sum. Attacks and faults: the batch reorged out is sent again as the very same struct (never
// re-formed: a new batch while the old signed one could still land would pay twice) and the old
// signed struct replayed by anyone pays nothing more; two replicas never put a request in two batches;
// a batch that never landed is not re-formed before it expires, and once expired unexecuted its
// members are repaid by a new one exactly once; batching off on one replica and on on another pays once.
import { expect } from "chai";
import { decodeFunctionData, parseEther, type Hex } from "viem";
import { depositoryAbi } from "../../../ts/abi/Depository.ts";
import type { FerryConfig } from "../../../ts/service/config/configSchema.ts";
import type { StoredRequest } from "../../../ts/service/model/storedRequest.ts";
import { createSolver } from "../../../ts/service/solver/startSolver.ts";
import type { Store } from "../../../ts/service/store/createStore.ts";
import { describeEachEngine, type TestDatabase } from "../store/engines.ts";
import { countingStore, depository } from "./solverHelpers.ts";
import { deployRevertingRecipient } from "./hostileContracts.ts";
import { canonicalAddress } from "../../../ts/service/model/values.ts";
import { deposit, freshAddress, makeIntent, saveQuote, useFreshDatabase, useTwoChains, type TwoChains } from "./twoChains.ts";
import type { QuotedIntent } from "../../../ts/service/model/quotedIntent.ts";
import { CLOCK_SKEW_SECONDS } from "../../../ts/service/solver/chainReads.ts";
import { CONFIG_DEFAULTS, REPAYMENT_BATCH_GAS } from "../../../ts/service/config/configSchema.ts";
import { SILENT_LOG } from "../../../ts/service/logging/logger.ts";
import type { SolverContext } from "../../../ts/service/solver/solverContext.ts";
import { advancePayout } from "../../../ts/service/solver/payout/advancePayout.ts";
import { formRepaymentBatch } from "../../../ts/service/solver/payout/repaymentBatch.ts";

const BATCH = { maxSize: 4, maxWaitMs: 600_000 };
const NATIVE_ADDRESS = "0x0000000000000000000000000000000000000000" as const;

describeEachEngine("solver batched repayment", (engine) => {
  let env: TwoChains;
  let db: TestDatabase;
  let store: Store;
  let clockOffsetMs = 0;

  const now = () => new Date(Date.now() + clockOffsetMs);
  useTwoChains((started) => (env = started));
  beforeEach(() => {
    clockOffsetMs = 0;
  });
  useFreshDatabase(engine, (made) => ({ db, store } = made), now);

  const solverOf = (options: { store?: Store; config?: FerryConfig; batch?: typeof BATCH | null; owner?: string } = {}) =>
    createSolver({
      config: options.config ?? env.config,
      store: options.store ?? store,
      now,
      ...(options.owner && { owner: options.owner }),
      settings: { repaymentBatch: options.batch === null ? { maxSize: 1, maxWaitMs: 0 } : (options.batch ?? BATCH) },
    });
  const originDepository = () => depository(env, env.origin);

  async function executedSince(fromBlock: bigint) {
    return env.origin.publicClient.getContractEvents({ address: originDepository(), abi: depositoryAbi, eventName: "RequestExecuted", fromBlock });
  }

  /** `n` quoted requests deposited on the origin (the second with an app fee, the third with an excess). */
  async function depositMany(n: number): Promise<QuotedIntent[]> {
    const intents: QuotedIntent[] = [];
    for (let i = 0; i < n; i++) {
      const appFees = i === 1 ? [{ recipient: freshAddress(), bps: "10", amount: parseEther("0.001") }] : [];
      const intent = makeIntent(env, { appFees });
      await saveQuote(store, intent);
      await deposit(env, { orderId: intent.orderId, amount: intent.originAmount + (i === 2 ? parseEther("0.25") : 0n) });
      intents.push(intent);
    }
    return intents;
  }

  async function tickUntilAll(solvers: { tick(): Promise<void> }[], intents: QuotedIntent[], done: (r: StoredRequest) => boolean, maxTicks = 30, between?: () => Promise<void>): Promise<StoredRequest[]> {
    let requests: (StoredRequest | null)[] = [];
    for (let i = 0; i < maxTicks; i++) {
      await Promise.all(solvers.map((s) => s.tick()));
      requests = await Promise.all(intents.map((intent) => store.getRequest(intent.requestId)));
      if (requests.every((r) => r && done(r))) return requests as StoredRequest[];
      await between?.();
    }
    throw new Error(`never all done: ${JSON.stringify(requests.map((r) => r && { status: r.status, repayment: r.solver?.repayment?.status }))}`);
  }

  const confirmed = (r: StoredRequest) => r.solver?.repayment?.status === "confirmed";

  /** Each member named by exactly one batch, all by the same one. */
  async function batchesOf(requestIds: readonly string[]): Promise<Array<{ nonce: string; members: string[]; state: string }>> {
    const { rows } = await store.engine.query<{ nonce: string; members: { requestId: string }[]; state: string }>("SELECT nonce, members, state FROM repayment_batches ORDER BY created_at");
    return rows.map((r) => ({ nonce: r.nonce, members: r.members.map((m) => m.requestId).filter((id) => requestIds.includes(id)), state: r.state }));
  }

  it("repaysNRequests_withOneOriginTransaction_eachOnce_theSolverPaidTheirSum", async function () {
    this.timeout(120_000);
    const from = (await env.origin.publicClient.getBlockNumber()) + 1n;
    const intents = await depositMany(4);
    const before = await env.origin.publicClient.getBalance({ address: env.solver });
    const refundTo = intents[2]!.refundTo;
    const done = await tickUntilAll([solverOf()], intents, confirmed);

    // One origin transaction for all four: the same hash, one RequestExecuted, one batch.
    const hashes = new Set(done.map((r) => r.solver!.repayment!.hash));
    expect(hashes.size).to.equal(1);
    const executed = await executedSince(from);
    expect(executed).to.have.length(1);
    expect(executed[0]!.args.nonce).to.equal(done[0]!.solver!.repayment!.nonce);
    const batches = await batchesOf(intents.map((i) => i.requestId));
    expect(batches).to.have.length(1);
    expect(batches[0]!.members.sort()).to.deep.equal(intents.map((i) => i.requestId).sort());
    expect(batches[0]!.state).to.equal("done");
    // With an app fee credit it is a settlement; each member names its own calls.
    const tx = await env.origin.publicClient.getTransaction({ hash: [...hashes][0]! });
    expect(decodeFunctionData({ abi: depositoryAbi, data: tx.input }).functionName).to.equal("settle");
    const calls = done[0]!.solver!.repayment!.calls;
    const indexes = done.flatMap((r) => r.solver!.repayment!.batch!.calls);
    expect(indexes.sort((a, b) => a - b)).to.deep.equal(calls.map((_, i) => i));
    for (const [i, r] of done.entries()) {
      const own = r.solver!.repayment!.batch!.calls.map((c) => calls[c]!);
      expect(own[0]!.to.toLowerCase(), `member ${i} pays the solver first`).to.equal(env.solver.toLowerCase());
      expect(own[0]!.amount).to.equal(intents[i]!.originAmount - (i === 1 ? parseEther("0.001") : 0n));
      expect(r.status).to.equal("success");
    }
    // The solver got every originAmount less the app fee, and paid one transaction's gas.
    const receipt = await env.origin.publicClient.getTransactionReceipt({ hash: [...hashes][0]! });
    const gas = receipt.gasUsed * receipt.effectiveGasPrice;
    // Within the gas budget the config checks maxSize against (4 members, a credit and an excess call among them).
    console.log(`      batch of 4 (settle, 5 calls, 1 credit): gasUsed ${receipt.gasUsed}`);
    expect(receipt.gasUsed <= BigInt(REPAYMENT_BATCH_GAS.base + 4 * REPAYMENT_BATCH_GAS.perMember)).to.equal(true);
    const repaid = intents.reduce((sum, intent) => sum + intent.originAmount, 0n) - parseEther("0.001");
    expect(await env.origin.publicClient.getBalance({ address: env.solver })).to.equal(before + repaid - gas);
    expect(await env.origin.publicClient.getBalance({ address: refundTo })).to.equal(parseEther("0.25"));

    // More ticks pay nothing more.
    const solver = solverOf();
    for (let i = 0; i < 3; i++) await solver.tick();
    expect(await executedSince(from)).to.have.length(1);
  });

  it("attack_aMemberWhoseRefundToRejectsNative_theBatchStillPaysEveryone_onlyThatMemberIsToldToClaim", async function () {
    this.timeout(120_000);
    const from = (await env.origin.publicClient.getBlockNumber()) + 1n;
    const hostile = canonicalAddress(await deployRevertingRecipient(env.origin));
    const excess = parseEther("0.3");
    const plain = makeIntent(env);
    const victim = makeIntent(env, { refundTo: hostile });
    for (const [intent, amount] of [[plain, plain.originAmount], [victim, victim.originAmount + excess]] as const) {
      await saveQuote(store, intent);
      await deposit(env, { orderId: intent.orderId, amount });
    }
    const done = await tickUntilAll([solverOf({ batch: { maxSize: 2, maxWaitMs: 600_000 } })], [plain, victim], confirmed);
    expect(new Set(done.map((r) => r.solver!.repayment!.hash)).size).to.equal(1);
    expect(await executedSince(from)).to.have.length(1);
    const [p, v] = done;
    // The excess call became claimable; only the victim's record names it, with its batch index.
    const excessIndex = v!.solver!.repayment!.batch!.calls[1]!;
    expect(v!.solver!.repayment!.claimable).to.deep.equal([{ index: excessIndex, to: hostile, token: canonicalAddress(NATIVE_ADDRESS), amount: excess }]);
    expect(v!.details).to.include({ claimable: "repayment", claimPayee: hostile, claimAmount: excess.toString() });
    expect(p!.solver!.repayment!.claimable).to.equal(undefined);
    expect(p!.details?.claimable).to.equal(undefined);
    const claimable = await env.origin.publicClient.readContract({ address: originDepository(), abi: depositoryAbi, functionName: "claimable", args: [hostile, NATIVE_ADDRESS] });
    expect(claimable).to.equal(excess);
  });

  it("attack_batchReorgedOut_theVerySameStructIsSentAgain_neverReformed_andItsReplayPaysNothing", async function () {
    this.timeout(120_000);
    const intents = await depositMany(3);
    const config = { ...env.config, chains: env.config.chains.map((c) => (c.id === env.origin.chainId ? { ...c, confirmations: 3 } : c)) };
    const solver = solverOf({ config, batch: { maxSize: 3, maxWaitMs: 600_000 } });
    await env.origin.testClient.mine({ blocks: 3 });
    const from = (await env.origin.publicClient.getBlockNumber()) + 1n;
    const snap = await env.origin.testClient.snapshot();
    // Filled, batched and sent; mined in a block not final yet.
    const sent = await tickUntilAll([solver], intents, (r) => r.solver?.repayment?.hash !== undefined);
    const first = sent[0]!.solver!.repayment!;
    const signed = (await env.origin.publicClient.getTransaction({ hash: first.hash! })).input;
    await env.origin.testClient.revert({ id: snap });
    await env.origin.testClient.increaseTime({ seconds: 7 });
    expect(await executedSince(from), "the reorg took the batch away").to.have.length(0);

    const done = await tickUntilAll([solver], intents, confirmed, 40, () => env.origin.testClient.mine({ blocks: 1 }));
    // The same batch (nonce, struct) for every member; one batch stored; one execution.
    for (const r of done) expect(r.solver!.repayment).to.deep.include({ nonce: first.nonce, requestHash: first.requestHash });
    expect(await batchesOf(intents.map((i) => i.requestId))).to.have.length(1);
    const executed = await executedSince(from);
    expect(executed).to.have.length(1);
    expect(executed[0]!.args.requestHash).to.equal(first.requestHash);

    // Anyone replaying the allocator-signed struct after it landed: reverted, nothing paid.
    const wallet = env.origin.walletClient(env.user.privateKey);
    const replay = await wallet
      .sendTransaction({ chain: wallet.chain, to: originDepository(), data: signed as Hex, gas: 500_000n })
      .then((hash) => env.origin.publicClient.waitForTransactionReceipt({ hash }))
      .catch(() => null);
    if (replay) expect(replay.status).to.equal("reverted");
    expect(await executedSince(from)).to.have.length(1);
  });

  it("attack_twoReplicasStepTheSameRequests_oneBatch_eachRequestInExactlyOne", async function () {
    this.timeout(120_000);
    if (engine.kind !== "postgres") this.skip(); // two replicas need a shared server: PGlite is one process's embedded database
    const from = (await env.origin.publicClient.getBlockNumber()) + 1n;
    const intents = await depositMany(4);
    const other = await db.open(now);
    try {
      const a = solverOf({ owner: "replica-a" });
      const b = solverOf({ store: other, owner: "replica-b" });
      await tickUntilAll([a, b], intents, confirmed);
    } finally {
      await other.close();
    }
    // Whatever the interleaving: one batch, each request in it once, repaid once.
    const batches = await batchesOf(intents.map((i) => i.requestId));
    expect(batches).to.have.length(1);
    expect(batches[0]!.members.sort()).to.deep.equal(intents.map((i) => i.requestId).sort());
    const executed = await executedSince(from);
    const requests = await Promise.all(intents.map((i) => store.getRequest(i.requestId)));
    const payouts = new Set(requests.map((r) => r!.solver!.repayment!.requestHash));
    expect(executed.map((e) => e.args.requestHash).sort()).to.deep.equal([...payouts].sort());
  });

  it("aVerifiedSuccess_isQueuedForABatchByTheSuccessItself_noWriteOfItsOwn", async function () {
    this.timeout(120_000);
    const intents = await depositMany(2);
    const { store: counted, calls } = countingStore(store);
    const queuing = solverOf({ store: counted, batch: { maxSize: 4, maxWaitMs: 600_000 } });
    const requests = await tickUntilAll([queuing], intents, (r) => r.solver?.repaymentQueuedAt !== undefined);
    // Filled, confirmed and queued: status changes only; the queueing rode on the success (issue 26: a
    // store write per intent fewer).
    expect(calls.filter((c) => c === "patchRequest"), JSON.stringify(calls.filter((c) => /Request$/.test(c)))).to.deep.equal([]);
    expect(requests.every((r) => r.status === "success" && r.solver!.repayment === undefined)).to.equal(true);
  });

  it("attack_aBatchMixedWithAReplicaThatDoesNotBatch_eachRequestRepaidOnce", async function () {
    this.timeout(120_000);
    const from = (await env.origin.publicClient.getBlockNumber()) + 1n;
    const intents = await depositMany(3);
    // One replica queues (maxWaitMs long: nothing formed yet), the other does not batch.
    const batching = solverOf({ owner: "batching", batch: { maxSize: 4, maxWaitMs: 600_000 } });
    await tickUntilAll([batching], intents, (r) => r.solver?.repaymentQueuedAt !== undefined);
    const plain = solverOf({ owner: "plain", batch: null });
    await tickUntilAll([plain, batching], intents, confirmed);
    const requests = await Promise.all(intents.map((i) => store.getRequest(i.requestId)));
    const executed = await executedSince(from);
    expect(executed).to.have.length(requests.length);
    expect(requests.every((r) => r!.solver!.repayment!.batch === undefined)).to.equal(true);
  });

  it("attack_aLoneRepaymentPlannedFromAStaleRead_neverOverwritesTheBatchThatTookTheRequest", async function () {
    this.timeout(120_000);
    const intents = await depositMany(2);
    // Filled, verified and queued by a batching replica (nothing formed yet).
    await tickUntilAll([solverOf({ batch: { maxSize: 4, maxWaitMs: 600_000 } })], intents, (r) => r.solver?.repaymentQueuedAt !== undefined);
    // A replica that does not batch read them (no repayment yet)...
    const stale = await Promise.all(intents.map((i) => store.getRequest(i.requestId)));
    // ...then a batch takes them...
    const ctx = { store, solver: env.solver, now, log: SILENT_LOG, settings: { ...CONFIG_DEFAULTS.solver, repaymentBatch: { maxSize: 2, maxWaitMs: 0 } } } as unknown as SolverContext;
    expect((await formRepaymentBatch(ctx, env.origin.chainId, originDepository())).sort()).to.deep.equal(intents.map((i) => i.requestId).sort());
    const batched = (await store.getRequest(intents[0]!.requestId))!.solver!.repayment!;
    // ...and the stale replica plans its lone repayment: the batch's stays, nothing else is ever signed.
    const progress = await advancePayout(ctx, stale[0]!, "repayment");
    expect(progress.payout.nonce).to.equal(batched.nonce);
    const stored = (await store.getRequest(intents[0]!.requestId))!.solver!.repayment!;
    expect(stored.nonce).to.equal(batched.nonce);
    expect(stored.batch).to.deep.equal(batched.batch);
  });

  it("attack_twoReplicasFormAtOnce_overTheSameQueuedRequests_neverTwoBatches", async function () {
    this.timeout(120_000);
    const intents = await depositMany(3);
    await tickUntilAll([solverOf({ batch: { maxSize: 4, maxWaitMs: 600_000 } })], intents, (r) => r.solver?.repaymentQueuedAt !== undefined);
    // PostgreSQL: a second connection pool, as another replica has; PGlite (one process): the same store.
    const other = engine.kind === "postgres" ? await db.open(now) : store;
    try {
      const ctxOf = (s: Store, skewMs: number) =>
        ({ store: s, solver: env.solver, now: () => new Date(now().getTime() + skewMs), log: SILENT_LOG, settings: { ...CONFIG_DEFAULTS.solver, repaymentBatch: { maxSize: 4, maxWaitMs: 0 } } }) as unknown as SolverContext;
      // Two replicas (their clocks a second apart: two different nonces were they to form both) at once.
      const formed = await Promise.all([formRepaymentBatch(ctxOf(store, 0), env.origin.chainId, originDepository()), formRepaymentBatch(ctxOf(other, 1000), env.origin.chainId, originDepository())]);
      const all = formed.flat();
      expect(all.sort()).to.deep.equal(intents.map((i) => i.requestId).sort());
      expect(formed.filter((f) => f.length > 0)).to.have.length(1);
    } finally {
      if (other !== store) await other.close();
    }
    expect(await batchesOf(intents.map((i) => i.requestId))).to.have.length(1);
  });

  it("fault_aBatchThatNeverLanded_isNotReformedBeforeItExpires_andOnceExpiredUnexecutedItsMembersArePaidOnce", async function () {
    this.timeout(180_000);
    const from = (await env.origin.publicClient.getBlockNumber()) + 1n;
    const intents = await depositMany(2);
    // The origin mines nothing: the batch is formed, signed and sent, and stays in the mempool.
    await env.origin.testClient.setAutomine(false);
    let first: StoredRequest[];
    try {
      const solver = solverOf({ batch: { maxSize: 2, maxWaitMs: 600_000 } });
      first = await tickUntilAll([solver], intents, (r) => r.solver?.repayment?.hash !== undefined);
      const hash = first[0]!.solver!.repayment!.hash!;
      // The node forgets it (dropped), and the solver's clock runs, short of the expiry.
      await env.origin.testClient.dropTransaction({ hash });
      clockOffsetMs = 3_600_000;
      for (let i = 0; i < 3; i++) await solver.tick();
      const still = await Promise.all(intents.map((i) => store.getRequest(i.requestId)));
      for (const r of still) expect(r!.solver!.repayment!.nonce, "re-formed while the signed batch could still land").to.equal(first[0]!.solver!.repayment!.nonce);
      expect(await batchesOf(intents.map((i) => i.requestId))).to.have.length(1);
      // Drop whatever was re-broadcast: the signed batch never lands.
      for (const tx of await pendingOf()) await env.origin.testClient.dropTransaction({ hash: tx });
    } finally {
      await env.origin.testClient.setAutomine(true);
    }
    // Past its expiration (and the clock skew) on the chain and in the solver: dissolved, re-formed, paid once.
    const expiration = first[0]!.solver!.repayment!.expiration;
    const chainNow = Number((await env.origin.publicClient.getBlock()).timestamp);
    const past = expiration + CLOCK_SKEW_SECONDS + 60 - chainNow;
    await env.origin.testClient.increaseTime({ seconds: past });
    await env.origin.testClient.mine({ blocks: 2 });
    clockOffsetMs = (expiration + CLOCK_SKEW_SECONDS + 120) * 1000 - Date.now();
    const done = await tickUntilAll([solverOf({ batch: { maxSize: 2, maxWaitMs: 600_000 } })], intents, confirmed, 40, () => env.origin.testClient.mine({ blocks: 1 }));
    const batches = await batchesOf(intents.map((i) => i.requestId));
    expect(batches.map((b) => b.state)).to.deep.equal(["dissolved", "done"]);
    expect(done[0]!.solver!.repayment!.nonce).to.not.equal(first[0]!.solver!.repayment!.nonce);
    const executed = await executedSince(from);
    expect(executed).to.have.length(1);
    expect(executed[0]!.args.requestHash).to.equal(done[0]!.solver!.repayment!.requestHash);
  });

  async function pendingOf(): Promise<Hex[]> {
    const block = await env.origin.publicClient.getBlock({ blockTag: "pending", includeTransactions: false }).catch(() => null);
    return (block?.transactions ?? []) as Hex[];
  }
});

// Reclaimable deposits in the solver, on two real EDR chains and both store engines: the indexer reads
// `DepositedReclaimable`, credits one that answers its reclaimable quote, and pays every repayment and
// refund from it with the allocator's `release` — so release and the depositor's reclaim never both pay.
// Attacks: a reclaimable deposit for an unknown order, or one reclaiming earlier than its quote, is a
// stray the service never refunds (its depositor reclaims it; a refund by `execute` would leave that
// right standing — paid twice); a depositor who reclaims before the refund's release is paid once.
import { expect } from "chai";
import { decodeFunctionData, parseEther, type Hex } from "viem";
import { depositoryAbi } from "../../../ts/abi/Depository.ts";
import { DEPOSITORY_RECLAIM_ABI, encodeReclaimableDeposit, encodeReclaim } from "../../../ts/core/reclaimableDeposit.ts";
import { createSolver } from "../../../ts/service/solver/startSolver.ts";
import type { Store } from "../../../ts/service/store/createStore.ts";
import { describeEachEngine } from "../store/engines.ts";
import type { StrayDepositKey } from "../../../ts/service/store/solver/strayDeposits.ts";
import { canonicalAddress, canonicalHex } from "../../../ts/service/model/values.ts";
import { depository, tickUntil } from "./solverHelpers.ts";
import { chainNow, freshId, makeIntent, NATIVE, saveQuote, type TwoChains, useFreshDatabase, useTwoChains } from "./twoChains.ts";
import { countUnreleasedDeposits } from "../../../ts/service/store/unreleasedDeposits.ts";

const ZERO32 = `0x${"00".repeat(32)}`;

describeEachEngine("solver reclaimable deposits", (engine) => {
  let env: TwoChains;
  let store: Store;

  useTwoChains((started) => (env = started));
  // A fresh database on the wall clock: payouts expire 30 days after it, onchain.
  useFreshDatabase(engine, (made) => (store = made.store));
  beforeEach(async function () {
    this.timeout(60_000);
    // The service runs before the deposits arrive: its first tick starts tracking strays.
    await newSolver().tick();
  });

  const newSolver = () => createSolver({ config: env.config, store });
  const origin = () => env.origin;
  const originDepository = () => depository(env, env.origin);

  /** The test user's reclaimable native deposit of `amount` under `orderId`, reclaimable from `reclaimAt`. */
  async function depositReclaimable(orderId: Hex, amount: bigint, reclaimAt: number): Promise<StrayDepositKey> {
    const wallet = origin().walletClient(env.user.privateKey);
    const { data, value } = encodeReclaimableDeposit({ currency: NATIVE, amount, id: orderId, reclaimAt: BigInt(reclaimAt) });
    const hash = await wallet.sendTransaction({ chain: wallet.chain, to: originDepository(), data, value });
    const receipt = await origin().publicClient.waitForTransactionReceipt({ hash });
    if (receipt.status !== "success") throw new Error(`reclaimable deposit ${hash} reverted`);
    const log = receipt.logs.find((l) => l.address.toLowerCase() === originDepository().toLowerCase())!;
    return { chainId: origin().chainId, txHash: canonicalHex(hash), logIndex: log.logIndex };
  }

  async function commitment(orderId: Hex): Promise<Hex> {
    return origin().publicClient.readContract({ address: originDepository(), abi: DEPOSITORY_RECLAIM_ABI, functionName: "reclaimCommitment", args: [orderId] });
  }

  /** The origin chain's clock past `at`, a block mined there. */
  async function passTime(at: number): Promise<void> {
    const now = await chainNow(origin());
    if (now <= at) await origin().testClient.increaseTime({ seconds: at - now + 1 });
    await origin().testClient.mine({ blocks: 1 });
  }

  /** The test user reclaims (after its time); returns the transaction's gas cost. */
  async function reclaim(orderId: Hex, amount: bigint, reclaimAt: number): Promise<bigint> {
    const wallet = origin().walletClient(env.user.privateKey);
    const hash = await wallet.sendTransaction({ chain: wallet.chain, to: originDepository(), data: encodeReclaim({ id: orderId, currency: NATIVE, amount, reclaimAt: BigInt(reclaimAt) }) });
    const receipt = await origin().publicClient.waitForTransactionReceipt({ hash });
    expect(receipt.status, "the depositor's reclaim").to.equal("success");
    return receipt.gasUsed * receipt.effectiveGasPrice;
  }

  /** Every `RequestExecuted` of the origin Depository since `fromBlock`: what the service paid out. */
  async function payoutsSince(fromBlock: bigint) {
    return origin().publicClient.getContractEvents({ address: originDepository(), abi: depositoryAbi, eventName: "RequestExecuted", fromBlock });
  }

  it("repayment_ofAReclaimableDeposit_isARelease_andEndsTheReclaim", async () => {
    const now = await chainNow(origin());
    const intent = makeIntent(env, { reclaimAt: now + 86_400 * 3 });
    await saveQuote(store, intent);
    await depositReclaimable(intent.orderId, intent.originAmount, intent.reclaimAt!);
    expect(await commitment(intent.orderId)).to.not.equal(ZERO32);

    const solver = newSolver();
    // The destination holds the fill in its mempool: credited, not released yet.
    await env.destination.testClient.setAutomine(false);
    try {
      const credited = await tickUntil(solver, store, intent.requestId, (r) => r.solver?.deposit !== undefined, 10);
      expect(credited.solver!.deposit!.reclaimAt).to.equal(BigInt(intent.reclaimAt!));
      expect(await countUnreleasedDeposits({ engine: store.engine }, now)).to.deep.equal({ unreleased: 1, atRisk: 0 });
      expect(await countUnreleasedDeposits({ engine: store.engine }, intent.reclaimAt! + 1)).to.deep.equal({ unreleased: 1, atRisk: 1 });
    } finally {
      await env.destination.testClient.setAutomine(true);
      await env.destination.testClient.mine({ blocks: 1 });
    }

    const done = await tickUntil(solver, store, intent.requestId, (r) => r.solver?.repayment?.status === "confirmed");
    expect(done.status).to.equal("success");
    expect(done.solver!.repayment!.release).to.equal(intent.orderId);
    const tx = await origin().publicClient.getTransaction({ hash: done.solver!.repayment!.hash! });
    expect(decodeFunctionData({ abi: depositoryAbi, data: tx.input }).functionName).to.equal("release");
    expect(await commitment(intent.orderId)).to.equal(ZERO32);
    expect(await countUnreleasedDeposits({ engine: store.engine }, intent.reclaimAt! + 1)).to.deep.equal({ unreleased: 0, atRisk: 0 });
  });

  it("refund_ofAReclaimableDeposit_isARelease_toRefundTo", async () => {
    const now = await chainNow(origin());
    // Deposited after the quote's expiry: ORDER_EXPIRED, refunded.
    const intent = makeIntent(env, { expiresAt: now - 600, fillDeadline: now - 600, reclaimAt: now + 86_400 });
    await saveQuote(store, intent);
    await depositReclaimable(intent.orderId, intent.originAmount, intent.reclaimAt!);
    const done = await tickUntil(newSolver(), store, intent.requestId, (r) => r.status === "refund");
    expect(done.failReason).to.equal("ORDER_EXPIRED");
    expect(done.solver!.refund!.release).to.equal(intent.orderId);
    expect(done.solver!.refund!.calls).to.deep.equal([{ to: intent.refundTo, token: NATIVE, amount: intent.originAmount }]);
    expect(await origin().publicClient.getBalance({ address: intent.refundTo })).to.equal(intent.originAmount);
    expect(await commitment(intent.orderId)).to.equal(ZERO32);
  });

  it("attack_reclaimableDepositForAnUnknownOrder_isNeverRefunded_theDepositorReclaimsItOnce", async () => {
    const orderId = freshId();
    const amount = parseEther("0.7");
    const reclaimAt = (await chainNow(origin())) + 120;
    const from = (await origin().publicClient.getBlockNumber()) + 1n;
    const key = await depositReclaimable(orderId, amount, reclaimAt);
    const solver = newSolver();
    for (let i = 0; i < 6; i++) await solver.tick();

    const stray = await store.getStrayDeposit(key);
    expect(stray).to.include({ reason: "UNKNOWN_ORDER", state: "ignored", ignoredReason: "RECLAIMABLE" });
    expect(stray!.refund).to.equal(null);
    expect(await payoutsSince(from)).to.have.length(0);

    // The depositor takes it back after its time: paid exactly once, by the reclaim.
    await passTime(reclaimAt);
    const before = await origin().publicClient.getBalance({ address: env.user.address });
    const gas = await reclaim(orderId, amount, reclaimAt);
    expect(await origin().publicClient.getBalance({ address: env.user.address })).to.equal(before + amount - gas);
    for (let i = 0; i < 3; i++) await solver.tick();
    expect(await payoutsSince(from)).to.have.length(0);
  });

  it("attack_reclaimableDepositReclaimingEarlierThanItsQuote_isAStray_andTheRequestKeepsWaiting", async () => {
    const now = await chainNow(origin());
    const intent = makeIntent(env, { reclaimAt: now + 86_400 });
    await saveQuote(store, intent);
    const from = (await origin().publicClient.getBlockNumber()) + 1n;
    // Reclaimable a minute from now: the depositor could take it back right after the fill.
    const key = await depositReclaimable(intent.orderId, intent.originAmount, now + 60);
    const solver = newSolver();
    for (let i = 0; i < 6; i++) await solver.tick();
    const stray = await store.getStrayDeposit(key);
    expect(stray).to.include({ reason: "INCORRECT_PAYMENT", state: "ignored", ignoredReason: "RECLAIMABLE", requestId: intent.requestId });
    const request = await store.getRequest(intent.requestId);
    expect(request?.status ?? "waiting").to.equal("waiting");
    expect(request?.solver?.deposit).to.equal(undefined);
    expect(await payoutsSince(from)).to.have.length(0);
  });

  it("attack_depositorReclaimsBeforeTheRefund_isPaidOnce_andTheRequestEndsRefundedByTheReclaim", async () => {
    const now = await chainNow(origin());
    const reclaimAt = now + 60;
    // Expired (refunded), reclaimable a minute later; the service is away until after that.
    const intent = makeIntent(env, { expiresAt: now - 600, fillDeadline: now - 600, reclaimAt, refundTo: canonicalAddress(env.user.address) });
    await saveQuote(store, intent);
    const from = (await origin().publicClient.getBlockNumber()) + 1n;
    await depositReclaimable(intent.orderId, intent.originAmount, reclaimAt);
    await passTime(reclaimAt);
    const before = await origin().publicClient.getBalance({ address: env.user.address });
    const gas = await reclaim(intent.orderId, intent.originAmount, reclaimAt);

    const done = await tickUntil(newSolver(), store, intent.requestId, (r) => r.status === "refund");
    expect(done.solver!.refund!.status).to.equal("reverted");
    expect(done.details).to.include({ reclaimedBy: env.user.address.toLowerCase() });
    expect(done.txHashes).to.have.length(1);
    // Paid once: by the reclaim; the service's release reverted, nothing executed.
    expect(await origin().publicClient.getBalance({ address: env.user.address })).to.equal(before + intent.originAmount - gas);
    expect(await payoutsSince(from)).to.have.length(0);
  });
});

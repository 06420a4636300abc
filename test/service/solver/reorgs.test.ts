// Reorgs on real EDR chains (evm_snapshot / evm_revert, then other blocks mined: the honest way to make
// a chain replace blocks in process), with the solver's own ticks and a real store:
// - the head is not final: a one-block reorg dropping a deposit the solver had seen leaves it unfilled
//   (with the default confirmations), and a deposit mined at the replaced height is still indexed;
// - a deposit the reorg moves to a later block is credited and filled once;
// - fills and payouts are confirmed only at their chain's depth: one reorged out before that is
//   re-checked and lands once, never recorded as done while its transaction is gone.
import { expect } from "chai";
import { encodeFunctionData, zeroAddress, type Hex } from "viem";
import { depositoryAbi } from "../../../ts/abi/Depository.ts";
import { CONFIG_DEFAULTS, type FerryConfig } from "../../../ts/service/config/configSchema.ts";
import type { StoredRequest } from "../../../ts/service/model/storedRequest.ts";
import { createSolver } from "../../../ts/service/solver/startSolver.ts";
import { createStore, type Store } from "../../../ts/service/store/createStore.ts";
import type { DevnetChain } from "../../../ts/devnet/devnetChain.ts";
import { depository, filledLogs } from "./solverHelpers.ts";
import { makeIntent, saveQuote, startTwoChains, type TwoChains } from "./twoChains.ts";
import { canonicalHex } from "../../../ts/service/model/values.ts";

describe("solver under reorgs (EDR snapshots)", function () {
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

  /** The devnet config with per-chain confirmations (undefined: the service's default). */
  function configWith(confirmations: { origin?: number; destination?: number }): FerryConfig {
    const pick = (id: number) => (id === env.origin.chainId ? confirmations.origin : confirmations.destination) ?? CONFIG_DEFAULTS.confirmations;
    return { ...env.config, chains: env.config.chains.map((c) => ({ ...c, confirmations: pick(c.id) })) };
  }

  const mine = (chain: DevnetChain, blocks = 1) => chain.testClient.mine({ blocks });
  const snapshot = (chain: DevnetChain) => chain.testClient.snapshot();
  /** Back to `id`, then the next block's time moves on, so the blocks mined after are others (other hashes). */
  async function revert(chain: DevnetChain, id: Hex): Promise<void> {
    await chain.testClient.revert({ id });
    await chain.testClient.increaseTime({ seconds: 7 });
  }

  /** A deposit transaction signed once, so the very same transaction can be sent again after a reorg. */
  async function signedDeposit(orderId: Hex, amount: bigint): Promise<Hex> {
    const wallet = env.origin.walletClient(env.user.privateKey);
    const request = await wallet.prepareTransactionRequest({
      account: wallet.account!,
      chain: wallet.chain,
      to: depository(env, env.origin),
      data: encodeFunctionData({ abi: depositoryAbi, functionName: "depositNative", args: [zeroAddress, orderId] }),
      value: amount,
    });
    return wallet.signTransaction(request as Parameters<typeof wallet.signTransaction>[0]);
  }
  async function send(raw: Hex): Promise<{ hash: Hex; block: bigint }> {
    const hash = await env.origin.publicClient.sendRawTransaction({ serializedTransaction: raw });
    const receipt = await env.origin.publicClient.waitForTransactionReceipt({ hash });
    return { hash, block: receipt.blockNumber };
  }

  /** Ticks the solver, mining a block on `chains` after each tick, until `done`. */
  async function tickMining(solver: { tick(): Promise<void> }, requestId: string, chains: DevnetChain[], done: (r: StoredRequest) => boolean, maxTicks = 30): Promise<StoredRequest> {
    let request: StoredRequest | null = null;
    for (let i = 0; i < maxTicks; i++) {
      await solver.tick();
      request = await store.getRequest(canonicalHex(requestId));
      if (request && done(request)) return request;
      for (const chain of chains) await mine(chain);
    }
    throw new Error(`request ${requestId} never got there: ${JSON.stringify(request && { status: request.status, solver: request.solver }, (_, v) => (typeof v === "bigint" ? v.toString() : v))}`);
  }

  async function requestExecutedLogs(requestHash: Hex) {
    return env.origin.publicClient.getLogs({
      address: depository(env, env.origin),
      event: depositoryAbi.find((i) => i.type === "event" && i.name === "RequestExecuted")!,
      args: { requestHash },
      fromBlock: 0n,
      toBlock: "latest",
    });
  }

  it("defaults_aDepositDroppedByAOneBlockReorg_isNeverFilled", async () => {
    const intent = makeIntent(env);
    await saveQuote(store, intent);
    const solver = createSolver({ config: configWith({ destination: 1 }), store });
    const snap = await snapshot(env.origin);
    await send(await signedDeposit(intent.orderId, intent.originAmount));
    await mine(env.origin);
    // The solver sees the chain with the deposit one block under the head.
    await solver.tick();
    await solver.tick();
    await revert(env.origin, snap);
    await mine(env.origin, CONFIG_DEFAULTS.confirmations + 3);
    for (let i = 0; i < 3; i++) await solver.tick();
    expect(await filledLogs(env, intent.requestId), "a fill for a deposit that no longer exists").to.have.length(0);
    const request = await store.getRequest(intent.requestId);
    expect(request === null || request.status === "waiting").to.equal(true);
  });

  it("defaults_aDepositMinedAtAReplacedBlocksHeight_isIndexedAndFilledOnce", async () => {
    const intent = makeIntent(env);
    await saveQuote(store, intent);
    const solver = createSolver({ config: configWith({ destination: 1 }), store });
    const snap = await snapshot(env.origin);
    await mine(env.origin);
    await solver.tick();
    await revert(env.origin, snap);
    // The same height again, this time holding the deposit.
    const { hash } = await send(await signedDeposit(intent.orderId, intent.originAmount));
    const done = await tickMining(solver, intent.requestId, [env.origin], (r) => r.status === "success" && r.solver?.repayment?.status === "confirmed", CONFIG_DEFAULTS.confirmations + 15);
    expect(done.inTxHashes).to.deep.equal([hash.toLowerCase()]);
    expect(await filledLogs(env, intent.requestId)).to.have.length(1);
  });

  it("aDepositMovedToALaterBlockByAReorg_isCreditedAtItsNewBlockAndFilledOnce", async () => {
    const intent = makeIntent(env);
    await saveQuote(store, intent);
    const solver = createSolver({ config: configWith({ origin: 3, destination: 1 }), store });
    const raw = await signedDeposit(intent.orderId, intent.originAmount);
    const snap = await snapshot(env.origin);
    const first = await send(raw);
    await mine(env.origin);
    await solver.tick();
    await revert(env.origin, snap);
    await mine(env.origin, 2);
    const moved = await send(raw);
    expect(moved.hash).to.equal(first.hash);
    expect(moved.block > first.block).to.equal(true);
    const done = await tickMining(solver, intent.requestId, [env.origin], (r) => r.status === "success" && r.solver?.repayment?.status === "confirmed");
    expect(done.solver!.deposit!.block).to.equal(Number(moved.block));
    expect(await filledLogs(env, intent.requestId)).to.have.length(1);
    expect(await store.listStrayDepositsByOrderId(intent.orderId)).to.deep.equal([]);
    expect(await requestExecutedLogs(done.solver!.repayment!.requestHash)).to.have.length(1);
  });

  it("aRepaymentReorgedOutBeforeItsDepth_isNeverConfirmedWhileGone_andLandsOnce", async () => {
    const intent = makeIntent(env);
    await saveQuote(store, intent);
    const solver = createSolver({ config: configWith({ origin: 3, destination: 1 }), store });
    await send(await signedDeposit(intent.orderId, intent.originAmount));
    await mine(env.origin, 3);
    const snap = await snapshot(env.origin);
    // One tick: credited, filled on the destination, repayment sent and mined on the origin.
    await solver.tick();
    const afterTick = (await store.getRequest(intent.requestId))!;
    expect(afterTick.status).to.equal("success");
    expect(afterTick.solver!.repayment!.hash).to.be.a("string");
    await revert(env.origin, snap);
    const stored = (await store.getRequest(intent.requestId))!.solver!.repayment!;
    if (stored.status === "confirmed") {
      // Whatever the solver recorded as confirmed must be onchain.
      expect(await requestExecutedLogs(stored.requestHash), "a payout recorded confirmed whose transaction is gone").to.have.length(1);
    }
    const done = await tickMining(solver, intent.requestId, [env.origin], (r) => r.solver?.repayment?.status === "confirmed");
    expect(await requestExecutedLogs(done.solver!.repayment!.requestHash)).to.have.length(1);
    const executed = await env.origin.publicClient.readContract({ address: depository(env, env.origin), abi: depositoryAbi, functionName: "executed", args: [done.solver!.repayment!.nonce] });
    expect(executed).to.equal(true);
  });

  it("aFillReorgedOutBeforeItsDepth_staysSubmitted_andFillsOnce", async () => {
    const intent = makeIntent(env);
    await saveQuote(store, intent);
    const solver = createSolver({ config: configWith({ origin: 1, destination: 3 }), store });
    await send(await signedDeposit(intent.orderId, intent.originAmount));
    const snap = await snapshot(env.destination);
    await solver.tick();
    const afterTick = (await store.getRequest(intent.requestId))!;
    await revert(env.destination, snap);
    if (afterTick.status === "success") {
      expect(await filledLogs(env, intent.requestId), "a success whose fill is gone").to.have.length(1);
    }
    const done = await tickMining(solver, intent.requestId, [env.destination], (r) => r.status === "success" && r.solver?.repayment?.status === "confirmed");
    const fills = await filledLogs(env, intent.requestId);
    expect(fills).to.have.length(1);
    expect(done.txHashes).to.deep.equal([fills[0]!.transactionHash.toLowerCase()]);
  });
});

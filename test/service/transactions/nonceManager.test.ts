// The nonce manager on real chains and both store engines: nonces drawn from the store are never
// shared by two senders (two managers = two processes or replicas on one database), a send whose
// record fails takes no nonce, a call that would revert or cost more than the cap sends nothing.
import { expect } from "chai";
import { encodeFunctionData, parseGwei, parseTransaction, type Hex } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { attestedReceiverAbi } from "../../../ts/abi/AttestedReceiver.ts";
import { isFerryError } from "../../../ts/core/errors.ts";
import { createChainClients, type ChainClients } from "../../../ts/service/chains/chainClients.ts";
import { serviceAccountOf } from "../../../ts/service/chains/serviceAccounts.ts";
import { createFeeOracle } from "../../../ts/service/transactions/chainFees.ts";
import { createNonceManager, type NonceManager } from "../../../ts/service/transactions/nonceManager.ts";
import type { Store } from "../../../ts/service/store/createStore.ts";
import { describeEachEngine } from "../store/engines.ts";
import { startTwoChains, type TwoChains } from "../solver/twoChains.ts";
import { canonicalAddress } from "../../../ts/service/model/values.ts";
import { countingStore } from "../solver/solverHelpers.ts";
import { withRpcDeadline } from "../../../ts/service/chains/rpcDeadline.ts";

describeEachEngine("nonce manager", (engine) => {
  let env: TwoChains | undefined;
  const stores: Store[] = [];

  before(async function () {
    this.timeout(120_000);
    env = await startTwoChains();
  });
  after(async () => {
    for (const store of stores) await store.close().catch(() => {});
    await env?.close();
  });

  function manager(store: Store, cap = 10n ** 17n, adjust?: (clients: ChainClients) => void): NonceManager {
    const clients = createChainClients(env!.config.chains, { solver: serviceAccountOf(privateKeyToAccount(env!.keyEnv.FERRY_SOLVER_KEY as Hex)), pollingIntervalMs: 50 });
    adjust?.(clients);
    return createNonceManager({ store, clients, fees: createFeeOracle(clients), settings: { replaceAfterMs: 60_000, maxTransactionFee: () => cap } });
  }

  /** Two stores on one database for PostgreSQL (two replicas), the suite's one store twice for PGlite (one process). */
  async function twoStores(): Promise<[Store, Store]> {
    if (engine.kind === "pglite") return [engine.store, engine.store];
    const db = await engine.freshDatabase();
    const pair: [Store, Store] = [await db.open(() => new Date()), await db.open(() => new Date())];
    stores.push(...pair);
    return pair;
  }

  const selfTransfer = (n: number) => ({ to: canonicalAddress(env!.solver), data: `0x${n.toString(16).padStart(8, "0")}` as Hex, value: 0n });

  it("send_twoManagersOnOneDatabaseSendingAtOnce_neverShareANonce_andEveryTransactionLands", async function () {
    this.timeout(180_000);
    const chainId = env!.destination.chainId;
    const [a, b] = await twoStores();
    const managers = [manager(a), manager(b)];
    const sent = await Promise.all(
      Array.from({ length: 24 }, (_, i) =>
        managers[i % 2]!.send({ chainId, purpose: "approve", subject: `test-${engine.kind}-${i}`, tx: selfTransfer(i), record: async () => {} }),
      ),
    );
    const nonces = sent.map((s) => s.txNonce).sort((x, y) => x - y);
    expect(new Set(nonces).size, "distinct nonces").to.equal(24);
    expect(nonces.at(-1)! - nonces[0]!, "consecutive").to.equal(23);
    for (const s of sent) {
      const outcome = await managers[0]!.follow({ chainId, txNonce: s.txNonce });
      expect(outcome.state, `nonce ${s.txNonce}`).to.equal("mined");
    }
  });

  it("send_manyAtOnceInOneProcess_allocatesTheNextNonceWhileTheLastIsBroadcasting_andBroadcastsInNonceOrder", async function () {
    this.timeout(60_000);
    const chainId = env!.destination.chainId;
    const [store] = await twoStores();
    // A broadcast's answer is held until the next nonce has been allocated (at most 3 s: a manager that
    // allocates only after the answer gets it late, and the order below says so). What happened when is logged.
    const log: string[] = [];
    const sends = 6;
    let last = Number.POSITIVE_INFINITY;
    const nonceManager = manager(store, undefined, (clients) => {
      const client = clients.get(chainId).publicClient;
      const send = client.sendRawTransaction.bind(client);
      client.sendRawTransaction = async (args) => {
        const nonce = parseTransaction(args.serializedTransaction).nonce!;
        log.push(`broadcast ${nonce}`);
        const hash = await send(args);
        const until = Date.now() + 3000;
        while (nonce < last && !log.includes(`allocated ${nonce + 1}`) && Date.now() < until) await new Promise((resolve) => setTimeout(resolve, 5));
        log.push(`answered ${nonce}`);
        return hash;
      };
    });
    const first = await env!.destination.publicClient.getTransactionCount({ address: env!.solver, blockTag: "pending" });
    last = first + sends - 1;
    const sent = await Promise.all(
      Array.from({ length: sends }, (_, i) =>
        nonceManager.send({ chainId, purpose: "approve", subject: `overlap-${engine.kind}-${i}`, tx: selfTransfer(100 + i), record: async ({ txNonce }) => void log.push(`allocated ${txNonce}`) }),
      ),
    );
    const nonces = sent.map((s) => s.txNonce).sort((x, y) => x - y);
    expect(nonces[0], "the chain's next nonce first").to.equal(first);
    expect(log.filter((line) => line.startsWith("broadcast")), "broadcasts in nonce order").to.deep.equal(nonces.map((n) => `broadcast ${n}`));
    for (const n of nonces.slice(0, -1)) {
      expect(log.indexOf(`allocated ${n + 1}`), `nonce ${n + 1} allocated before ${n}'s broadcast was answered`).to.be.below(log.indexOf(`answered ${n}`));
    }
    for (const n of nonces) expect((await nonceManager.follow({ chainId, txNonce: n })).state, `nonce ${n}`).to.equal("mined");
    expect(nonces.at(-1)).to.equal(last);
  });

  it("send_manyAtOnceInOneProcess_shareTheirStoreTransactions_onConsecutiveNonces", async function () {
    // Each send took its own store transaction (BEGIN, the nonce's row lock, COMMIT): at 200 users every
    // fill and payout paid them. Sends waiting together for the key's allocation now share one.
    this.timeout(60_000);
    const chainId = env!.destination.chainId;
    const [store] = await twoStores();
    const { store: counted, calls } = countingStore(store);
    const nonceManager = manager(counted);
    const sends = 8;
    const sent = await Promise.all(
      Array.from({ length: sends }, (_, i) => nonceManager.send({ chainId, purpose: "approve", subject: `batch-${engine.kind}-${i}`, tx: selfTransfer(200 + i), record: async () => {} })),
    );
    const nonces = sent.map((s) => s.txNonce).sort((x, y) => x - y);
    expect(nonces.at(-1)! - nonces[0]!, "consecutive").to.equal(sends - 1);
    expect(calls.filter((c) => c === "transaction").length, `store transactions for ${sends} sends`).to.be.at.most(3);
    for (const n of nonces) expect((await nonceManager.follow({ chainId, txNonce: n })).state, `nonce ${n}`).to.equal("mined");
  });

  it("send_oneRecordThrowsAmongSendsStoredTogether_onlyItFails_andNoNonceIsSkipped", async function () {
    this.timeout(60_000);
    const chainId = env!.destination.chainId;
    const [store] = await twoStores();
    const nonceManager = manager(store);
    const before = await env!.destination.publicClient.getTransactionCount({ address: env!.solver, blockTag: "pending" });
    const outcomes = await Promise.allSettled(
      Array.from({ length: 6 }, (_, i) =>
        nonceManager.send({
          chainId,
          purpose: "approve",
          subject: `batch-throws-${engine.kind}-${i}`,
          tx: selfTransfer(300 + i),
          record: async () => {
            if (i === 2) throw new Error("record refused");
          },
        }),
      ),
    );
    expect(outcomes.map((o) => o.status)).to.deep.equal(["fulfilled", "fulfilled", "rejected", "fulfilled", "fulfilled", "fulfilled"]);
    expect(((outcomes[2] as PromiseRejectedResult).reason as Error).message).to.equal("record refused");
    const nonces = outcomes.flatMap((o) => (o.status === "fulfilled" ? [o.value.txNonce] : [])).sort((x, y) => x - y);
    expect(nonces, "the five others, on the next five nonces").to.deep.equal([0, 1, 2, 3, 4].map((k) => before + k));
    for (const n of nonces) expect((await nonceManager.follow({ chainId, txNonce: n })).state, `nonce ${n}`).to.equal("mined");
    expect(await env!.destination.publicClient.getTransactionCount({ address: env!.solver })).to.equal(before + 5);
  });

  it("send_aRecordThatThrows_takesNoNonce_andSendsNothing", async function () {
    this.timeout(60_000);
    const chainId = env!.destination.chainId;
    const [store] = await twoStores();
    const nonceManager = manager(store);
    const before = await env!.destination.publicClient.getTransactionCount({ address: env!.solver });
    const error = await nonceManager
      .send({ chainId, purpose: "approve", subject: "throws", tx: selfTransfer(1), record: async () => Promise.reject(new Error("record refused")) })
      .catch((e: unknown) => e);
    expect((error as Error).message).to.equal("record refused");
    const next = await nonceManager.send({ chainId, purpose: "approve", subject: "after", tx: selfTransfer(2), record: async () => {} });
    expect(next.txNonce, "the refused send's nonce is handed out next").to.equal(before);
    expect(await env!.destination.publicClient.getTransactionCount({ address: env!.solver })).to.equal(before + 1);
  });

  it("send_aCallThatWouldRevert_throwsTheRevertBeforeTakingANonce", async function () {
    this.timeout(60_000);
    const chainId = env!.destination.chainId;
    const [store] = await twoStores();
    const nonceManager = manager(store);
    const receiver = env!.config.chains.find((c) => c.id === chainId)!.contracts.attestedReceiver;
    // cancel(requestId) from an address that is not a signer reverts.
    const data = encodeFunctionData({ abi: attestedReceiverAbi, functionName: "cancel", args: [`0x${"11".repeat(32)}`] });
    let recorded = false;
    const error = await nonceManager.send({ chainId, purpose: "approve", subject: "revert", tx: { to: canonicalAddress(receiver), data }, record: async () => void (recorded = true) }).catch((e: unknown) => e);
    expect(error).to.be.instanceOf(Error);
    expect(recorded).to.equal(false);
    const next = await nonceManager.send({ chainId, purpose: "approve", subject: "after-revert", tx: selfTransfer(3), record: async () => {} });
    expect(next.txNonce).to.equal((await env!.destination.publicClient.getTransactionCount({ address: env!.solver })) - 1);
  });

  it("send_overTheChainsFeeCap_isTransactionFeeCapExceeded_andSendsNothing", async function () {
    this.timeout(60_000);
    const chainId = env!.destination.chainId;
    const [store] = await twoStores();
    const before = await env!.destination.publicClient.getTransactionCount({ address: env!.solver });
    const error = await manager(store, parseGwei("1"))
      .send({ chainId, purpose: "approve", subject: "capped", tx: selfTransfer(4), record: async () => {} })
      .catch((e: unknown) => e);
    expect(isFerryError(error, "TRANSACTION_FEE_CAP_EXCEEDED"), String(error)).to.equal(true);
    expect(await env!.destination.publicClient.getTransactionCount({ address: env!.solver })).to.equal(before);
  });

  it("send_withAGasCap_anEstimateAboveItIsGasCapExceeded_andTheLimitNeverExceedsIt", async function () {
    this.timeout(60_000);
    const chainId = env!.destination.chainId;
    const [store] = await twoStores();
    const nonceManager = manager(store);
    const before = await env!.destination.publicClient.getTransactionCount({ address: env!.solver });
    // A plain transfer needs 21,000 gas and a little for its data: a cap of 21,000 is below its estimate.
    const refused = await nonceManager.send({ chainId, purpose: "approve", subject: "over-cap", tx: { ...selfTransfer(5), maxGas: 21_000n }, record: async () => {} }).catch((e: unknown) => e);
    expect(isFerryError(refused, "GAS_CAP_EXCEEDED"), String(refused)).to.equal(true);
    expect(await env!.destination.publicClient.getTransactionCount({ address: env!.solver })).to.equal(before);
    // Within the cap: the 20% headroom is cut at the cap.
    const estimate = await env!.destination.publicClient.estimateGas({ account: env!.solver, ...selfTransfer(6) });
    const sent = await nonceManager.send({ chainId, purpose: "approve", subject: "at-cap", tx: { ...selfTransfer(6), maxGas: estimate + 1n }, record: async () => {} });
    const stored = await store.getSolverTransaction({ chainId, address: sent.address, nonce: sent.txNonce });
    expect(stored!.call.gas).to.equal(estimate + 1n);
  });

  // Last in the suite: it rewinds the destination chain.
  it("follow_aMinedTransactionWhoseBlockAReorgTookAway_isFollowedAgain_andLandsOnTheNewFork", async function () {
    this.timeout(60_000);
    const chainId = env!.destination.chainId;
    const [store] = await twoStores();
    const nonceManager = manager(store);
    const fork = await env!.destination.testClient.snapshot();
    const sent = await nonceManager.send({ chainId, purpose: "approve", subject: "reorged", tx: selfTransfer(7), record: async () => {} });
    expect((await nonceManager.follow({ chainId, txNonce: sent.txNonce })).state).to.equal("mined");
    // The block holding it is replaced (the chain goes back to the fork point): the stored "mined" is stale.
    await env!.destination.testClient.revert({ id: fork });
    expect(await env!.destination.publicClient.getTransactionCount({ address: env!.solver })).to.equal(sent.txNonce);
    const again = await nonceManager.follow({ chainId, txNonce: sent.txNonce });
    expect(again.state, "the nonce is followed again (the lost attempt re-broadcast)").to.equal("pending");
    const landed = await nonceManager.follow({ chainId, txNonce: sent.txNonce });
    expect({ state: landed.state, hash: landed.hash }).to.deep.equal({ state: "mined", hash: sent.hash });
  });

  // Sends queued behind one another are stored and broadcast by one drain loop, started inside the first
  // caller's step. Each broadcast ran under that step's RPC deadline: once it passed, every later send the
  // loop drained failed its broadcast ("out of time") and waited for a re-broadcast (issue 26: 37 of 800
  // transactions of a 200-user bench). Each send is broadcast under its own caller's deadline.
  it("send_queuedBehindAnotherCallersBatch_isBroadcastUnderItsOwnDeadline_notTheFirstCallers", async function () {
    this.timeout(120_000);
    const chainId = env!.destination.chainId;
    const { publicClient } = env!.destination;
    // The batches' store transactions are slow (a loaded database): the first caller's is done, and its
    // send broadcast, within its deadline; the second batch's ends after that deadline.
    const delays = [600, 2000];
    const slow: Store = {
      ...engine.store,
      transaction: async (fn) => {
        await new Promise((resolve) => setTimeout(resolve, delays.shift() ?? 0));
        return engine.store.transaction(fn);
      },
    };
    const m = manager(slow);
    const send = (n: number) => m.send({ chainId, purpose: "approve", subject: `test-${engine.kind}-queued-${n}`, tx: selfTransfer(1000 + n), record: async () => {} });
    const first = withRpcDeadline(1500, "the first caller's step", () => send(1));
    // Queued while the first batch is stored: the first caller's drain loop stores and broadcasts it.
    await new Promise((resolve) => setTimeout(resolve, 200));
    const second = await withRpcDeadline(30_000, "the second caller's step", () => send(2));
    const sentFirst = await first;
    expect((await publicClient.getTransactionReceipt({ hash: sentFirst.hash }))?.status, "the first send's transaction on chain").to.equal("success");
    // The node took the second one when it was sent (automine: it is mined at once), with no re-broadcast.
    const receipt = await publicClient.getTransactionReceipt({ hash: second.hash }).catch(() => null);
    expect(receipt?.status, "the second send's transaction on chain").to.equal("success");
  });
});

// What following a nonce reads (ts/service/transactions/broadcastHeads.ts): where heads are pushed
// (Anvil's newHeads over its websocket), a nonce broadcast after the newest pushed block is pending
// without a call — its receipt cannot exist before a newer block does. Before, the step that sent a
// fill or a payout followed it at once and paid its receipt, the chain's nonce and the transaction for
// nothing (3 calls per transaction; issue 26). Once a block is pushed the nonce is read as before, so
// a transaction the node dropped is still found and broadcast again.
import { expect } from "chai";
import { type Hex } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { createChainClients, type ChainClients } from "../../../ts/service/chains/chainClients.ts";
import { serviceAccountOf } from "../../../ts/service/chains/serviceAccounts.ts";
import { createFeeOracle } from "../../../ts/service/transactions/chainFees.ts";
import { createNonceManager, type NonceManager } from "../../../ts/service/transactions/nonceManager.ts";
import { createStore, type Store } from "../../../ts/service/store/createStore.ts";
import { canonicalAddress } from "../../../ts/service/model/values.ts";
import { startRpcCounter, type RpcCounter } from "../../../scripts/bench/rpcCounter.ts";
import { startTwoChains, type TwoChains } from "../solver/twoChains.ts";
import { countingStore } from "../solver/solverHelpers.ts";

const FOLLOW_READS = ["eth_getTransactionReceipt", "eth_getTransactionCount", "eth_getTransactionByHash"];

describe("nonce manager: following a nonce where heads are pushed (anvil)", function () {
  this.timeout(300_000);
  let env: TwoChains;
  let store: Store;
  let counter: RpcCounter;
  let clients: ChainClients;
  let manager: NonceManager;

  before(async function () {
    this.timeout(240_000);
    env = await startTwoChains({ node: { kind: "anvil" } });
    store = await createStore();
    counter = await startRpcCounter(env.destination.rpcUrl);
    const chains = env.config.chains.map((c) => (c.id === env.destination.chainId ? { ...c, rpcUrl: counter.url, rpcUrls: [counter.url] } : c));
    expect(chains.find((c) => c.id === env.destination.chainId)!.wsRpcUrl, "the devnet's Anvil has a websocket").to.be.a("string");
    clients = createChainClients(chains, { solver: serviceAccountOf(privateKeyToAccount(env.keyEnv.FERRY_SOLVER_KEY as Hex)), pollingIntervalMs: 50 });
    manager = createNonceManager({ store, clients, fees: createFeeOracle(clients), settings: { replaceAfterMs: 60_000, maxTransactionFee: () => 10n ** 17n } });
    await env.destination.testClient.setAutomine(false);
    const head = clients.get(env.destination.chainId).head;
    await head.latest();
    for (let i = 0; i < 100 && (head.mode() !== "subscription" || head.known() === undefined); i++) await new Promise((resolve) => setTimeout(resolve, 50));
    expect(head.mode(), "the head is pushed").to.equal("subscription");
  });
  after(async () => {
    clients?.close();
    await counter?.close();
    await store?.close();
    await env?.close();
  });

  const chainId = () => env.destination.chainId;
  const selfTransfer = (n: number) => ({ to: canonicalAddress(env.solver), data: `0x${n.toString(16).padStart(8, "0")}` as Hex, value: 0n });
  const followReads = () => Object.fromEntries(FOLLOW_READS.map((m) => [m, counter.counts().get(m) ?? 0]));
  const noReads = Object.fromEntries(FOLLOW_READS.map((m) => [m, 0]));

  /** Mines one block and waits until its head is pushed to the service's head. */
  async function mineAndSee(): Promise<void> {
    const head = clients.get(chainId()).head;
    const before = head.known()!.number;
    await env.destination.testClient.mine({ blocks: 1 });
    for (let i = 0; i < 200 && head.known()!.number <= before; i++) await new Promise((resolve) => setTimeout(resolve, 10));
    expect(head.known()!.number > before, "the mined block was pushed").to.equal(true);
  }

  it("follow_rightAfterTheSend_beforeANewBlock_readsNothing_thenMinedOnceTheBlockIsPushed", async () => {
    const sent = await manager.send({ chainId: chainId(), purpose: "approve", subject: "follow-reads-1", tx: selfTransfer(1), record: async () => {} });
    counter.reset();
    const early = await manager.follow({ chainId: chainId(), txNonce: sent.txNonce });
    expect(early.state).to.equal("pending");
    expect(early.hash).to.equal(sent.hash);
    expect(followReads(), "no block since the broadcast: nothing to read").to.deep.equal(noReads);
    await mineAndSee();
    const mined = await manager.follow({ chainId: chainId(), txNonce: sent.txNonce });
    expect(mined.state).to.equal("mined");
    expect(mined.hash).to.equal(sent.hash);
  });

  // The store side of the same: a nonce this process broadcast is followed by its receipt alone; its
  // stored record is not read to find its attempts — a young one without a receipt is pending, a mined
  // one is settled by one statement that returns the record. Before, every follow after a new block
  // read the record first (issue 26: 3 reads of solver_transactions per intent).
  it("follow_aNonceThisProcessBroadcast_readsNoStoredRecord_pendingOrMined", async () => {
    const { store: counted, calls } = countingStore(store);
    const own = createNonceManager({ store: counted, clients, fees: createFeeOracle(clients), settings: { replaceAfterMs: 60_000, maxTransactionFee: () => 10n ** 17n } });
    const sent = await own.send({ chainId: chainId(), purpose: "approve", subject: "follow-reads-store", tx: selfTransfer(7), record: async () => {} });
    // A block without it (it is not mined yet): still young, pending.
    await env.destination.testClient.request({ method: "anvil_dropTransaction" as never, params: [sent.hash] as never });
    await mineAndSee();
    calls.length = 0;
    expect((await own.follow({ chainId: chainId(), txNonce: sent.txNonce })).state).to.equal("pending");
    expect(calls, "a young pending nonce").to.deep.equal([]);
    // Back in the mempool and mined: settled without reading the record first.
    await env.destination.publicClient.sendRawTransaction({ serializedTransaction: (await store.getSolverTransaction({ chainId: chainId(), address: canonicalAddress(env.solver), nonce: sent.txNonce }))!.attempts[0]!.raw });
    await mineAndSee();
    calls.length = 0;
    const mined = await own.follow({ chainId: chainId(), txNonce: sent.txNonce });
    expect({ state: mined.state, hash: mined.hash, attempts: mined.attempts }).to.deep.equal({ state: "mined", hash: sent.hash, attempts: 1 });
    expect(mined.state === "mined" && mined.transaction?.hash).to.equal(sent.hash);
    expect(calls, "a mined nonce").to.deep.equal(["settleSolverTransaction"]);
    expect((await store.getSolverTransaction({ chainId: chainId(), address: canonicalAddress(env.solver), nonce: sent.txNonce }))!.state).to.equal("mined");
  });

  it("follow_aTransactionTheNodeDropped_isBroadcastAgain_onceItsFirstBlocksWentBy", async () => {
    const sent = await manager.send({ chainId: chainId(), purpose: "approve", subject: "follow-reads-2", tx: selfTransfer(2), record: async () => {} });
    await env.destination.testClient.request({ method: "anvil_dropTransaction" as never, params: [sent.hash] as never });
    expect(await env.destination.publicClient.getTransaction({ hash: sent.hash }).catch(() => null), "dropped").to.equal(null);
    // Empty blocks: the dropped transaction is not in them. Within its first blocks only its receipt is
    // looked for; past them, the mempool is asked and the transaction broadcast again.
    await mineAndSee();
    expect((await manager.follow({ chainId: chainId(), txNonce: sent.txNonce })).state).to.equal("pending");
    expect(await env.destination.publicClient.getTransaction({ hash: sent.hash }).catch(() => null), "still dropped").to.equal(null);
    await mineAndSee();
    await mineAndSee();
    const again = await manager.follow({ chainId: chainId(), txNonce: sent.txNonce });
    expect(again.state, "re-broadcast, pending").to.equal("pending");
    expect((await env.destination.publicClient.getTransaction({ hash: sent.hash })).hash, "the node has it again").to.equal(sent.hash);
    await mineAndSee();
    expect((await manager.follow({ chainId: chainId(), txNonce: sent.txNonce })).state).to.equal("mined");
  });

  it("follow_whereHeadsArePolled_aYoungTransaction_costsItsReceiptAlone", async () => {
    const { wsRpcUrl: _ws, ...polled } = env.config.chains.find((c) => c.id === chainId())!;
    const pollingClients = createChainClients([{ ...polled, rpcUrl: counter.url, rpcUrls: [counter.url] }], {
      solver: serviceAccountOf(privateKeyToAccount(env.keyEnv.FERRY_SOLVER_KEY as Hex)),
      pollingIntervalMs: 50,
    });
    try {
      expect(pollingClients.get(chainId()).head.mode()).to.equal("polling");
      const polling = createNonceManager({ store, clients: pollingClients, fees: createFeeOracle(pollingClients), settings: { replaceAfterMs: 60_000, maxTransactionFee: () => 10n ** 17n } });
      await pollingClients.get(chainId()).head.latest();
      const sent = await polling.send({ chainId: chainId(), purpose: "approve", subject: "follow-reads-3", tx: selfTransfer(3), record: async () => {} });
      counter.reset();
      expect((await polling.follow({ chainId: chainId(), txNonce: sent.txNonce })).state).to.equal("pending");
      expect(followReads(), "its receipt only").to.deep.equal({ ...noReads, eth_getTransactionReceipt: 1 });
      await env.destination.testClient.mine({ blocks: 1 });
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect((await polling.follow({ chainId: chainId(), txNonce: sent.txNonce })).state).to.equal("mined");
    } finally {
      pollingClients.close();
    }
  });
});

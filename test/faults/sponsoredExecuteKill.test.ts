// Fault: the service process SIGKILLed during a sponsored POST /execute (the app balance pays the
// relayer's gas), at each point where a crash could lose or double a debit, then restarted on the same
// database. The kill points are made deterministic by a JSON-RPC proxy in front of the origin chain
// (./chainProxy.ts) that holds one method's answers, so the process is parked at a known line when the
// test kills it:
//  1. after the hold, before the transaction is recorded (the relayer's nonce sync, eth_getTransactionCount, held);
//  2. the same, and the client posts the same execution again after the restart;
//  3. recorded, but the broadcast never reached the chain (eth_sendRawTransaction held, not forwarded);
//  4. broadcast, not mined (the origin chain's automine off; mined after the restart);
//  5. mined, before the process saw the receipt (eth_getTransactionReceipt held).
// Each time the test first checks the store is in the state the point names (so the test cannot drift
// to another point unnoticed), restarts, and asserts: the call ran at most once onchain (the target's
// balance, the relayer's nonce), the app's ledger has exactly one hold and then one debit (or one
// release when nothing was sent), no hold is left `held` after the sweeper, and the balance is the
// credit minus exactly the debits. Both store engines; runs under `npm run test:faults`.
import { expect } from "chai";
import type { Address, Hex } from "viem";
import { hardhatTestAccount } from "../../ts/devnet/devnetAccounts.ts";
import { DEVNET_RELAYER_INDEX } from "../../ts/devnet/devnetChains.ts";
import { executionId } from "../../ts/service/relay/relayExecution.ts";
import { EXECUTE_HOLD_LEASE_MS } from "../../ts/service/relay/stuckExecuteHolds.ts";
import { apiKeyStore } from "../../ts/service/store/apiKeys.ts";
import { canonicalAddress } from "../../ts/service/model/values.ts";
import { waitFor } from "../service/solver/solverHelpers.ts";
import { freshAddress, type TwoChains } from "../service/solver/twoChains.ts";
import type { ChainProxy, ProxyMode } from "./chainProxy.ts";
import { useRestartedService } from "./restartedService.ts";

/** What the app funds: 100 USD. */
const CREDITED_USD = 100_000_000n;
/** The value each relayed call carries to its fresh target (0.000001 ETH = 3000 USD micro-units at 3000 USD/ETH). */
const VALUE = 10n ** 12n;
const ETH_USD = 3000n;
const relayer = hardhatTestAccount(DEVNET_RELAYER_INDEX).address;

type Ledger = { availableUsd: string; heldUsd: string; creditedUsd: string; debitedUsd: string; entries: { kind: string; reference: string | null; amountUsd: string }[] };

for (const engine of ["pglite", "postgres"] as const) {
  describe(`fault: service SIGKILLed during a sponsored /execute [${engine}]`, function () {
    this.timeout(600_000);
    const run = useRestartedService(engine);
    let env: TwoChains;
    let proxy: ChainProxy;
    let apiKey: string;
    let apiKeyId: string;
    /** The sum of every debit the scenarios expect (the balance is the credit minus this). */
    let expectedDebits = 0n;

    before(async () => {
      env = run.env;
      proxy = run.proxy;
      const store = await run.openStore();
      try {
        const created = await apiKeyStore(store).createApiKey("sponsoring app", 10_000_000);
        apiKey = created.key;
        apiKeyId = created.id;
        await store.appBalances.credit({ apiKeyId, amountUsd: CREDITED_USD, source: { chainId: env.origin.chainId, txHash: `0x${"c1".repeat(32)}`, logIndex: 0 }, currency: "0x0000000000000000000000000000000000000000", amount: (CREDITED_USD * 10n ** 12n) / ETH_USD });
      } finally {
        await store.close();
      }
    });
    const withStore = run.withStore;
    /** The service reads the origin chain through the proxy; the destination directly. */
    const start = () => run.start({ name: "execute-kill", solver: { replaceAfterMs: 60_000 } });
    const body = (target: Address) => JSON.stringify({ executionKind: "rawCalls", data: { chainId: env.origin.chainId, to: target, data: "0x", value: VALUE.toString() } });
    /** POST /execute; the answer, or null when the process died before answering. */
    function post(target: Address): Promise<{ status: number; body: { requestId?: Hex; txHash?: Hex; message: string; errorCode?: string } } | null> {
      return fetch(`${run.service!.url}/execute`, { method: "POST", headers: { "content-type": "application/json", "x-api-key": apiKey }, body: body(target) })
        .then(async (response) => ({ status: response.status, body: (await response.json()) as { message: string } }))
        .catch(() => null);
    }
    async function ledger(): Promise<Ledger> {
      const response = await fetch(`${run.service!.url}/app-balance?limit=200`, { headers: { "x-api-key": apiKey } });
      expect(response.status).to.equal(200);
      return (await response.json()) as Ledger;
    }
    /** The nonce manager's sync of the relayer's nonce: the first chain read after the hold, before the nonce's store transaction. */
    const relayersNonceSync = (params: unknown[]) => String(params[0]).toLowerCase() === relayer.toLowerCase();
    const relayerNonce = () => env.origin.publicClient.getTransactionCount({ address: relayer, blockTag: "latest" });
    const targetBalance = (target: Address) => env.origin.publicClient.getBalance({ address: target });

    /**
     * Starts the service with the proxy holding `held`'s answers, posts the execution, kills the process
     * once the request `parked` names is held (the process waits in it).
     */
    async function killWhileHeld(target: Address, held: ProxyMode & { methods: string[] }, parked: (params: unknown[]) => boolean = () => true): Promise<void> {
      await start();
      await proxy.setMode(held);
      const answer = post(target);
      await waitFor(async () => proxy.held().some((r) => held.methods.includes(r.method) && parked(r.params)), 30_000, `a ${held.methods.join(",")} request to be held`).catch((error) => {
        throw new Error(`${(error as Error).message}\n${run.service!.output().slice(-3000)}`);
      });
      await run.kill();
      expect(await answer, "the process died before answering").to.equal(null);
      await proxy.setMode({ kind: "pass" });
    }

    /** What the store holds for the execution to `target` (no service running). */
    async function stored(target: Address) {
      const requestId = requestIdOf(target);
      return withStore(async (store) => {
        const holds = await store.engine.query<{ id: string; state: string }>("SELECT id, state FROM app_balance_holds WHERE purpose = 'execute' AND reference = $1", [requestId]);
        const txs = await store.engine.query<{ nonce: number; state: string }>("SELECT nonce, state FROM solver_transactions WHERE purpose = 'execute' AND subject LIKE $1", [`${requestId}:%`]);
        return { requestId, holds: holds.rows, transactions: txs.rows };
      });
    }

    /** The execution's requestId: the hash of the call, as the service derives it (the killed process never answered it). */
    function requestIdOf(target: Address): Hex {
      return executionId({ chainId: env.origin.chainId, to: canonicalAddress(target), data: "0x", value: VALUE });
    }

    /** After the restart: the hold ended, the call ran `runs` times onchain, the ledger has exactly the lines it should, the balance adds up. */
    async function expectExactlyOnce(target: Address, requestId: Hex, runs: 0 | 1, nonceBefore: number): Promise<void> {
      const ended = async () => (await ledger()).entries.some((e) => e.reference === requestId && (e.kind === "debit" || (runs === 0 && e.kind === "release")));
      await waitFor(ended, 60_000, "the hold to end").catch((error) => {
        throw new Error(`${(error as Error).message}\n${run.service!.output().slice(-4000)}`);
      });
      // A few more follower passes: nothing more may happen.
      await new Promise((resolve) => setTimeout(resolve, 1000));
      expect(await targetBalance(target), "the call's value arrived once, or never").to.equal(VALUE * BigInt(runs));
      expect(await relayerNonce(), "the relayer sent one transaction, or none").to.equal(nonceBefore + runs);
      const balance = await ledger();
      const lines = balance.entries.filter((e) => e.reference === requestId);
      const kinds = lines.map((e) => e.kind).sort();
      expect(kinds.filter((k) => k === "hold"), "one hold").to.have.length(1);
      if (runs === 0) {
        expect(kinds, "held, then released whole").to.deep.equal(["hold", "release"]);
        expect(lines.find((e) => e.kind === "release")!.amountUsd).to.equal(lines.find((e) => e.kind === "hold")!.amountUsd);
      } else {
        expect(kinds.filter((k) => k === "debit"), "exactly one debit").to.have.length(1);
        const [tx] = await transactionsTo(target);
        const receipt = await env.origin.publicClient.getTransactionReceipt({ hash: tx! });
        const spentWei = receipt.gasUsed * receipt.effectiveGasPrice + VALUE;
        const debit = (spentWei * ETH_USD * 10n ** 6n + 10n ** 18n - 1n) / 10n ** 18n;
        expect(lines.find((e) => e.kind === "debit")!.amountUsd, "the debit is what the receipt paid").to.equal(debit.toString());
        expectedDebits += debit;
      }
      expect(balance.heldUsd, "no hold left held").to.equal("0");
      expect(balance.creditedUsd).to.equal(CREDITED_USD.toString());
      expect(balance.debitedUsd, "debited exactly what the receipts paid").to.equal(expectedDebits.toString());
      expect(balance.availableUsd).to.equal((CREDITED_USD - expectedDebits).toString());
    }

    /** The transactions mined to `target` (every block since the chain started: a handful). */
    async function transactionsTo(target: Address): Promise<Hex[]> {
      const head = await env.origin.publicClient.getBlockNumber();
      const found: Hex[] = [];
      for (let n = 0n; n <= head; n++) {
        const block = await env.origin.publicClient.getBlock({ blockNumber: n, includeTransactions: true });
        for (const tx of block.transactions) if (tx.to?.toLowerCase() === target.toLowerCase()) found.push(tx.hash);
      }
      return found;
    }

    it("killedAfterTheHold_beforeTheTransactionIsRecorded_theSweeperReleasesTheHold_nothingSent", async () => {
      const target = freshAddress();
      const nonceBefore = await relayerNonce();
      await killWhileHeld(target, { kind: "hang", methods: ["eth_getTransactionCount"] }, relayersNonceSync);
      const state = await stored(target);
      expect(state.holds.map((h) => h.state), "killed with the hold taken").to.deep.equal(["held"]);
      expect(state.transactions, "and no transaction recorded").to.deep.equal([]);
      // The lease runs out while the process is down (the hold is aged by it, as ten minutes would).
      await withStore((store) => store.engine.query(`UPDATE app_balance_holds SET created_at = created_at - interval '${EXECUTE_HOLD_LEASE_MS + 60_000} milliseconds' WHERE id = $1`, [state.holds[0]!.id]));
      await start();
      await expectExactlyOnce(target, state.requestId, 0, nonceBefore);
    });

    it("killedAfterTheHold_beforeTheTransactionIsRecorded_theClientRetries_theSameHoldPaysOnce", async () => {
      const target = freshAddress();
      const nonceBefore = await relayerNonce();
      await killWhileHeld(target, { kind: "hang", methods: ["eth_getTransactionCount"] }, relayersNonceSync);
      const state = await stored(target);
      expect(state.holds.map((h) => h.state)).to.deep.equal(["held"]);
      expect(state.transactions).to.deep.equal([]);
      await start();
      const retried = await post(target);
      expect(retried?.status, JSON.stringify(retried?.body)).to.equal(200);
      expect(retried!.body.requestId).to.equal(state.requestId);
      await expectExactlyOnce(target, state.requestId, 1, nonceBefore);
    });

    it("killedWithTheTransactionRecorded_beforeTheBroadcastReachedTheChain_reBroadcastAfterRestart_debitedOnce", async () => {
      const target = freshAddress();
      const nonceBefore = await relayerNonce();
      await killWhileHeld(target, { kind: "hang", methods: ["eth_sendRawTransaction"] });
      const state = await stored(target);
      expect(state.holds.map((h) => h.state)).to.deep.equal(["held"]);
      expect(state.transactions.map((t) => t.state), "recorded before the broadcast").to.deep.equal(["pending"]);
      expect(await relayerNonce(), "nothing reached the chain").to.equal(nonceBefore);
      await start();
      // The client never got an answer and posts the same execution again: it is the recorded one, nothing new is sent.
      const retried = await post(target);
      expect(retried?.status, JSON.stringify(retried?.body)).to.equal(200);
      expect(retried!.body).to.include({ requestId: state.requestId, message: "already submitted" });
      await expectExactlyOnce(target, state.requestId, 1, nonceBefore);
    });

    it("killedAfterTheBroadcast_beforeItIsMined_minedAfterRestart_debitedOnce", async () => {
      const target = freshAddress();
      const nonceBefore = await relayerNonce();
      await start();
      await env.origin.testClient.setAutomine(false);
      const answer = await post(target);
      expect(answer?.status, JSON.stringify(answer?.body)).to.equal(200);
      await run.kill();
      const state = await stored(target);
      expect(state.holds.map((h) => h.state)).to.deep.equal(["held"]);
      expect(state.transactions.map((t) => t.state)).to.deep.equal(["pending"]);
      expect(await relayerNonce(), "in the mempool, not mined").to.equal(nonceBefore);
      await start();
      await env.origin.testClient.mine({ blocks: 1 });
      await env.origin.testClient.setAutomine(true);
      await expectExactlyOnce(target, state.requestId, 1, nonceBefore);
    });

    it("killedAfterTheTransactionIsMined_beforeTheReceiptIsRecorded_settledOnceAfterRestart", async () => {
      const target = freshAddress();
      const nonceBefore = await relayerNonce();
      await start();
      await proxy.setMode({ kind: "hang", methods: ["eth_getTransactionReceipt"] });
      const answer = await post(target);
      expect(answer?.status, JSON.stringify(answer?.body)).to.equal(200);
      await waitFor(async () => (await relayerNonce()) === nonceBefore + 1 && proxy.held().some((r) => r.method === "eth_getTransactionReceipt"), 30_000, "mined, and the follower waiting for its receipt");
      await run.kill();
      await proxy.setMode({ kind: "pass" });
      const state = await stored(target);
      expect(state.holds.map((h) => h.state), "mined, not yet settled").to.deep.equal(["held"]);
      expect(state.transactions.map((t) => t.state)).to.deep.equal(["pending"]);
      await start();
      await expectExactlyOnce(target, state.requestId, 1, nonceBefore);
    });
  });
}

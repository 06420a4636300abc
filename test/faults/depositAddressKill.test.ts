// Fault: the service process SIGKILLed while it forwards a payment out of a strict deposit address,
// then restarted on the same database. The payer sends a plain transfer (native, or an ERC-20
// `transfer`) to the address a quote named; the service detects it at a final block and forwards it
// with one `deployAndForward` through the solver's nonce manager, whose store transaction moves the
// address `watching` → `forwarding`. The kill points are made deterministic by a JSON-RPC proxy in front
// of the origin chain (./chainProxy.ts) that holds one method's answers, so the process is parked at a
// known line when the test kills it:
//  1. detected, before the forwarding is recorded (its gas estimate, eth_estimateGas to the factory, held);
//  2. recorded, but the broadcast never reached the chain (eth_sendRawTransaction held, not forwarded);
//  3. broadcast, not mined (the origin chain's automine off; mined after the restart);
//  4. mined, not yet seen (eth_sendRawTransaction forwarded, its answer held: the node mined it, the
//     process never heard back and indexed nothing after it).
// Each time the test first checks the store and the chain are in the state the point names (so the
// test cannot drift to another point unnoticed), restarts, and asserts: exactly one transaction to the
// factory and one `Forwarded` of the address onchain, one `Deposited` under the quote's order, the
// request reaches `success` once (one `success` in its status events, the recipient paid exactly the
// quoted amount once), one stored forwarding transaction, and the address empty. Both store engines,
// one pair of chains per engine shared by the points; runs under `npm run test:faults`.
import { expect } from "chai";
import { WORKER_LEASE_MIN_MS } from "../../ts/service/solver/startSolver.ts";
import { erc20Abi, getAddress, parseEventLogs, zeroAddress, type Address, type Hex } from "viem";
import { depositAddressFactoryAbi } from "../../ts/abi/DepositAddressFactory.ts";
import { depositoryAbi } from "../../ts/abi/Depository.ts";
import { canonicalAddress, canonicalHex, type Bytes32 } from "../../ts/service/model/values.ts";
import { waitFor } from "../service/solver/solverHelpers.ts";
import { freshAddress, type TwoChains } from "../service/solver/twoChains.ts";
import type { ChainProxy, ProxyMode } from "./chainProxy.ts";
import { useRestartedService } from "./restartedService.ts";

type KillPoint = "beforeRecorded" | "recordedNotBroadcast" | "broadcastNotMined" | "minedNotSeen";
type Currency = "native" | "erc20";
type DepositAddressQuote = {
  steps: { requestId: Hex; depositAddress: string }[];
  details: { currencyIn: { amount: string }; currencyOut: { amount: string } };
};
type Scenario = { requestId: Bytes32; address: Address; currency: Address; amountIn: bigint; amountOut: bigint; recipient: Address; fromBlock: bigint };

/**
 * The points and currencies run: every point native; an ERC-20 where the currency matters, the point
 * whose restart detects the payment again (its Transfer log; the other points never re-detect).
 */
const SCENARIOS: [KillPoint, Currency][] = [
  ["beforeRecorded", "native"],
  ["recordedNotBroadcast", "native"],
  ["broadcastNotMined", "native"],
  ["minedNotSeen", "native"],
  ["beforeRecorded", "erc20"],
];

for (const engine of ["pglite", "postgres"] as const) {
  describe(`fault: service SIGKILLed while forwarding a deposit-address payment [${engine}]`, function () {
    this.timeout(600_000);
    const run = useRestartedService(engine);
    let env: TwoChains;
    let proxy: ChainProxy;
    let factory: Address;

    before(() => {
      env = run.env;
      proxy = run.proxy;
      factory = env.config.chains.find((c) => c.id === env.origin.chainId)!.contracts.depositAddressFactory!;
      expect(factory, "the origin chain has a DepositAddressFactory").to.be.a("string");
    });
    const start = () => run.start({ name: "deposit-address-kill" });
    const withStore = run.withStore;
    const service = () => run.service!;
    const withOutput = (error: unknown): never => {
      throw new Error(`${(error as Error).message}\n${run.service?.output().slice(-4000) ?? ""}`);
    };

    /** A strict deposit-address quote from the running service: native → native, or fUSD → fUSD. */
    async function quote(currency: Currency): Promise<Scenario> {
      const token = currency === "native" ? zeroAddress : env.stablecoin;
      const recipient = freshAddress();
      const response = await fetch(`${service().url}/quote/v2`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({
          user: env.user.address,
          recipient,
          originChainId: env.origin.chainId,
          destinationChainId: env.destination.chainId,
          originCurrency: token,
          destinationCurrency: token,
          amount: currency === "native" ? "50000000000000000" : "20000000",
          tradeType: "EXACT_INPUT",
          useDepositAddress: true,
          strict: true,
        }),
      });
      const body = (await response.json()) as DepositAddressQuote;
      expect(response.status, JSON.stringify(body)).to.equal(200);
      const [step] = body.steps;
      return {
        requestId: canonicalHex(step!.requestId),
        address: getAddress(step!.depositAddress),
        currency: token,
        amountIn: BigInt(body.details.currencyIn.amount),
        amountOut: BigInt(body.details.currencyOut.amount),
        recipient,
        fromBlock: (await env.origin.publicClient.getBlockNumber()) + 1n,
      };
    }

    /** The payer's plain transfer to the address, straight to the node (not through the proxy); not waited for. */
    function pay(s: Scenario): Promise<Hex> {
      const wallet = env.origin.walletClient(env.user.privateKey);
      return s.currency === zeroAddress
        ? wallet.sendTransaction({ account: wallet.account, chain: wallet.chain, to: s.address, value: s.amountIn })
        : wallet.writeContract({ account: wallet.account, chain: wallet.chain, address: s.currency, abi: erc20Abi, functionName: "transfer", args: [s.address, s.amountIn] });
    }

    const balanceOf = (s: Scenario, at: Address) =>
      s.currency === zeroAddress
        ? env.origin.publicClient.getBalance({ address: at })
        : env.origin.publicClient.readContract({ address: s.currency, abi: erc20Abi, functionName: "balanceOf", args: [at] });
    const received = (s: Scenario) =>
      s.currency === zeroAddress
        ? env.destination.publicClient.getBalance({ address: s.recipient })
        : env.destination.publicClient.readContract({ address: s.currency, abi: erc20Abi, functionName: "balanceOf", args: [s.recipient] });
    const deployed = async (s: Scenario) => (await env.origin.publicClient.getCode({ address: s.address })) !== undefined;

    /** The transactions to the factory mined since the scenario started (one scenario at a time: a handful of blocks). */
    async function factoryTransactions(s: Scenario): Promise<Hex[]> {
      const head = await env.origin.publicClient.getBlockNumber();
      const found: Hex[] = [];
      for (let n = s.fromBlock; n <= head; n++) {
        const block = await env.origin.publicClient.getBlock({ blockNumber: n, includeTransactions: true });
        for (const tx of block.transactions) if (tx.to?.toLowerCase() === factory.toLowerCase()) found.push(tx.hash);
      }
      return found;
    }

    /** What the store holds for the scenario's address (no service running). */
    function stored(s: Scenario) {
      return withStore(async (store) => {
        const row = await store.getDepositAddress(env.origin.chainId, canonicalAddress(s.address));
        const txs = await store.engine.query<{ nonce: number; state: string }>("SELECT nonce, state FROM solver_transactions WHERE purpose = 'deposit-address-forward' AND subject = $1", [`${env.origin.chainId}:${canonicalAddress(s.address)}`]);
        const request = await store.getRequest(s.requestId);
        const statuses = (await store.requestEvents(s.requestId)).map((e) => e.status);
        return { state: row?.state, transactions: txs.rows, status: request?.status ?? "waiting", statuses };
      });
    }

    /** With the service running: sets `held`, pays, and kills the process once `parked` holds (it waits there). */
    async function killWhile(s: Scenario, held: ProxyMode, parked: () => Promise<boolean>): Promise<void> {
      await proxy.setMode(held);
      await pay(s);
      await waitFor(parked, 60_000, `the process parked (${held.kind})`).catch(withOutput);
      await run.kill();
      await proxy.setMode({ kind: "pass" });
    }
    const heldNow = (method: string, match: (params: unknown[]) => boolean = () => true) => proxy.held().some((r) => r.method === method && match(r.params));
    const toFactory = (params: unknown[]) => String((params[0] as { to?: string } | undefined)?.to).toLowerCase() === factory.toLowerCase();

    /** After the restart: forwarded once, deposited once, filled once, `success` once, the address empty. */
    async function expectExactlyOnce(s: Scenario): Promise<void> {
      const restartedAt = Date.now();
      await waitFor(
        async () => {
          const response = await fetch(`${service().url}/intents/status/v3?requestId=${s.requestId}`);
          return ((await response.json()) as { status: string }).status === "success";
        },
        120_000,
        "the request to succeed",
      ).catch(withOutput);
      // A few more solver passes: nothing more may happen. The restarted process is a new lease owner:
      // its background passes (which follow the forwarding to its receipt) begin once the killed
      // process's lease has lapsed — within WORKER_LEASE_MIN_MS and a third (docs/decisions.md) — so the
      // passes are waited for past that too.
      const lapsedAt = restartedAt + (WORKER_LEASE_MIN_MS * 4) / 3;
      await new Promise((resolve) => setTimeout(resolve, Math.max(1500, lapsedAt + 1500 - Date.now())));
      const origin = env.origin.publicClient;
      expect(await factoryTransactions(s), "exactly one deployAndForward onchain").to.have.length(1);
      const forwarded = await origin.getContractEvents({ address: factory, abi: depositAddressFactoryAbi, eventName: "Forwarded", args: { forwarder: s.address }, fromBlock: 0n });
      expect(forwarded, "one Forwarded of the address").to.have.length(1);
      const orderId = (forwarded[0]!.args as { orderId: Hex }).orderId;
      const depository = env.config.chains.find((c) => c.id === env.origin.chainId)!.contracts.depository;
      const deposits = await origin.getContractEvents({ address: depository, abi: depositoryAbi, eventName: "Deposited", args: { id: orderId }, fromBlock: 0n });
      expect(deposits, "one Deposited under the quote's order").to.have.length(1);
      const receipt = await origin.getTransactionReceipt({ hash: forwarded[0]!.transactionHash });
      expect(parseEventLogs({ abi: depositoryAbi, logs: receipt.logs, eventName: "Deposited" }), "the Deposited is the forwarding's").to.have.length(1);
      expect(await received(s), "the recipient was paid the quoted amount, once").to.equal(s.amountOut);
      expect(await balanceOf(s, s.address), "the address is empty").to.equal(0n);
      await run.kill();
      const after = await stored(s);
      expect(after.state).to.equal("forwarding");
      expect(after.transactions, "one forwarding transaction stored, mined").to.deep.equal([{ nonce: after.transactions[0]?.nonce, state: "mined" }]);
      expect(after.statuses.filter((status) => status === "success"), `success once: ${after.statuses.join(",")}`).to.have.length(1);
    }

    for (const [point, currency] of SCENARIOS) {
      it(`killed ${point}, ${currency}: forwarded and filled exactly once after the restart`, async () => {
        await start();
        const s = await quote(currency);
        const origin = env.origin;
        if (point === "beforeRecorded") {
          await killWhile(s, { kind: "hang", methods: ["eth_estimateGas"] }, async () => heldNow("eth_estimateGas", toFactory));
          const state = await stored(s);
          expect(state, "detected, nothing recorded").to.deep.include({ state: "watching", transactions: [], status: "waiting" });
          expect(await deployed(s), "nothing reached the chain").to.equal(false);
        } else if (point === "recordedNotBroadcast") {
          await killWhile(s, { kind: "hang", methods: ["eth_sendRawTransaction"] }, async () => heldNow("eth_sendRawTransaction"));
          const state = await stored(s);
          expect(state, "recorded before the broadcast").to.deep.include({ state: "forwarding", status: "waiting" });
          expect(state.transactions.map((t) => t.state)).to.deep.equal(["pending"]);
          expect(await factoryTransactions(s), "nothing reached the chain").to.deep.equal([]);
        } else if (point === "broadcastNotMined") {
          // The payment mined by hand; the forwarding then waits in the mempool.
          await origin.testClient.setAutomine(false);
          const pendingBefore = await origin.publicClient.getTransactionCount({ address: env.solver, blockTag: "pending" });
          await pay(s);
          await origin.testClient.mine({ blocks: 1 });
          await waitFor(async () => (await origin.publicClient.getTransactionCount({ address: env.solver, blockTag: "pending" })) > pendingBefore, 60_000, "the forwarding in the mempool").catch(withOutput);
          await run.kill();
          const state = await stored(s);
          expect(state, "broadcast, not mined").to.deep.include({ state: "forwarding", status: "waiting" });
          expect(state.transactions.map((t) => t.state)).to.deep.equal(["pending"]);
          expect(await deployed(s)).to.equal(false);
        } else {
          // The node gets the broadcast (automine: mined at once); the answer never comes back.
          const forwarderDeployed = async () => heldNow("eth_sendRawTransaction") && (await deployed(s));
          await killWhile(s, { kind: "forwardThenHang", methods: ["eth_sendRawTransaction"] }, forwarderDeployed);
          const state = await stored(s);
          expect(state, "mined, the Deposited not indexed").to.deep.include({ state: "forwarding", status: "waiting" });
          expect(state.transactions.map((t) => t.state)).to.deep.equal(["pending"]);
          expect(await factoryTransactions(s)).to.have.length(1);
        }
        await start();
        if (point === "broadcastNotMined") {
          await origin.testClient.mine({ blocks: 1 });
          await origin.testClient.setAutomine(true);
        }
        await expectExactlyOnce(s);
      });
    }
  });
}

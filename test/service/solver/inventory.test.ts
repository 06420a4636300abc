// Inventory accounting: fills in flight reserve the solver's balance on their destination chain, so
// concurrent fills (one process or replicas) never spend it twice; what is left is the capacity quotes
// and GET /chains publish.
import { expect } from "chai";
import { parseEther, zeroAddress, type Address } from "viem";
import { createSolverInventory } from "../../../ts/service/chains/solverInventory.ts";
import { createChainClients } from "../../../ts/service/chains/chainClients.ts";
import { capacityShortfall } from "../../../ts/service/quote/quoteCapacity.ts";
import { createSolver } from "../../../ts/service/solver/startSolver.ts";
import type { Store } from "../../../ts/service/store/createStore.ts";
import { hex, testNewRequest } from "../fixtures/testRequest.ts";
import { describeEachEngine } from "../store/engines.ts";
import { filledLogs } from "./solverHelpers.ts";
import { deposit, makeIntent, quoteNative, saveQuote, startTwoChains, tokenBalance, type TwoChains } from "./twoChains.ts";
import { canonicalAddress, canonicalHex } from "../../../ts/service/model/values.ts";

describe("quoteCapacity", () => {
  it("capacityShortfall_withinAvailable_isNull_overBalance_isBalanceTooLow_else_isCapacityExceeded", () => {
    const line = { balance: 100n, available: 60n };
    expect(capacityShortfall(line, 60n)).to.equal(null);
    expect(capacityShortfall(line, 61n)).to.equal("SOLVER_CAPACITY_EXCEEDED");
    expect(capacityShortfall(line, 101n)).to.equal("SOLVER_BALANCE_TOO_LOW");
  });
});

describeEachEngine("inventory reservations", (engine) => {
  const pending = async (store: Store, n: number) => {
    await store.createRequest(testNewRequest(n));
    await store.transitionRequest(hex(n), "pending");
  };

  it("reserveFill_manyFillsAtOnce_reserveNoMoreThanTheBalance_theRestCapacityExceeded", async () => {
    const store = engine.store;
    for (let n = 1; n <= 10; n++) await pending(store, n);
    // Native balance 100: each fill needs 30 + 2 gas; three fit.
    const results = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        store.reserveFill({ requestId: hex(i + 1), chainId: 31338, currency: zeroAddress, amount: 30n, gas: 2n, nativeBalance: 100n, tokenBalance: 0n }),
      ),
    );
    expect(results.filter((r) => r.ok)).to.have.length(3);
    expect(results.filter((r) => !r.ok).map((r) => !r.ok && r.failReason)).to.deep.equal(Array(7).fill("SOLVER_CAPACITY_EXCEEDED"));
    expect(await store.reservedAmounts()).to.deep.equal([{ chainId: 31338, currency: zeroAddress, reserved: 96n }]);
  });

  it("reserveFill_countsOnlyRequestsStillInFlight_andATokenFillsGasInNative", async () => {
    const store = engine.store;
    const token = "0x00000000000000000000000000000000000000aa" as Address;
    for (let n = 1; n <= 3; n++) await pending(store, n);
    expect((await store.reserveFill({ requestId: hex(1), chainId: 31338, currency: canonicalAddress(token), amount: 70n, gas: 5n, nativeBalance: 6n, tokenBalance: 100n })).ok).to.equal(true);
    // The token is held; native gas too (6 − 5 = 1 left).
    const second = await store.reserveFill({ requestId: hex(2), chainId: 31338, currency: canonicalAddress(token), amount: 20n, gas: 5n, nativeBalance: 6n, tokenBalance: 100n });
    expect(second.ok === false && second.failReason).to.equal("SOLVER_CAPACITY_EXCEEDED");
    expect((await store.reserveFill({ requestId: hex(3), chainId: 31338, currency: canonicalAddress(token), amount: 101n, gas: 0n, nativeBalance: 6n, tokenBalance: 100n })).ok).to.equal(false);
    // Request 1's fill landed (success): its reservation no longer counts.
    await store.transitionRequest(hex(1), "submitted");
    await store.transitionRequest(hex(1), "success");
    expect((await store.reserveFill({ requestId: hex(2), chainId: 31338, currency: canonicalAddress(token), amount: 20n, gas: 5n, nativeBalance: 6n, tokenBalance: 30n })).ok).to.equal(true);
    const third = await store.reserveFill({ requestId: hex(3), chainId: 31338, currency: canonicalAddress(token), amount: 200n, gas: 0n, nativeBalance: 6n, tokenBalance: 30n });
    expect(third.ok === false && third.failReason).to.equal("SOLVER_BALANCE_TOO_LOW");
  });
});

describe("inventory on real chains", function () {
  this.timeout(300_000);
  let env: TwoChains;
  before(async () => {
    env = await startTwoChains();
  });
  after(async () => env?.close());

  it("solver_depositsThatTogetherExceedItsBalance_fillsWhatTheBalanceCovers_refundsTheRest_neverOverspends", async () => {
    // The solver holds enough for two 0.99 ETH fills (plus gas), four deposits arrive at once and the
    // solver steps them all concurrently: two fill, two fail (capacity) and are refunded; no fill reverts.
    const solverBalance = parseEther("2.1");
    await env.destination.testClient.setBalance({ address: env.solver, value: solverBalance });
    const { createStore } = await import("../../../ts/service/store/createStore.ts");
    const store = await createStore();
    try {
      const intents = Array.from({ length: 4 }, () => makeIntent(env));
      for (const intent of intents) {
        await saveQuote(store, intent);
        await deposit(env, { orderId: intent.orderId, amount: intent.originAmount });
      }
      const solver = createSolver({ config: env.config, store, settings: { concurrency: 8 } });
      for (let i = 0; i < 6; i++) await solver.tick();
      const requests = await Promise.all(intents.map((intent) => store.getRequest(intent.requestId)));
      const filled = requests.filter((r) => r!.status === "success");
      const refused = requests.filter((r) => r!.status === "refund");
      expect(filled, JSON.stringify(requests.map((r) => [r!.status, r!.failReason]))).to.have.length(2);
      // Held by the two fills in flight (the reservation), or — when those had landed before this step read
      // the balance — short outright.
      for (const r of refused) expect(r!.failReason).to.be.oneOf(["SOLVER_CAPACITY_EXCEEDED", "SOLVER_BALANCE_TOO_LOW"]);
      for (const r of filled) expect(await filledLogs(env, r!.id)).to.have.length(1);
      for (const r of refused) expect(await filledLogs(env, r!.id)).to.have.length(0);
      expect((await tokenBalance(env.destination, zeroAddress, env.solver)) > 0n, "the solver never overspent").to.equal(true);
      // What is left is published: below one more fill.
      const inventory = createSolverInventory({ chains: env.config.chains, clients: createChainClients(env.config.chains), store, solver: canonicalAddress(env.solver) });
      const line = await inventory.line(env.destination.chainId, zeroAddress);
      expect(line!.reserved).to.equal(0n);
      expect(line!.available < parseEther("0.99")).to.equal(true);
    } finally {
      await store.close();
      await env.destination.testClient.setBalance({ address: env.solver, value: parseEther("10000") });
    }
  });

  it("line_aConfiguredTokenThatCannotBeRead_throwsForThatToken_only_theChainsOtherLinesStayReadable", async () => {
    // A configured ERC-20 with no code at its address (a misconfiguration, or a token gone): its balance
    // read fails. Failed before: the whole chain's lines threw, so every quote to the chain was 503.
    const broken = canonicalAddress("0x00000000000000000000000000000000000000bb");
    const chains = env.config.chains.map((c) =>
      c.id === env.destination.chainId ? { ...c, erc20Currencies: [...c.erc20Currencies, { ...c.erc20Currencies[0]!, address: broken, symbol: "BRK" }] } : c,
    );
    const { createStore } = await import("../../../ts/service/store/createStore.ts");
    const store = await createStore();
    try {
      const inventory = createSolverInventory({ chains, clients: createChainClients(chains), store, solver: canonicalAddress(env.solver) });
      const native = await inventory.line(env.destination.chainId, zeroAddress);
      expect(native!.balance > 0n).to.equal(true);
      const lines = await inventory.lines(env.destination.chainId);
      expect(lines.map((l) => l.currency)).to.not.include(broken);
      expect(lines.map((l) => l.currency)).to.include(zeroAddress);
      let thrown: unknown;
      await inventory.line(env.destination.chainId, canonicalHex(broken)).catch((error: unknown) => (thrown = error));
      expect(thrown, "the unreadable token's own line throws").to.not.equal(undefined);
    } finally {
      await store.close();
    }
  });

  it("quoteAndChains_publishCapacity_andRefuseAQuoteAboveIt", async () => {
    const { startServer } = await import("../../../ts/service/server.ts");
    const { createStore } = await import("../../../ts/service/store/createStore.ts");
    const store = await createStore();
    const server = await startServer({ config: env.config, deps: { store }, solver: false, webhooks: false });
    try {
      await env.destination.testClient.setBalance({ address: env.solver, value: parseEther("1") });
      // A fill in flight holds 0.6 of it.
      const held = makeIntent(env);
      await saveQuote(store, held);
      await deposit(env, { orderId: held.orderId, amount: held.originAmount });
      const { indexDeposits, DEFAULT_INDEX_OPTIONS } = await import("../../../ts/service/solver/indexer/indexDeposits.ts");
      const clients = createChainClients(env.config.chains);
      await indexDeposits({ store, client: clients.get(env.origin.chainId), chains: env.config.chains, log: { debug() {}, info() {}, warn() {}, error() {} } }, DEFAULT_INDEX_OPTIONS);
      expect((await store.reserveFill({ requestId: held.requestId, chainId: env.destination.chainId, currency: zeroAddress, amount: parseEther("0.6"), gas: 0n, nativeBalance: parseEther("1"), tokenBalance: 0n })).ok).to.equal(true);
      await new Promise((resolve) => setTimeout(resolve, 1100)); // past the inventory's 1 s cache

      const chains = (await (await fetch(`${server.url}/chains`)).json()) as { chains: Array<{ id: number; solverCurrencies: Array<{ address: string; capacity?: string }> }> };
      const native = chains.chains.find((c) => c.id === env.destination.chainId)!.solverCurrencies.find((c) => c.address === zeroAddress)!;
      const capacity = BigInt(native.capacity!);
      expect(capacity < parseEther("0.4") && capacity > parseEther("0.3")).to.equal(true);

      const quote = (amount: bigint) => quoteNative(server.url, env, amount, "EXACT_OUTPUT");
      expect((await quote(parseEther("0.2"))).status).to.equal(200);
      const overCapacity = await quote(parseEther("0.5"));
      expect(overCapacity.status).to.equal(400);
      expect(((await overCapacity.json()) as { errorCode: string }).errorCode).to.equal("SOLVER_CAPACITY_EXCEEDED");
      const overBalance = await quote(parseEther("2"));
      expect(((await overBalance.json()) as { errorCode: string }).errorCode).to.equal("SOLVER_BALANCE_TOO_LOW");
    } finally {
      await server.close();
      await store.close();
      await env.destination.testClient.setBalance({ address: env.solver, value: parseEther("10000") });
    }
  });
});

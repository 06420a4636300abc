// Nobody else's deposit can kill an order (issue 11, item 2): an attacker who sees a user's quote
// (its orderId is public in the deposit transaction) deposits first under the same orderId — 1 wei,
// a worthless token, or on the other chain, where the Depository has the same address. The deposit
// that does not match the quote (chain, currency, amount ≥ quoted) must not consume the order: the
// user's real deposit still fills it, and the attacker's is a stray returned to its depositor (or left
// for the operator). Two real EDR chains, the real solver, both store engines.
import { expect } from "chai";
import type { Address, Hex } from "viem";
import { depositoryAbi } from "../../../ts/abi/Depository.ts";
import { mockStablecoinAbi } from "../../../ts/abi/MockStablecoin.ts";
import type { DevnetChain } from "../../../ts/devnet/devnetChain.ts";
import { createChainClients } from "../../../ts/service/chains/chainClients.ts";
import { SILENT_LOG } from "../../../ts/service/logging/logger.ts";
import { indexTransaction } from "../../../ts/service/solver/indexer/indexTransaction.ts";
import { createSolver } from "../../../ts/service/solver/startSolver.ts";
import type { StoredStrayDeposit } from "../../../ts/service/store/solver/strayDeposits.ts";
import { describeEachEngine } from "../store/engines.ts";
import { ATTACKER, deployWorthlessToken } from "./hostileContracts.ts";
import { depository, filledLogs, tickUntil } from "./solverHelpers.ts";
import { deposit, freshAddress, makeIntent, NATIVE, saveQuote, startTwoChains, tokenBalance, type TwoChains } from "./twoChains.ts";
import { canonicalHex } from "../../../ts/service/model/values.ts";

describe("solver: front-run deposits", function () {
  this.timeout(600_000);
  let env: TwoChains;

  before(async () => {
    env = await startTwoChains();
  });
  after(async () => {
    await env?.close();
  });

  /** The attacker deposits `amount` of `token` under `orderId` on `chain`, crediting `depositor`. */
  async function attackerDeposit(args: { chain: DevnetChain; orderId: Hex; amount: bigint; token?: Address; depositor: Address; wait?: boolean }): Promise<Hex> {
    const wallet = args.chain.walletClient(ATTACKER.privateKey);
    const target = depository(env, args.chain);
    const token = args.token ?? NATIVE;
    let hash: Hex;
    if (token === NATIVE) {
      hash = await wallet.writeContract({ chain: wallet.chain, address: target, abi: depositoryAbi, functionName: "depositNative", args: [args.depositor, args.orderId], value: args.amount });
    } else {
      for (const call of [
        { functionName: "mint", args: [ATTACKER.address, args.amount] },
        { functionName: "approve", args: [target, args.amount] },
      ] as const) {
        const h = await wallet.writeContract({ chain: wallet.chain, address: token, abi: mockStablecoinAbi, ...call } as Parameters<typeof wallet.writeContract>[0]);
        await args.chain.publicClient.waitForTransactionReceipt({ hash: h });
      }
      hash = await wallet.writeContract({ chain: wallet.chain, address: target, abi: depositoryAbi, functionName: "depositErc20", args: [args.depositor, token, args.amount, args.orderId] });
    }
    if (args.wait !== false) {
      const receipt = await args.chain.publicClient.waitForTransactionReceipt({ hash });
      if (receipt.status !== "success") throw new Error(`attacker deposit ${hash} reverted`);
    }
    return hash.toLowerCase() as Hex;
  }

  describeEachEngine("a deposit that does not match the quote never consumes the order", (engine) => {
    const newSolver = () => createSolver({ config: env.config, store: engine.store });

    beforeEach(async () => {
      // The service runs before any deposit arrives (its first tick starts stray tracking).
      await newSolver().tick();
    });

    async function strayOf(orderId: Hex, txHash: Hex, done: (s: StoredStrayDeposit) => boolean, solver = newSolver()): Promise<StoredStrayDeposit> {
      let stray: StoredStrayDeposit | undefined;
      for (let i = 0; i < 20; i++) {
        stray = (await engine.store.listStrayDepositsByOrderId(canonicalHex(orderId))).find((s) => s.txHash === txHash);
        if (stray && done(stray)) return stray;
        await solver.tick();
      }
      throw new Error(`stray ${txHash} never got there: ${JSON.stringify(stray, (_, v) => (typeof v === "bigint" ? v.toString() : v))}`);
    }

    /** The user's real deposit after the attack: the request fills from it, once, and repays the solver. */
    async function expectUserDepositFills(intent: ReturnType<typeof makeIntent>, solver: { tick(): Promise<void> }) {
      const userTx = (await deposit(env, { orderId: intent.orderId, amount: intent.originAmount, ...(intent.originCurrency !== NATIVE && { token: intent.originCurrency }) })).toLowerCase();
      const done = await tickUntil(solver, engine.store, intent.requestId, (r) => r.status !== "pending" && r.status !== "submitted" && (r.status !== "success" || r.solver?.repayment?.status === "confirmed"));
      expect({ status: done.status, failReason: done.failReason }).to.deep.equal({ status: "success", failReason: null });
      expect(done.inTxHashes).to.deep.equal([userTx]);
      expect(done.solver!.deposit).to.include({ txHash: userTx, chainId: env.origin.chainId, token: intent.originCurrency, amount: intent.originAmount });
      expect(await filledLogs(env, intent.requestId)).to.have.length(1);
      expect(await tokenBalance(env.destination, intent.destinationCurrency, intent.recipient)).to.equal(intent.destinationAmount);
      expect((await engine.store.requestEvents(intent.requestId)).map((e) => e.status)).to.deep.equal(["waiting", "pending", "submitted", "success"]);
      return done;
    }

    it("frontRun_oneWeiDepositUnderTheUsersOrderId_isAStray_andTheUsersDepositStillFills", async () => {
      const intent = makeIntent(env);
      await saveQuote(engine.store, intent);
      const depositor = freshAddress();
      const attack = await attackerDeposit({ chain: env.origin, orderId: intent.orderId, amount: 1n, depositor });
      const solver = newSolver();
      await solver.tick();
      expect((await engine.store.getRequest(intent.requestId))?.status ?? "waiting").to.equal("waiting");

      await expectUserDepositFills(intent, solver);
      const stray = await strayOf(intent.orderId, attack, (s) => s.state !== "pending");
      expect(stray).to.include({ reason: "DEPOSITED_AMOUNT_TOO_LOW_TO_FILL", requestId: intent.requestId, depositor, token: NATIVE, amount: 1n, chainId: env.origin.chainId });
      // 1 wei is below the dust threshold: not sent back (it would cost the operator a payout's gas).
      expect(stray).to.include({ state: "ignored", ignoredReason: "AMOUNT_TOO_LOW_TO_REFUND", refund: null });
    });

    it("frontRun_depositInAWorthlessToken_isAStrayLeftForTheOperator_andTheUsersDepositStillFills", async () => {
      const worthless = await deployWorthlessToken(env.origin);
      const intent = makeIntent(env);
      await saveQuote(engine.store, intent);
      const attack = await attackerDeposit({ chain: env.origin, orderId: intent.orderId, amount: 10n ** 12n, token: worthless, depositor: ATTACKER.address });
      const solver = newSolver();
      await solver.tick();
      expect((await engine.store.getRequest(intent.requestId))?.status ?? "waiting").to.equal("waiting");

      await expectUserDepositFills(intent, solver);
      const stray = await strayOf(intent.orderId, attack, (s) => s.state !== "pending");
      // Ferry never calls a token it was not configured with: the operator decides.
      expect(stray).to.include({ reason: "INCORRECT_DEPOSIT_CURRENCY", requestId: intent.requestId, token: worthless, state: "ignored", ignoredReason: "UNSUPPORTED_CURRENCY", refund: null });
    });

    it("frontRun_depositOnTheOtherChainUnderTheSameOrderId_isAStrayRefundedThere_andTheUsersDepositStillFills", async () => {
      const intent = makeIntent(env);
      await saveQuote(engine.store, intent);
      const depositor = freshAddress();
      // The Depository has the same address on both chains: the same orderId is depositable on the destination.
      const attack = await attackerDeposit({ chain: env.destination, orderId: intent.orderId, amount: intent.originAmount, depositor });
      const solver = newSolver();
      await solver.tick();
      expect((await engine.store.getRequest(intent.requestId))?.status ?? "waiting").to.equal("waiting");

      await expectUserDepositFills(intent, solver);
      const stray = await strayOf(intent.orderId, attack, (s) => s.state !== "pending");
      expect(stray).to.include({ reason: "DEPOSIT_CHAIN_MISMATCH", requestId: intent.requestId, chainId: env.destination.chainId, depositor, amount: intent.originAmount, state: "refunded" });
      expect(await tokenBalance(env.destination, NATIVE, depositor)).to.equal(intent.originAmount);
    });

    it("frontRun_oneWeiDepositNudgedThroughTheIndexRouteBeforeItIsMined_isNotAttachedToTheRequest", async () => {
      const intent = makeIntent(env);
      await saveQuote(engine.store, intent);
      const client = createChainClients(env.config.chains).get(env.origin.chainId);
      const deps = { store: engine.store, client, chains: env.config.chains, log: SILENT_LOG };
      let attack: Hex;
      await env.origin.testClient.setAutomine(false);
      try {
        attack = await attackerDeposit({ chain: env.origin, orderId: intent.orderId, amount: 1n, depositor: freshAddress(), wait: false });
        // POST /transactions/index on the attacker's pending transaction.
        expect(await indexTransaction(deps, canonicalHex(attack))).to.deep.equal({ state: "waiting", requestIds: [] });
        expect(await engine.store.getRequest(intent.requestId)).to.equal(null);
        await env.origin.testClient.mine({ blocks: 1 });
      } finally {
        await env.origin.testClient.setAutomine(true);
      }
      // Mined and confirmed: still not the order's deposit.
      expect(await indexTransaction(deps, canonicalHex(attack!))).to.deep.equal({ state: "indexed", requestIds: [] });
      await expectUserDepositFills(intent, newSolver());
    });

    it("mismatch_theUsersOwnShortDeposit_isAStrayRefundedToItsDepositor_andATopUpDepositStillFills", async () => {
      const intent = makeIntent(env);
      await saveQuote(engine.store, intent);
      const short = (await deposit(env, { orderId: intent.orderId, amount: intent.originAmount - 1n })).toLowerCase() as Hex;
      const solver = newSolver();
      const userBefore = await tokenBalance(env.origin, NATIVE, env.user.address);
      const stray = await strayOf(intent.orderId, short, (s) => s.state !== "pending", solver);
      expect(stray).to.include({ reason: "DEPOSITED_AMOUNT_TOO_LOW_TO_FILL", state: "refunded", amount: intent.originAmount - 1n });
      expect(await tokenBalance(env.origin, NATIVE, env.user.address)).to.equal(userBefore + intent.originAmount - 1n);
      // An unfunded quote stays `waiting` (also once it expires): no deposit matched it.
      expect((await engine.store.getRequest(intent.requestId))?.status ?? "waiting").to.equal("waiting");
      await expectUserDepositFills(intent, solver);
    });
  });
});

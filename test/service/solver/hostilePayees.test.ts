// Payouts to addresses someone else chose (issue 11, items 1 and 3): a stray deposit's depositor, a
// quote's refundTo, a fill's recipient may be a contract that burns gas, rejects native currency, or
// is blocklisted by the token. The operator's cost stays bounded, nobody's payout is held hostage
// (the solver's repayment lands), and the payee's funds are never lost: the Depository makes them
// claimable, and the service records that and tells the payee how to claim. Two EDR chains, both engines.
import { expect } from "chai";
import { parseEther, parseUnits, type Address, type Hex } from "viem";
import { depositoryAbi } from "../../../ts/abi/Depository.ts";
import { createSolver } from "../../../ts/service/solver/startSolver.ts";
import type { StoredRequest } from "../../../ts/service/model/storedRequest.ts";
import type { StoredStrayDeposit } from "../../../ts/service/store/solver/strayDeposits.ts";
import { describeEachEngine } from "../store/engines.ts";
import { attackerWrite, blocklistTokenAbi, deployBlocklistToken, deployGasBurningRecipient, deployRevertingRecipient } from "./hostileContracts.ts";
import { depository, filledLogs, tickUntil } from "./solverHelpers.ts";
import { chainNow, deposit, freshId, makeIntent, NATIVE, saveQuote, startTwoChains, tokenBalance, type TwoChains } from "./twoChains.ts";
import { canonicalAddress, canonicalHex } from "../../../ts/service/model/values.ts";

/** What a griefed payout may cost the operator at most (docs/performance.md: ~143k for a 5M-gas burner). */
const PAYOUT_GAS_BOUND = 200_000n;

describe("solver: hostile payees", function () {
  this.timeout(600_000);
  let env: TwoChains;

  before(async () => {
    env = await startTwoChains();
  });
  after(async () => {
    await env?.close();
  });

  async function claimable(payee: Address, token: Address): Promise<bigint> {
    return env.origin.publicClient.readContract({ address: depository(env, env.origin), abi: depositoryAbi, functionName: "claimable", args: [payee, token] });
  }

  async function gasUsed(hash: Hex): Promise<bigint> {
    return (await env.origin.publicClient.getTransactionReceipt({ hash })).gasUsed;
  }

  describeEachEngine("a payee that cannot receive gets a claimable balance; the operator's gas stays bounded", (engine) => {
    const newSolver = () => createSolver({ config: env.config, store: engine.store, ...(process.env.SOLVER_DEBUG ? { log: { debug() {}, info: (o: object, m: string) => console.log(m, o), warn: (o: object, m: string) => console.log(m, o), error: (o: object, m: string) => console.log(m, o) } } : {}) });
    const repaid = (r: StoredRequest) => r.solver?.repayment?.status === "confirmed" || r.parked !== null;

    beforeEach(async () => {
      await newSolver().tick();
    });

    async function expectClaimDetails(request: StoredRequest, kind: "refund" | "repayment", payee: Address, token: Address, amount: bigint) {
      expect(request.details).to.include({
        claimable: kind,
        claimChainId: env.origin.chainId,
        claimDepository: depository(env, env.origin).toLowerCase(),
        claimPayee: payee,
        claimToken: token,
        claimAmount: amount.toString(),
      });
      expect(request.details!.claimHow).to.be.a("string").and.include("claim(token, to)");
    }

    it("strayRefund_toADepositorThatBurnsGas_costsBoundedGas_andIsRecordedClaimable", async () => {
      const burner = await deployGasBurningRecipient(env.origin, 5_000_000n);
      const amount = parseEther("0.2");
      const wallet = env.origin.walletClient(env.user.privateKey);
      const hash = await wallet.writeContract({ chain: wallet.chain, address: depository(env, env.origin), abi: depositoryAbi, functionName: "depositNative", args: [burner, freshId()], value: amount });
      const receipt = await env.origin.publicClient.waitForTransactionReceipt({ hash });
      const key = { chainId: env.origin.chainId, txHash: canonicalHex(hash), logIndex: receipt.logs[0]!.logIndex };
      const solver = newSolver();
      let stray: StoredStrayDeposit | null = null;
      for (let i = 0; i < 10 && stray?.state !== "refunded"; i++) {
        await solver.tick();
        stray = await engine.store.getStrayDeposit(key);
      }
      expect(stray!.state).to.equal("refunded");
      const used = await gasUsed(stray!.refund!.hash!);
      console.log(`      stray refund to a 5M-gas burner: gasUsed ${used}`);
      expect(used < PAYOUT_GAS_BOUND).to.equal(true);
      expect(await claimable(burner, NATIVE)).to.equal(amount);
      expect(stray!.refund!.claimable).to.deep.equal([{ index: 0, to: burner, token: NATIVE, amount }]);
    });

    for (const hostile of ["rejectsNative", "burnsGas"] as const) {
      it(`repayment_refundToThat${hostile === "rejectsNative" ? "RejectsNative" : "BurnsGas"}_theSolverIsRepaid_andTheExcessIsRecordedClaimable`, async () => {
        const refundTo = hostile === "rejectsNative" ? await deployRevertingRecipient(env.origin) : await deployGasBurningRecipient(env.origin, 5_000_000n);
        const intent = makeIntent(env, { refundTo: canonicalAddress(refundTo) });
        await saveQuote(engine.store, intent);
        const excess = parseEther("0.05");
        await deposit(env, { orderId: intent.orderId, amount: intent.originAmount + excess });
        const done = await tickUntil(newSolver(), engine.store, intent.requestId, repaid);
        expect({ status: done.status, parked: done.parked }).to.deep.equal({ status: "success", parked: null });
        const repayment = done.solver!.repayment!;
        expect(repayment.calls).to.deep.equal([
          { to: env.solver.toLowerCase(), token: NATIVE, amount: intent.originAmount },
          { to: refundTo, token: NATIVE, amount: excess },
        ]);
        expect(repayment.claimable).to.deep.equal([{ index: 1, to: refundTo, token: NATIVE, amount: excess }]);
        const used = await gasUsed(repayment.hash!);
        console.log(`      repayment with a refundTo that ${hostile}: gasUsed ${used}`);
        expect(used < PAYOUT_GAS_BOUND).to.equal(true);
        expect(await claimable(refundTo, NATIVE)).to.equal(excess);
        expect(await claimable(env.solver, NATIVE)).to.equal(0n);
        await expectClaimDetails(done, "repayment", refundTo, NATIVE, excess);
      });
    }

    it("repayment_refundToBlocklistedByTheToken_theSolverIsRepaid_andTheExcessIsRecordedClaimable", async () => {
      const token = await deployBlocklistToken(env.origin);
      const intent = makeIntent(env, {
        originCurrency: canonicalAddress(token),
        originAmount: parseUnits("100", 6),
        destinationCurrency: canonicalAddress(env.stablecoin),
        destinationAmount: parseUnits("99", 6),
      });
      await saveQuote(engine.store, intent);
      const excess = parseUnits("3", 6);
      await attackerWrite(env.origin, { address: token, abi: blocklistTokenAbi, functionName: "mint", args: [env.user.address, intent.originAmount + excess] });
      await deposit(env, { orderId: intent.orderId, token, amount: intent.originAmount + excess });
      await attackerWrite(env.origin, { address: token, abi: blocklistTokenAbi, functionName: "setBlocked", args: [intent.refundTo, true] });
      const done = await tickUntil(newSolver(), engine.store, intent.requestId, repaid);
      expect({ status: done.status, parked: done.parked }).to.deep.equal({ status: "success", parked: null });
      expect(await tokenBalance(env.origin, token, env.solver)).to.equal(intent.originAmount);
      expect(done.solver!.repayment!.claimable).to.deep.equal([{ index: 1, to: intent.refundTo, token, amount: excess }]);
      expect(await claimable(intent.refundTo, token)).to.equal(excess);
      await expectClaimDetails(done, "repayment", intent.refundTo, token, excess);
    });

    for (const hostile of ["rejectsNative", "burnsGas"] as const) {
      it(`refund_toARefundToThat${hostile === "rejectsNative" ? "RejectsNative" : "BurnsGas"}_endsInRefundWithTheClaimInItsDetails_atBoundedGas`, async () => {
        const refundTo = hostile === "rejectsNative" ? await deployRevertingRecipient(env.origin) : await deployGasBurningRecipient(env.origin, 5_000_000n);
        // The quote expired before the deposit: the fill is never attempted, the deposit is refunded.
        // (A second before the latest block: the devnet may mine blocks sharing a timestamp.)
        const intent = makeIntent(env, { refundTo: canonicalAddress(refundTo), expiresAt: (await chainNow(env.origin)) - 1 });
        await saveQuote(engine.store, intent);
        await deposit(env, { orderId: intent.orderId, amount: intent.originAmount });
        const done = await tickUntil(newSolver(), engine.store, intent.requestId, (r) => r.status === "refund" || r.parked !== null || r.solver?.refund?.status === "reverted");
        expect({ status: done.status, failReason: done.failReason, refundFailReason: done.refundFailReason }).to.deep.equal({ status: "refund", failReason: "ORDER_EXPIRED", refundFailReason: null });
        expect(done.solver!.refund!.claimable).to.deep.equal([{ index: 0, to: refundTo, token: NATIVE, amount: intent.originAmount }]);
        const used = await gasUsed(done.solver!.refund!.hash!);
        console.log(`      refund to a refundTo that ${hostile}: gasUsed ${used}`);
        expect(used < PAYOUT_GAS_BOUND).to.equal(true);
        expect(await claimable(refundTo, NATIVE)).to.equal(intent.originAmount);
        await expectClaimDetails(done, "refund", refundTo, NATIVE, intent.originAmount);
      });
    }

    it("fill_toARecipientThatBurnsGas_isNeverSent_andTheDepositIsRefunded", async () => {
      const recipient = await deployGasBurningRecipient(env.destination, 5_000_000n);
      const intent = makeIntent(env, { recipient: canonicalAddress(recipient) });
      await saveQuote(engine.store, intent);
      await deposit(env, { orderId: intent.orderId, amount: intent.originAmount });
      const solverNonce = await env.destination.publicClient.getTransactionCount({ address: env.solver });
      const done = await tickUntil(newSolver(), engine.store, intent.requestId, (r) => r.status === "refund" || r.parked !== null);
      // The receiver forwards at most 50,000 gas to a native recipient: the simulation reverts, nothing is sent.
      expect({ status: done.status, failReason: done.failReason }).to.deep.equal({ status: "refund", failReason: "TRANSFER_FAILED" });
      expect(done.details!.error).to.equal("NativeTransferFailed");
      expect(await env.destination.publicClient.getTransactionCount({ address: env.solver })).to.equal(solverNonce);
      expect(await filledLogs(env, intent.requestId)).to.have.length(0);
      expect(await tokenBalance(env.origin, NATIVE, intent.refundTo)).to.equal(intent.originAmount);
    });
  });
});

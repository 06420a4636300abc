/**
 * Payments into a strict deposit address after its one decision (ts/service/solver/depositAddress/
 * laterPayments.ts) on two real EDR chains, both store engines, attacks first:
 * - the bound amount paid a second time after the first payment was forwarded: refunded to `refundTo`
 *   (DOUBLE_SPEND), never deposited twice, the forwarded request untouched; two racing passes and a
 *   restart plan and send one refund;
 * - a payment after the address was refunded (too little, then the quote expired): refunded too
 *   (ORDER_EXPIRED), and a third one after that as well;
 * - below the currency's strayRefundMinimum: recorded, left at the address, and not planned again on
 *   every pass; once more arrives the whole balance goes back.
 */
import { expect } from "chai";
import { parseEther, parseEventLogs, zeroAddress } from "viem";
import { depositoryAbi } from "../../../../ts/abi/Depository.ts";
import { type Address as CanonicalAddress } from "../../../../ts/service/model/values.ts";
import { describeEachEngine } from "../../store/engines.ts";
import { depositAddressChains } from "./depositAddressChains.ts";

describe("refundLaterPayments (strict: payments after the address's decision)", function () {
  this.timeout(300_000);
  const chains = depositAddressChains();
  const { env, wallet, mined, mine, at } = chains;

  describeEachEngine("later payments", (engine) => {
    const pass = () => chains.pass(engine.store);
    const rowOf = async (address: CanonicalAddress) => (await engine.store.getDepositAddress(env().origin.chainId, address))!;
    /** Passes (mining between them) until every refund of the address is confirmed or ignored. */
    async function settle(address: CanonicalAddress) {
      for (let i = 0; i < 8; i++) {
        await pass();
        await mine();
        const row = await rowOf(address);
        if (row.state !== "watching" && row.state !== "refunding" && (row.refunds ?? []).every((r) => r.state === "confirmed" || r.state === "ignored")) break;
      }
      return rowOf(address);
    }

    it("refunds a second payment of the bound amount after the first was forwarded, once (DOUBLE_SPEND)", async () => {
      const amount = parseEther("0.2");
      const { address, refundTo, requestId } = await chains.strictAddress(engine.store, zeroAddress, amount, 3600);
      await mined(await wallet().sendTransaction({ chain: null, to: address, value: amount }));
      await mine();
      const forwarded = (await pass()).forwarded;
      expect(forwarded.map((o) => o.outcome)).to.deep.equal(["forwarded"]);
      const first = await mined(forwarded[0]!.hash!);
      expect(parseEventLogs({ abi: depositoryAbi, eventName: "Deposited", logs: first.logs })).to.have.length(1);
      await mine();

      // The payer (an exchange retrying a withdrawal) sends the same amount again.
      const second = await wallet().sendTransaction({ chain: null, to: address, value: amount });
      await mined(second);
      await mine();
      // Two replicas look at once, then a restart: one plan.
      const [a, b] = [chains.solver(engine.store), chains.solver(engine.store)];
      await Promise.allSettled([chains.pass(engine.store, a), chains.pass(engine.store, b)]);
      await pass();
      const row = await settle(address);
      expect(row.state).to.equal("forwarding");
      expect(row.refunds!.map((r) => [r.token, r.amount, r.reason, r.state, r.payment.txHash])).to.deep.equal([[zeroAddress, amount, "DOUBLE_SPEND", "confirmed", second.toLowerCase()]]);
      expect(await env().origin.publicClient.getBalance({ address: refundTo })).to.equal(amount);
      expect(await env().origin.publicClient.getBalance({ address })).to.equal(0n);
      // One forwarding ever sent (the first payment's), never a second deposit.
      expect((await engine.store.listPendingSolverTransactions("deposit-address-forward", 10)).map((t) => t.subject)).to.deep.equal([`${env().origin.chainId}:${address}`]);
      // Nothing left to refund, nothing planned again.
      await pass();
      expect((await rowOf(address)).refunds).to.have.length(1);
      // The forwarded request is the first payment's, untouched by the refund.
      expect((await engine.store.getRequest(requestId))?.failReason ?? null).to.not.equal("DOUBLE_SPEND");
    });

    it("refunds payments that arrive after the address was refunded, each time (ORDER_EXPIRED)", async () => {
      const amount = parseEther("0.2");
      const { address, refundTo, expiresAt, requestId } = await chains.strictAddress(engine.store, zeroAddress, amount, 120);
      await mined(await wallet().sendTransaction({ chain: null, to: address, value: amount / 4n }));
      await at(expiresAt + 1);
      await mine();
      expect((await settle(address)).state).to.equal("refunded");
      expect(await env().origin.publicClient.getBalance({ address: refundTo })).to.equal(amount / 4n);

      const late = await wallet().sendTransaction({ chain: null, to: address, value: amount });
      await mined(late);
      await mine();
      let row = await settle(address);
      expect(row.state).to.equal("refunded");
      expect(row.refunds!.map((r) => [r.amount, r.reason, r.state])).to.deep.equal([
        [amount / 4n, "DEPOSITED_AMOUNT_TOO_LOW_TO_FILL", "confirmed"],
        [amount, "ORDER_EXPIRED", "confirmed"],
      ]);
      expect(await env().origin.publicClient.getBalance({ address: refundTo })).to.equal(amount + amount / 4n);

      const third = await wallet().sendTransaction({ chain: null, to: address, value: parseEther("0.05") });
      await mined(third);
      await mine();
      row = await settle(address);
      expect(row.refunds!.map((r) => [r.amount, r.reason, r.state])).to.have.deep.members([
        [amount / 4n, "DEPOSITED_AMOUNT_TOO_LOW_TO_FILL", "confirmed"],
        [amount, "ORDER_EXPIRED", "confirmed"],
        [parseEther("0.05"), "ORDER_EXPIRED", "confirmed"],
      ]);
      expect(new Set(row.refunds!.map((r) => r.instructionId)).size).to.equal(3);
      expect(await env().origin.publicClient.getBalance({ address })).to.equal(0n);
      // The request keeps the address's first decision.
      expect(await engine.store.getRequest(requestId)).to.include({ status: "refund", failReason: "DEPOSITED_AMOUNT_TOO_LOW_TO_FILL" });
    });

    it("records a later payment below the threshold once, and refunds the whole balance once more arrives", async () => {
      const amount = parseEther("0.2");
      const { address, refundTo } = await chains.strictAddress(engine.store, zeroAddress, amount, 3600);
      await mined(await wallet().sendTransaction({ chain: null, to: address, value: amount }));
      await mine();
      await settle(address);
      await mined(await wallet().sendTransaction({ chain: null, to: address, value: 1000n }));
      await mine();
      let row = await settle(address);
      for (let i = 0; i < 2; i++) await pass();
      row = await rowOf(address);
      expect(row.refunds!.map((r) => [r.amount, r.reason, r.state])).to.deep.equal([[1000n, "DOUBLE_SPEND", "ignored"]]);
      expect(await env().origin.publicClient.getBalance({ address })).to.equal(1000n);

      await mined(await wallet().sendTransaction({ chain: null, to: address, value: parseEther("0.01") }));
      await mine();
      row = await settle(address);
      expect(row.refunds!.map((r) => [r.amount, r.state])).to.deep.equal([
        [1000n, "ignored"],
        [parseEther("0.01") + 1000n, "confirmed"],
      ]);
      expect(await env().origin.publicClient.getBalance({ address: refundTo })).to.equal(parseEther("0.01") + 1000n);
      expect(await env().origin.publicClient.getBalance({ address })).to.equal(0n);
    });
  });
});

/**
 * Mis-routed payments into strict deposit addresses (ts/service/solver/depositAddress/
 * refundDepositAddresses.ts) on two real EDR chains and a real store, attacks first:
 * - too little, then a top-up after the quote expired: the partial payment is refunded to `refundTo`
 *   (DEPOSITED_AMOUNT_TOO_LOW_TO_FILL) and the address is never also forwarded — two racing passes and a
 *   restart send one refund; the top-up that completes the amount afterwards is not deposited but
 *   refunded as a later payment (ORDER_EXPIRED);
 * - too little, topped up in the very block of the expiry: forwarded, never refunded (a payer may top up
 *   until the expiry);
 * - the bound amount paid after the expiry: refunded (ORDER_EXPIRED);
 * - another currency (native at an fUSD address): refunded (INCORRECT_DEPOSIT_CURRENCY); below the
 *   currency's strayRefundMinimum: recorded, not refunded;
 * - too much: the bound amount forwarded, the excess (INCORRECT_PAYMENT) and another currency held
 *   with it refunded.
 * Each refund ends the quote's request in `refund` (or `failure` with AMOUNT_TOO_LOW_TO_REFUND).
 */
import { expect } from "chai";
import { erc20Abi, parseEther, zeroAddress } from "viem";
import { canonicalAddress, type Address as CanonicalAddress } from "../../../../ts/service/model/values.ts";
import { forwardDepositAddresses } from "../../../../ts/service/solver/depositAddress/forwardDepositAddresses.ts";
import { refundDepositAddresses } from "../../../../ts/service/solver/depositAddress/refundDepositAddresses.ts";
import { createStore, type Store } from "../../../../ts/service/store/createStore.ts";
import { tokenBalance } from "../twoChains.ts";
import { depositAddressChains } from "./depositAddressChains.ts";

describe("refundDepositAddresses (strict, mis-routed payments)", function () {
  this.timeout(300_000);
  const chains = depositAddressChains();
  const { env, clientOf, wallet, mined, mine, at } = chains;
  let store: Store;

  beforeEach(async () => {
    store = await createStore();
  });
  afterEach(async () => store.close());

  const strictAddress = (currency: CanonicalAddress, amount: bigint, ttl: number) => chains.strictAddress(store, currency, amount, ttl);
  const pass = (solver?: Parameters<typeof chains.pass>[1]) => chains.pass(store, solver);
  /** Passes (mining between them) until the address is `refunded`. */
  async function untilRefunded(address: CanonicalAddress) {
    for (let i = 0; i < 6; i++) {
      await pass();
      await mine();
      if ((await store.getDepositAddress(env().origin.chainId, address))!.state === "refunded") break;
    }
    return (await store.getDepositAddress(env().origin.chainId, address))!;
  }

  it("refunds too little after the expiry and never also forwards it, even when it is topped up later", async () => {
    const amount = parseEther("0.2");
    const { address, refundTo, expiresAt, requestId } = await strictAddress(canonicalAddress(zeroAddress), amount, 120);
    const partial = await wallet().sendTransaction({ chain: null, to: address, value: amount / 2n });
    await mined(partial);
    await mine();
    // Before the expiry the payer may still top up: nothing happens.
    expect((await pass()).forwarded).to.deep.equal([{ address, outcome: "unpaid" }]);

    await at(expiresAt + 1);
    await mine();
    // Two replicas decide at once, then a restart: one plan, one refund transaction.
    const [a, b] = [chains.solver(store), chains.solver(store)];
    const planned = await Promise.allSettled([forwardDepositAddresses(a.ctx, clientOf(a)), forwardDepositAddresses(b.ctx, clientOf(b))]);
    expect(planned.flatMap((r) => (r.status === "fulfilled" ? r.value.map((o) => o.outcome) : [String(r.reason)])).sort()).to.deep.equal(["already-decided", "refunding"]);
    const sent = await Promise.allSettled([refundDepositAddresses(a.ctx, clientOf(a)), refundDepositAddresses(b.ctx, clientOf(b))]);
    const sends = sent.flatMap((r) => (r.status === "fulfilled" ? r.value.filter((o) => o.outcome === "sent") : []));
    expect(sends, JSON.stringify(sent.map((r) => (r.status === "rejected" ? String(r.reason) : r.value)))).to.have.length(1);
    expect(await store.listPendingSolverTransactions("deposit-address-forward", 10)).to.deep.equal([]);

    // The top-up that would have completed the amount arrives after the decision.
    const topUp = await wallet().sendTransaction({ chain: null, to: address, value: amount / 2n });
    await mined(topUp);
    const row = await untilRefunded(address);
    expect(row.state).to.equal("refunded");
    expect(row.refunds!.map((r) => [r.token, r.amount, r.reason, r.state])).to.deep.equal([[zeroAddress, amount / 2n, "DEPOSITED_AMOUNT_TOO_LOW_TO_FILL", "confirmed"]]);
    expect(await env().origin.publicClient.getBalance({ address: refundTo })).to.equal(amount / 2n);
    // Never forwarded: nothing was deposited into the Depository; the top-up, a payment after the
    // address's decision, goes back to refundTo too (ORDER_EXPIRED, ./laterPayments.test.ts).
    expect(await store.listPendingSolverTransactions("deposit-address-forward", 10)).to.deep.equal([]);
    expect((await pass()).forwarded).to.deep.equal([]);
    for (let i = 0; i < 3; i++) {
      await mine();
      await pass();
    }
    expect(await env().origin.publicClient.getBalance({ address })).to.equal(0n);
    expect(await env().origin.publicClient.getBalance({ address: refundTo })).to.equal(amount);
    expect((await store.getDepositAddress(env().origin.chainId, address))!.refunds!.map((r) => [r.amount, r.reason, r.state])).to.deep.equal([
      [amount / 2n, "DEPOSITED_AMOUNT_TOO_LOW_TO_FILL", "confirmed"],
      [amount / 2n, "ORDER_EXPIRED", "confirmed"],
    ]);

    const request = (await store.getRequest(requestId))!;
    expect(request).to.include({ status: "refund", failReason: "DEPOSITED_AMOUNT_TOO_LOW_TO_FILL" });
    expect(request.txHashes).to.deep.equal([row.refunds![0]!.txHash]);
    expect(request.inTxHashes).to.deep.equal([partial.toLowerCase()]);
    expect(request.solver?.depositPayment).to.deep.include({ depositor: canonicalAddress(env().user.address), amount: amount / 2n });
  });

  it("forwards a payment topped up in the very block of the expiry, and refunds nothing", async () => {
    const amount = parseEther("0.2");
    const { address, refundTo, expiresAt } = await strictAddress(canonicalAddress(zeroAddress), amount, 120);
    await mined(await wallet().sendTransaction({ chain: null, to: address, value: amount / 2n }));
    await at(expiresAt);
    await mined(await wallet().sendTransaction({ chain: null, to: address, value: amount / 2n }));
    await mine();
    expect((await pass()).forwarded.map((o) => o.outcome)).to.deep.equal(["forwarded"]);
    await mine();
    expect((await pass()).refunded).to.deep.equal([]);
    expect((await store.getDepositAddress(env().origin.chainId, address))!.state).to.equal("forwarding");
    expect(await env().origin.publicClient.getBalance({ address: refundTo })).to.equal(0n);
  });

  it("refunds the bound amount paid after the expiry (ORDER_EXPIRED)", async () => {
    const amount = 20_000_000n;
    const fusd = canonicalAddress(env().stablecoin);
    const { address, refundTo, expiresAt, requestId } = await strictAddress(fusd, amount, 120);
    await at(expiresAt + 5);
    const late = await wallet().writeContract({ chain: null, address: env().stablecoin, abi: erc20Abi, functionName: "transfer", args: [address, amount] });
    await mined(late);
    await mine();
    const row = await untilRefunded(address);
    expect(row.refunds!.map((r) => [r.token, r.amount, r.reason, r.state])).to.deep.equal([[fusd, amount, "ORDER_EXPIRED", "confirmed"]]);
    expect(await tokenBalance(env().origin, env().stablecoin, refundTo)).to.equal(amount);
    expect(await tokenBalance(env().origin, env().stablecoin, address)).to.equal(0n);
    expect(await store.getRequest(requestId)).to.include({ status: "refund", failReason: "ORDER_EXPIRED" });
  });

  it("refunds another currency (native at an fUSD address); below the threshold it is recorded, not refunded", async () => {
    const fusd = canonicalAddress(env().stablecoin);
    const wrong = await strictAddress(fusd, 20_000_000n, 120);
    const dust = await strictAddress(fusd, 20_000_000n, 120);
    await mined(await wallet().sendTransaction({ chain: null, to: wrong.address, value: parseEther("0.05") }));
    await mined(await wallet().sendTransaction({ chain: null, to: dust.address, value: 1000n }));
    await at(Math.max(wrong.expiresAt, dust.expiresAt) + 1);
    await mine();
    const refunded = await untilRefunded(wrong.address);
    expect(refunded.refunds!.map((r) => [r.token, r.amount, r.reason, r.state])).to.deep.equal([[zeroAddress, parseEther("0.05"), "INCORRECT_DEPOSIT_CURRENCY", "confirmed"]]);
    expect(await env().origin.publicClient.getBalance({ address: wrong.refundTo })).to.equal(parseEther("0.05"));
    expect(await store.getRequest(wrong.requestId)).to.include({ status: "refund", failReason: "INCORRECT_DEPOSIT_CURRENCY" });

    const ignored = (await store.getDepositAddress(env().origin.chainId, dust.address))!;
    expect(ignored.state).to.equal("refunded");
    expect(ignored.refunds!.map((r) => [r.amount, r.state, r.ignoredReason])).to.deep.equal([[1000n, "ignored", "AMOUNT_TOO_LOW_TO_REFUND"]]);
    expect(await env().origin.publicClient.getBalance({ address: dust.address })).to.equal(1000n);
    expect(await store.getRequest(dust.requestId)).to.include({ status: "failure", failReason: "INCORRECT_DEPOSIT_CURRENCY", refundFailReason: "AMOUNT_TOO_LOW_TO_REFUND" });
  });

  it("forwards the bound amount of an overpayment and refunds the excess and another currency held with it", async () => {
    const amount = parseEther("0.2");
    const { address, refundTo } = await strictAddress(canonicalAddress(zeroAddress), amount, 120);
    await mined(await wallet().sendTransaction({ chain: null, to: address, value: parseEther("0.3") }));
    await mined(await wallet().writeContract({ chain: null, address: env().stablecoin, abi: erc20Abi, functionName: "transfer", args: [address, 5_000_000n] }));
    await mine();
    expect((await pass()).forwarded.map((o) => o.outcome)).to.deep.equal(["forwarded"]);
    for (let i = 0; i < 4; i++) {
      await mine();
      await pass();
    }
    const row = (await store.getDepositAddress(env().origin.chainId, address))!;
    expect(row.state).to.equal("forwarding");
    expect(row.refunds!.map((r) => [r.token, r.amount, r.reason, r.state])).to.deep.equal([
      [zeroAddress, parseEther("0.1"), "INCORRECT_PAYMENT", "confirmed"],
      [canonicalAddress(env().stablecoin), 5_000_000n, "INCORRECT_DEPOSIT_CURRENCY", "confirmed"],
    ]);
    expect(await env().origin.publicClient.getBalance({ address: refundTo })).to.equal(parseEther("0.1"));
    expect(await tokenBalance(env().origin, env().stablecoin, refundTo)).to.equal(5_000_000n);
    expect(await env().origin.publicClient.getBalance({ address })).to.equal(0n);
    expect(await tokenBalance(env().origin, env().stablecoin, address)).to.equal(0n);
    // Nothing left to do: the address leaves the refund work list.
    expect(await store.listDepositAddressRefundWork(env().origin.chainId, 10)).to.deep.equal([]);
  });
});

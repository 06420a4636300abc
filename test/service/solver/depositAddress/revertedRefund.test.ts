/**
 * A deposit-address refund whose transaction is mined but reverts (ts/service/solver/depositAddress/
 * revertedRefund.ts), on a real EDR chain, attack first: the refund is broadcast while its instruction
 * is valid (the nonce manager's estimate passes), then mined only after its deadline — the factory
 * reverts it (InstructionExpired). Before the fix the entry stayed `sent` for good, read on every pass,
 * and nobody was told. Now it is recorded `reverted` with its failReason and the factory's error, the
 * `ferry_deposit_address_refunds_reverted_total` counter an operator pages on goes up, an error is
 * logged, and the address leaves the refund work list (its request is not claimed refunded).
 */
import { expect } from "chai";
import { parseEther, zeroAddress } from "viem";
import { forwardDepositAddresses } from "../../../../ts/service/solver/depositAddress/forwardDepositAddresses.ts";
import { refundDepositAddresses } from "../../../../ts/service/solver/depositAddress/refundDepositAddresses.ts";
import { createStore, type Store } from "../../../../ts/service/store/createStore.ts";
import { depositAddressChains } from "./depositAddressChains.ts";

describe("a reverted deposit-address refund", function () {
  this.timeout(300_000);
  const chains = depositAddressChains();
  const { env, clientOf, wallet, mined, mine, at } = chains;
  let store: Store;
  beforeEach(async () => {
    store = await createStore();
  });
  afterEach(async () => {
    await env().origin.testClient.setAutomine(true);
    await store.close();
  });

  it("is recorded `reverted`, counted for an alert and logged, and not followed forever", async () => {
    const amount = parseEther("0.2");
    const { address, expiresAt, requestId } = await chains.strictAddress(store, zeroAddress, amount, 120);
    await mined(await wallet().sendTransaction({ chain: null, to: address, value: amount / 2n }));
    await at(expiresAt + 1);
    await mine();
    const errors: Array<{ fields: Record<string, unknown>; message: string }> = [];
    const solver = chains.solver(store);
    const log = solver.ctx.log;
    solver.ctx.log = Object.assign(Object.create(log), {
      error: (fields: Record<string, unknown>, message: string) => {
        errors.push({ fields, message });
      },
    });
    expect((await forwardDepositAddresses(solver.ctx, clientOf(solver))).map((o) => o.outcome)).to.deep.equal(["refunding"]);

    // The refund is broadcast while valid, and mined only after its instruction's deadline.
    const { testClient, publicClient } = env().origin;
    await testClient.setAutomine(false);
    const sent = (await refundDepositAddresses(solver.ctx, clientOf(solver))).filter((o) => o.outcome === "sent");
    expect(sent).to.have.length(1);
    await at(Math.floor(solver.ctx.now().getTime() / 1000) + 8 * 86_400);
    await testClient.mine({ blocks: 1 });
    await testClient.setAutomine(true);
    const receipt = await publicClient.getTransactionReceipt({ hash: sent[0]!.hash! });
    expect(receipt.status).to.equal("reverted");
    await mine();

    for (let i = 0; i < 3; i++) {
      await refundDepositAddresses(solver.ctx, clientOf(solver));
      await mine();
    }
    const row = (await store.getDepositAddress(env().origin.chainId, address))!;
    expect(row.refunds!.map((r) => [r.state, r.failReason, r.revertError])).to.deep.equal([["reverted", "SIGNATURE_EXPIRED", "InstructionExpired"]]);
    expect(row.refunds![0]!.txHash).to.equal(receipt.transactionHash);
    expect(row.state).to.equal("refunding");
    const counter = await solver.ctx.metrics.depositAddressRefundsReverted.get();
    expect(counter.values.map((v) => [v.labels.chain_id, v.value])).to.deep.equal([[String(env().origin.chainId), 1]]);
    expect(errors.map((e) => e.message)).to.deep.equal(["deposit address refund reverted"]);
    expect(errors[0]!.fields).to.include({ depositAddress: address, requestId, failReason: "SIGNATURE_EXPIRED" });
    // Left for an operator: out of the refund work list, the request not claimed refunded.
    expect(await store.listDepositAddressRefundWork(env().origin.chainId, 10)).to.deep.equal([]);
    expect((await store.getRequest(requestId))?.status ?? "none").to.not.equal("refund");
    expect(await publicClient.getBalance({ address })).to.equal(amount / 2n);
  });
});

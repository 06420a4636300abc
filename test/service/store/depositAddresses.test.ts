// Deposit addresses (../../../ts/service/store/depositAddresses.ts), on both engines: saved with their
// quote's binding, listed while watching, and moved to `forwarding` exactly once — the compare-and-set
// that keeps a payment seen twice (a second replica, a restart) from being forwarded twice.
import { expect } from "chai";
import { canonicalHex, type Address, type Bytes32 } from "../../../ts/service/model/values.ts";
import { describeEachEngine } from "./engines.ts";

const ADDRESS: Address = "0x1111111111111111111111111111111111111111";
const OTHER: Address = "0x2222222222222222222222222222222222222222";
const FACTORY: Address = "0x6579ca36309faa02baf868745383cc38a16ce720";
const REFUND_TO: Address = "0x15d34aaf54267db7d7c367839aaf71a00a2c6a65";
const REQUEST: Bytes32 = canonicalHex(`0x${"aa".repeat(32)}`);
const ORDER: Bytes32 = canonicalHex(`0x${"bb".repeat(32)}`);
const INSTRUCTION: Bytes32 = canonicalHex(`0x${"cc".repeat(32)}`);
const ZERO: Address = "0x0000000000000000000000000000000000000000";
const HUGE = 2n ** 255n + 7n;

describeEachEngine("deposit addresses", (engine) => {
  const row = (address: Address, chainId = 31337) => ({
    chainId,
    address,
    mode: "strict" as const,
    factory: FACTORY,
    refundTo: REFUND_TO,
    requestId: REQUEST,
    orderId: ORDER,
    currency: ZERO,
    amount: HUGE,
    expiresAt: new Date(engine.clock.ms + 300_000),
  });

  it("depositAddresses_savedWithTheirBinding_andListedWhileWatching", async () => {
    const { store } = engine;
    await store.saveDepositAddress(row(ADDRESS));
    engine.clock.ms += 1000;
    await store.saveDepositAddress(row(OTHER));
    await store.saveDepositAddress(row(ADDRESS, 31338));
    const saved = await store.getDepositAddress(31337, ADDRESS);
    expect(saved).to.include({ chainId: 31337, address: ADDRESS, mode: "strict", factory: FACTORY, refundTo: REFUND_TO, requestId: REQUEST, orderId: ORDER, currency: ZERO, state: "watching" });
    expect(saved!.amount).to.equal(HUGE); // a uint256 round-trips exactly (numeric(78,0))
    expect(saved!.payment).to.equal(null);
    expect((await store.listWatchingDepositAddresses(31337, 10)).map((r) => r.address)).to.deep.equal([ADDRESS, OTHER]);
    expect((await store.listWatchingDepositAddresses(31338, 10)).map((r) => r.address)).to.deep.equal([ADDRESS]);
    expect(await store.getDepositAddress(1, ADDRESS)).to.equal(undefined);
  });

  it("depositAddresses_aPaymentSeenTwiceIsMarkedForwardingOnce", async () => {
    const { store } = engine;
    await store.saveDepositAddress(row(ADDRESS));
    const payment = { chainId: 31337, address: ADDRESS, token: ZERO, amount: HUGE, depositor: REFUND_TO, txHash: ORDER, blockNumber: 12, blockTimestamp: 1_767_225_600 };
    const key = { chainId: 31337, address: ADDRESS };
    // Two watchers (replicas, or one before and after a restart) race on the same payment.
    const results = await Promise.all([
      store.transaction((tx) => tx.markDepositAddressForwarding(key, { instructionId: INSTRUCTION, payment })),
      store.transaction((tx) => tx.markDepositAddressForwarding(key, { instructionId: INSTRUCTION, payment })),
    ]);
    expect(results.filter(Boolean)).to.have.length(1);
    expect(await store.markDepositAddressForwarding(key, { instructionId: INSTRUCTION, payment })).to.equal(false);
    const forwarded = await store.getDepositAddress(31337, ADDRESS);
    expect(forwarded).to.include({ state: "forwarding", instructionId: INSTRUCTION });
    expect(forwarded!.payment).to.deep.equal(payment);
    expect(await store.listWatchingDepositAddresses(31337, 10)).to.deep.equal([]);
  });

  it("depositAddresses_aSecondRowForTheSameChainAndAddressIsRefused", async () => {
    const { store } = engine;
    await store.saveDepositAddress(row(ADDRESS));
    let failed = false;
    await store.saveDepositAddress(row(ADDRESS)).catch(() => (failed = true));
    expect(failed).to.equal(true);
  });

  it("depositAddresses_anAddressIsForwardedOrRefunded_neverBoth_andEachRefundIsSentOnce", async () => {
    const { store } = engine;
    await store.saveDepositAddress(row(ADDRESS));
    const key = { chainId: 31337, address: ADDRESS };
    const payment = { chainId: 31337, address: ADDRESS, token: ZERO, amount: 5n, depositor: REFUND_TO, txHash: ORDER, blockNumber: 12, blockTimestamp: 1_767_225_600 };
    const refund = { token: ZERO, amount: 5n, reason: "DEPOSITED_AMOUNT_TOO_LOW_TO_FILL" as const, instructionId: INSTRUCTION, state: "planned" as const, plannedAtBlock: 20, txHash: null, payment };
    // A forwarding and a refund plan race on one row: exactly one wins.
    const results = await Promise.all([
      store.transaction((tx) => tx.markDepositAddressForwarding(key, { instructionId: ORDER, payment: { ...payment, amount: HUGE } })),
      store.transaction((tx) => tx.markDepositAddressRefunding(key, [refund])),
    ]);
    expect(results.filter(Boolean)).to.have.length(1);
    if (results[0]) {
      expect(await store.markDepositAddressRefunding(key, [refund])).to.equal(false);
      return;
    }
    expect(await store.markDepositAddressForwarding(key, { instructionId: ORDER, payment })).to.equal(false);
    expect((await store.listDepositAddressRefundWork(31337, 10)).map((r) => r.address)).to.deep.equal([ADDRESS]);
    // Two senders of the same planned refund: one moves it to `sent`.
    const sent = await Promise.all([0, 1].map(() => store.transaction((tx) => tx.advanceDepositAddressRefund(key, INSTRUCTION, "planned", { state: "sent", txHash: ORDER }))));
    expect(sent.filter(Boolean)).to.have.length(1);
    expect(await store.transaction((tx) => tx.advanceDepositAddressRefund(key, INSTRUCTION, "sent", { state: "confirmed", txHash: REQUEST }))).to.equal(true);
    expect(await store.markDepositAddressRefunded(key)).to.equal(true);
    expect(await store.markDepositAddressRefunded(key)).to.equal(false);
    const done = (await store.getDepositAddress(31337, ADDRESS))!;
    expect(done.state).to.equal("refunded");
    expect(done.refunds).to.deep.equal([{ ...refund, state: "confirmed", txHash: REQUEST }]);
  });
});

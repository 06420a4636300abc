// Open deposit addresses (../../../ts/service/store/openDepositAddresses.ts), on both engines: one row
// per address however many quotes hand it out (the first quote's route and key kept), each quote a
// placeholder; payments found once (the scan cursor's compare-and-set), two equal payments two rows;
// each payment forwarded or refunded exactly once, its forwarding superseding the placeholders; the
// address's requests listed by GET /requests/v2?depositAddress= (listRequests).
import { expect } from "chai";
import { canonicalHex, type Address, type Bytes32 } from "../../../ts/service/model/values.ts";
import type { DepositAddressRefund } from "../../../ts/service/model/depositAddressRefund.ts";
import { describeEachEngine } from "./engines.ts";
import { withIntent } from "../fixtures/testRequest.ts";

const ADDRESS: Address = "0x1111111111111111111111111111111111111111";
const FACTORY: Address = "0x6579ca36309faa02baf868745383cc38a16ce720";
const USER: Address = "0x15d34aaf54267db7d7c367839aaf71a00a2c6a65";
const RECIPIENT: Address = "0x9965507d1a55bcc2695c58ba16fb37d819b0a4dc";
const FUSD: Address = "0xbae536c2c99c89feaf9c4a19a5c324409c607be8";
const ZERO: Address = "0x0000000000000000000000000000000000000000";
const bytes32 = (byte: string): Bytes32 => canonicalHex(`0x${byte.repeat(32)}`);

describeEachEngine("open deposit addresses", (engine) => {
  const route = (user: Address = USER) => ({ user, recipient: RECIPIENT, originCurrency: ZERO, destinationChainId: 31338, destinationCurrency: FUSD, appFees: [{ recipient: RECIPIENT, bps: "25" }], referrer: "app" });
  const quoted = (requestId: Bytes32, overrides: Partial<{ user: Address; apiKeyId: string | null; quotedAtBlock: number }> = {}) => ({
    chainId: 31337,
    address: ADDRESS,
    factory: FACTORY,
    refundTo: USER,
    route: route(overrides.user),
    apiKeyId: overrides.apiKeyId === undefined ? "key_1" : overrides.apiKeyId,
    requestId,
    orderId: bytes32("0b"),
    expiresAt: new Date(engine.clock.ms + 300_000),
    quotedAtBlock: overrides.quotedAtBlock ?? 7,
  });
  const payment = (blockNumber: number, amount = 30_000_000_000_000_000n) => ({
    chainId: 31337,
    address: ADDRESS,
    token: ZERO,
    amount,
    depositor: USER,
    txHash: bytes32(blockNumber.toString(16).padStart(2, "0")),
    blockNumber,
    blockTimestamp: 1_767_225_600 + blockNumber,
  });
  const key = { chainId: 31337, address: ADDRESS };

  it("openDepositAddresses_oneRowPerAddress_theFirstQuotesRouteKept_eachQuoteAPlaceholder", async () => {
    const { store } = engine;
    await store.saveOpenDepositAddress(quoted(bytes32("a1")));
    engine.clock.ms += 1000;
    await store.saveOpenDepositAddress(quoted(bytes32("a2"), { user: RECIPIENT, apiKeyId: null, quotedAtBlock: 99 }));
    const saved = await store.getOpenDepositAddress(31337, ADDRESS);
    expect(saved).to.deep.include({ chainId: 31337, address: ADDRESS, factory: FACTORY, refundTo: USER, apiKeyId: "key_1", scannedBlock: 7, route: route() });
    expect((await store.listOpenDepositAddresses(31337, 10)).map((r) => r.address)).to.deep.equal([ADDRESS]);
    expect(await store.listOpenDepositAddresses(31338, 10)).to.deep.equal([]);
    // An open row is never a strict one's work.
    expect(await store.listWatchingDepositAddresses(31337, 10)).to.deep.equal([]);
    expect(await store.getSupersedingRequestId(bytes32("a1"))).to.equal(null);
  });

  it("openDepositAddresses_paymentsFoundOnce_twoEqualPaymentsAreTwo", async () => {
    const { store } = engine;
    await store.saveOpenDepositAddress(quoted(bytes32("a1")));
    const found = [
      { paymentKey: "native:8", payment: payment(8) },
      { paymentKey: "native:9", payment: payment(9) },
    ];
    // Two scanners (replicas) race from the same cursor: one stores the payments, the other nothing.
    const results = await Promise.all([
      store.transaction((tx) => tx.recordOpenPayments(key, { from: 7, to: 10, payments: found })),
      store.transaction((tx) => tx.recordOpenPayments(key, { from: 7, to: 10, payments: found })),
    ]);
    expect(results.filter(Boolean)).to.have.length(1);
    expect((await store.getOpenDepositAddress(31337, ADDRESS))!.scannedBlock).to.equal(10);
    const stored = await store.listOpenPayments(31337, ADDRESS);
    expect(stored.map((p) => [p.paymentKey, p.state, p.payment.amount])).to.deep.equal([
      ["native:8", "detected", 30_000_000_000_000_000n],
      ["native:9", "detected", 30_000_000_000_000_000n],
    ]);
    expect((await store.listOpenPaymentWork(31337, 10)).map((p) => p.paymentKey)).to.deep.equal(["native:8", "native:9"]);
    // A stale cursor writes nothing; a key found again is left as it is.
    expect(await store.recordOpenPayments(key, { from: 7, to: 12, payments: [{ paymentKey: "native:8", payment: payment(8, 1n) }] })).to.equal(false);
    expect(await store.recordOpenPayments(key, { from: 10, to: 12, payments: [{ paymentKey: "native:8", payment: payment(8, 1n) }] })).to.equal(true);
    expect((await store.listOpenPayments(31337, ADDRESS)).map((p) => p.payment.amount)).to.deep.equal([30_000_000_000_000_000n, 30_000_000_000_000_000n]);
  });

  it("openDepositAddresses_aPaymentIsForwardedOrRefundedOnce_andItsForwardingSupersedesThePlaceholders", async () => {
    const { store } = engine;
    await store.saveOpenDepositAddress(quoted(bytes32("a1")));
    await store.saveOpenDepositAddress(quoted(bytes32("a2")));
    await store.recordOpenPayments(key, { from: 7, to: 10, payments: [{ paymentKey: "native:8", payment: payment(8) }, { paymentKey: "native:9", payment: payment(9) }] });
    const first = { ...key, paymentKey: "native:8" };
    const forward = { requestId: bytes32("c1"), orderId: bytes32("d1"), instructionId: bytes32("e1") };
    const raced = await Promise.all([
      store.transaction((tx) => tx.markOpenPaymentForwarding(first, forward)),
      store.transaction((tx) => tx.markOpenPaymentForwarding(first, forward)),
    ]);
    expect(raced.filter(Boolean)).to.have.length(1);
    const refund: DepositAddressRefund = {
      token: ZERO,
      amount: 1n,
      reason: "NO_QUOTES",
      instructionId: bytes32("f1"),
      state: "planned",
      plannedAtBlock: 10,
      txHash: null,
      payment: payment(8),
    };
    // Forwarded: never refunded after.
    expect(await store.markOpenPaymentRefunding(first, { reason: "AMOUNT_TOO_LOW", refunds: [refund] })).to.equal(false);
    expect(await store.getOpenPaymentByOrderId(bytes32("d1"))).to.deep.include({ paymentKey: "native:8", state: "forwarding", requestId: bytes32("c1"), instructionId: bytes32("e1") });
    expect(await store.getSupersedingRequestId(bytes32("a1"))).to.equal(bytes32("c1"));
    expect(await store.getSupersedingRequestId(bytes32("a2"))).to.equal(bytes32("c1"));
    // A later quote is superseded by a later payment only.
    await store.saveOpenDepositAddress(quoted(bytes32("a3")));
    const second = { ...key, paymentKey: "native:9" };
    expect(await store.markOpenPaymentRefunding(second, { reason: "AMOUNT_TOO_LOW", refunds: [{ ...refund, payment: payment(9) }] })).to.equal(true);
    expect(await store.markOpenPaymentForwarding(second, { ...forward, requestId: bytes32("c2") })).to.equal(false);
    expect(await store.getSupersedingRequestId(bytes32("a3"))).to.equal(null);
    // Its refund: planned → sent once (the nonce's store transaction), then confirmed (the payment refunded).
    const sentHash = bytes32("99");
    expect(await store.transaction((tx) => tx.advanceOpenPaymentRefund(second, "planned", { state: "sent", txHash: sentHash }))).to.equal(true);
    expect(await store.transaction((tx) => tx.advanceOpenPaymentRefund(second, "planned", { state: "sent", txHash: sentHash }))).to.equal(false);
    expect((await store.listOpenPaymentWork(31337, 10)).map((p) => [p.paymentKey, p.state])).to.deep.equal([["native:9", "refunding"]]);
    expect(await store.transaction((tx) => tx.advanceOpenPaymentRefund(second, "sent", { state: "confirmed", txHash: sentHash }))).to.equal(true);
    const refunded = (await store.listOpenPayments(31337, ADDRESS)).find((p) => p.paymentKey === "native:9")!;
    expect(refunded).to.deep.include({ state: "refunded", reason: "AMOUNT_TOO_LOW" });
    expect(refunded.refunds![0]).to.deep.include({ state: "confirmed", txHash: sentHash });
    expect(await store.listOpenPaymentWork(31337, 10)).to.deep.equal([]);
    // Below the refund minimum: nothing to send, refunded (ignored) at once.
    await store.recordOpenPayments(key, { from: 10, to: 11, payments: [{ paymentKey: "native:11", payment: payment(11, 5n) }] });
    const dust = { ...key, paymentKey: "native:11" };
    expect(await store.markOpenPaymentRefunding(dust, { reason: "AMOUNT_TOO_LOW", refunds: [{ ...refund, state: "ignored", ignoredReason: "AMOUNT_TOO_LOW_TO_REFUND" }] })).to.equal(true);
    expect(await store.listOpenPaymentWork(31337, 10)).to.deep.equal([]);
  });

  it("openDepositAddresses_theAddresssPaymentRequestsAreListedByDepositAddress", async () => {
    const { store } = engine;
    await store.saveOpenDepositAddress(quoted(bytes32("a1")));
    await store.recordOpenPayments(key, { from: 7, to: 10, payments: [{ paymentKey: "native:8", payment: payment(8) }] });
    await store.markOpenPaymentForwarding({ ...key, paymentKey: "native:8" }, { requestId: bytes32("c1"), orderId: bytes32("d1"), instructionId: bytes32("e1") });
    await store.recordOpenPayments(key, { from: 10, to: 12, payments: [{ paymentKey: "native:11", payment: payment(11) }] });
    await store.markOpenPaymentForwarding({ ...key, paymentKey: "native:11" }, { requestId: bytes32("c2"), orderId: bytes32("d2"), instructionId: bytes32("e2") });
    // The first payment's deposit is indexed (its request row exists), the second's not yet; the placeholder is never a request.
    const common = { user: USER, recipient: RECIPIENT, originChainId: 31337, destinationChainId: 31338, inTxHashes: [bytes32("08")], originBlock: 8, referrer: null, apiKeyId: null };
    await store.createRequest(withIntent({ id: bytes32("c1"), orderId: bytes32("d1"), ...common }));
    await store.createRequest(withIntent({ id: bytes32("c9"), orderId: bytes32("d9"), ...common }));
    expect((await store.listRequests({ depositAddress: ADDRESS })).requests.map((r) => r.id)).to.deep.equal([bytes32("c1")]);
    await store.createRequest(withIntent({ id: bytes32("c2"), orderId: bytes32("d2"), ...common }));
    expect((await store.listRequests({ depositAddress: ADDRESS, sortDirection: "asc" })).requests.map((r) => r.id)).to.deep.equal([bytes32("c1"), bytes32("c2")]);
    expect((await store.listRequests({ depositAddress: FACTORY })).requests).to.deep.equal([]);
  });
});

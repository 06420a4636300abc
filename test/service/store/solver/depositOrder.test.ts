/**
 * ts/service/store/solver/depositOrder.ts on both engines: what a deposit's orderId names, read in one
 * statement, decoded exactly as the repositories of its parts decode them (a funding order, else the
 * newest quote and the order's request).
 */
import { expect } from "chai";
import { isFerryError } from "../../../../ts/core/errors.ts";
import type { StoredValueInvalidError } from "../../../../ts/service/model/storedValue.ts";
import { apiKeyStore } from "../../../../ts/service/store/apiKeys.ts";
import { addr, hex, testNewRequest } from "../../fixtures/testRequest.ts";
import { testIntent } from "../../fixtures/testIntent.ts";
import { testOrder } from "../../fixtures/testOrder.ts";
import { describeEachEngine } from "../engines.ts";

describeEachEngine("store depositOrder", (engine) => {
  const saveQuoteFor = (n: number, orderId = hex(1000 + n)) => {
    const intent = testIntent(n, { orderId });
    return engine.store.saveQuote({ requestId: hex(n), orderId, orderData: testOrder(intent), quote: { steps: [] }, intent, expiresAt: new Date(engine.clock.ms + 60_000) });
  };

  it("getDepositOrder_anUnknownOrder_isNothing", async () => {
    expect(await engine.store.getDepositOrder(hex(1001))).to.deep.equal({ funding: null, quote: null, request: null });
  });

  it("getDepositOrder_aQuotedOrder_isItsQuote_andItsRequestOnceCreated_asTheirOwnReadsDecodeThem", async () => {
    const { store } = engine;
    await saveQuoteFor(1);
    const quote = await store.getQuoteByOrderId(hex(1001));
    expect(await store.getDepositOrder(hex(1001))).to.deep.equal({ funding: null, quote, request: null });
    await store.createRequest(testNewRequest(1));
    await store.transitionRequest(hex(1), "pending", { inTxHashes: [hex(77)], originBlock: 12 });
    const request = await store.getRequest(hex(1));
    expect(await store.getDepositOrder(hex(1001))).to.deep.equal({ funding: null, quote, request });
  });

  it("getDepositOrder_aRequestStoredUnderTheQuotesRequestId_withAnotherOrderId_isFoundByThatId", async () => {
    const { store } = engine;
    await saveQuoteFor(2);
    await store.createRequest(testNewRequest(2, { orderId: hex(9999) }));
    const found = await store.getDepositOrder(hex(1002));
    expect(found.funding === null && found.request?.id).to.equal(hex(2));
  });

  it("getDepositOrder_aFundingOrder_comesFirst", async () => {
    const { store, clock } = engine;
    const key = await apiKeyStore(store, clock.now).createApiKey("app");
    const saved = await store.saveAppFundingOrder({ orderId: hex(3003), apiKeyId: key.id, chainId: 31337, currency: addr(5), amount: 123_456_789n });
    await saveQuoteFor(3, hex(3003));
    expect(await store.getDepositOrder(hex(3003))).to.deep.equal({ funding: saved });
    expect(await store.getAppFundingOrder(hex(3003))).to.deep.equal(saved);
  });

  it("getDepositOrder_aQuoteThatDoesNotDecode_isAStoredValueErrorNamingTheQuote", async () => {
    const { store } = engine;
    await saveQuoteFor(4);
    await store.engine.query(`UPDATE quotes SET intent = jsonb_set(intent, '{originChainId}', '"x"') WHERE request_id = $1`, [hex(4)]);
    const error = await store.getDepositOrder(hex(1004)).then(
      () => null,
      (e: unknown) => e,
    );
    expect(isFerryError(error) && (error as StoredValueInvalidError).where).to.equal("quotes.intent");
  });

  it("getDepositOrders_eachOrderAsGetDepositOrderReadsIt_inOneStatement_anUndecodableOneInvalidAlone", async () => {
    const { store } = engine;
    await saveQuoteFor(5);
    await saveQuoteFor(6);
    await store.createRequest(testNewRequest(6, { orderId: hex(1006) }));
    await store.engine.query(`UPDATE quotes SET intent = jsonb_set(intent, '{originChainId}', '"x"') WHERE request_id = $1`, [hex(5)]);
    const reads = await store.getDepositOrders([hex(1005), hex(1006), hex(1007), hex(1006)]);
    expect([...reads.keys()].sort()).to.deep.equal([hex(1005), hex(1006), hex(1007)]);
    const invalid = reads.get(hex(1005))!;
    expect("invalid" in invalid && invalid.invalid.where).to.equal("quotes.intent");
    expect(reads.get(hex(1006))).to.deep.equal({ order: await store.getDepositOrder(hex(1006)) });
    expect(reads.get(hex(1007))).to.deep.equal({ order: { funding: null, quote: null, request: null } });
  });
});

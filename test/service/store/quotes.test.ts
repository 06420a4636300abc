/**
 * ts/service/store/quotes.ts: a quote is stored with its QuotedIntent and found by requestId or orderId;
 * its order is stored once (order_data), and the quote is read back with it.
 */
import { expect } from "chai";
import { canonicalHex } from "../../../ts/service/model/values.ts";
import { hex } from "../fixtures/testRequest.ts";
import { orderToJson } from "../../../ts/core/orderJson.ts";
import { isFerryError } from "../../../ts/core/errors.ts";
import type { StoredValueInvalidError } from "../../../ts/service/model/storedValue.ts";
import { testIntent } from "../fixtures/testIntent.ts";
import { testOrder } from "../fixtures/testOrder.ts";
import { describeEachEngine } from "./engines.ts";


const intent = testIntent;

describeEachEngine("store quotes", (engine) => {
  it("saveQuote_roundTripsWithItsIntent_andGetQuoteByOrderIdFindsIt", async () => {
    const { store, clock } = engine;
    const orderData = testOrder(intent(1, { referrer: "app" }));
    const quote = { steps: [{ id: "deposit" }], fees: { gas: { amount: "1" } } };
    const saved = await store.saveQuote({
      requestId: hex(1),
      orderId: canonicalHex(hex(1001).toUpperCase().replace("0X", "0x")),
      orderData,
      quote,
      intent: intent(1, { referrer: "app" }),
      expiresAt: new Date(clock.ms + 60_000),
    });
    const expected = {
      requestId: hex(1),
      orderId: hex(1001),
      orderData,
      quote,
      intent: intent(1, { referrer: "app" }),
      expiresAt: new Date(clock.ms + 60_000).toISOString(),
      apiKeyId: null,
      createdAt: new Date(clock.ms).toISOString(),
    };
    expect(saved).to.deep.equal(expected);
    expect(await store.getQuote(hex(1))).to.deep.equal(expected);
    expect(await store.getQuoteByOrderId(hex(1001))).to.deep.equal(expected);
    expect(await store.getQuote(hex(2))).to.equal(null);
    expect(await store.getQuoteByOrderId(hex(2))).to.equal(null);
  });

  it("saveQuote_storesTheOrderDataOnce_andGetQuoteAnswersTheQuoteWithIt", async () => {
    const { store, clock } = engine;
    const order = testOrder(intent(1));
    const orderData = orderToJson(order);
    const quote = { steps: [{ id: "deposit" }], protocol: { v2: { orderId: hex(1001), orderData, paymentDetails: { amount: "1000000" } } }, expiresAt: 1 };
    const saved = await store.saveQuote({ requestId: hex(1), orderId: hex(1001), orderData: order, quote, intent: intent(1), expiresAt: new Date(clock.ms) });
    expect(saved.quote).to.deep.equal(quote);
    expect((await store.getQuote(hex(1)))!.quote).to.deep.equal(quote);
    expect((await store.getQuoteByOrderId(hex(1001)))!.orderData, "the typed order, decoded").to.deep.equal(order);
    const { rows } = await store.engine.query<{ order_data: unknown; quote: unknown }>("SELECT order_data, quote FROM quotes WHERE request_id = $1", [hex(1)]);
    expect(rows[0]!.order_data, "stored in its wire form").to.deep.equal(orderData);
    expect(rows[0]!.quote, "the quote column holds everything but the order").to.deep.equal({ ...quote, protocol: { v2: { orderId: hex(1001), paymentDetails: { amount: "1000000" } } } });
  });

  it("saveQuote_storesTheApiKeyId", async () => {
    const { store, clock } = engine;
    await store.engine.query("INSERT INTO api_keys (id, key_hash, name, created_at) VALUES ('k1', 'h1', 'app', now())");
    const saved = await store.saveQuote({ requestId: hex(1), orderId: hex(1001), orderData: testOrder(intent(1)), quote: {}, intent: intent(1), expiresAt: new Date(clock.ms), apiKeyId: "k1" });
    expect(saved.apiKeyId).to.equal("k1");
    expect((await store.getQuote(hex(1)))!.apiKeyId).to.equal("k1");
  });

  it("getQuote_aStoredOrderThatIsNotAnOrder_isStoredValueInvalid_namingTheField", async () => {
    const { store, clock } = engine;
    const orderData = orderToJson(testOrder(intent(1)));
    await store.saveQuote({ requestId: hex(1), orderId: hex(1001), orderData: testOrder(intent(1)), quote: {}, intent: intent(1), expiresAt: new Date(clock.ms) });
    const broken: Array<[unknown, string]> = [
      [{ version: "v1", solverChainId: "31337", inputs: [{ amount: "1000000" }] }, ""],
      [{ ...orderData, salt: "0x5a" }, "salt"],
      [{ ...orderData, output: { ...orderData.output, deadline: "soon" } }, "output.deadline"],
      [{ ...orderData, inputs: [{ ...orderData.inputs[0]!, payment: { ...orderData.inputs[0]!.payment, amount: 7 } }] }, "inputs.0.payment.amount"],
      [{ ...orderData, solver: "0x90F79bf6eb2c4f870365e785982e1f101e93b906" }, ""],
    ];
    for (const [row, field] of broken) {
      await store.engine.query("UPDATE quotes SET order_data = $2::jsonb WHERE request_id = $1", [hex(1), JSON.stringify(row)]);
      for (const read of [() => store.getQuote(hex(1)), () => store.getQuoteByOrderId(hex(1001))]) {
        const error = await read().then(() => undefined, (e: unknown) => e);
        expect(isFerryError(error, "STORED_VALUE_INVALID"), JSON.stringify(row).slice(0, 60)).to.equal(true);
        expect((error as StoredValueInvalidError).where).to.equal("quotes.order_data");
        expect((error as StoredValueInvalidError).field, JSON.stringify(row).slice(0, 60)).to.equal(field);
      }
    }
  });

  it("saveQuote_rejectsAQuoteWithoutIntent_atTheDatabase", async () => {
    const { store, clock } = engine;
    const insert = store.engine.query(
      "INSERT INTO quotes (request_id, order_id, order_data, quote, expires_at, created_at) VALUES ($1, $2, '{}', '{}', $3, $3)",
      [hex(1), hex(1001), new Date(clock.ms).toISOString()],
    );
    const error = await insert.then(() => undefined, (e: unknown) => e);
    expect(error, "NOT NULL violation").to.be.instanceOf(Error);
  });
});

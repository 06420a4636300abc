/**
 * GET /requests/v2's record fields of issue 24 over real HTTP, on both store engines, against requests,
 * quotes and stray deposits written through the store (the live flow on real chains:
 * ../requestRecordComplete.test.ts):
 * - `includeChildRequests=true`: the page's strays that name a request (one store call for the page)
 *   and its refund, as `childRequests`; `=false` or absent: records unchanged;
 * - migration 0015: a quote stored before its USD price was kept gets it from its own
 *   `details.currencyIn` (and so does its request's intent), so its `feesUsd` and refund `amountUsd`
 *   are the quote's; a quote whose amountUsd was "0" gets none ("0" figures);
 * - rows written before `isNative` was recorded are served with it.
 */
import { expect } from "chai";
import { loadMigrations } from "../../../ts/service/store/migrate.ts";
import type { Payout } from "../../../ts/service/model/payout.ts";
import type { RequestData } from "../../../ts/service/model/requestData.ts";
import { testIntent } from "../fixtures/testIntent.ts";
import { testOrder } from "../fixtures/testOrder.ts";
import { addr, hex, testNewRequest } from "../fixtures/testRequest.ts";
import { describeEachEngine } from "../store/engines.ts";
import { countingStore, fixtureConfig, listen, type Listening } from "./testApp.ts";
import { ZERO_ADDRESS } from "../../../ts/service/model/values.ts";

type Json = Record<string, any>;
const DEPOSITORY = addr(0xd0);
const ETH = { chainId: 31337, address: ZERO_ADDRESS, symbol: "ETH", name: "Ether", decimals: 18, metadata: { logoURI: "", verified: true } };

const refundPayout = (overrides: Partial<Payout> = {}): Payout => ({
  chainId: 31337,
  depository: DEPOSITORY,
  nonce: 7n,
  expiration: 2_000_000_000,
  calls: [{ to: addr(0xa1), token: ZERO_ADDRESS, amount: 10n ** 18n }],
  requestHash: hex(0x4e),
  status: "confirmed",
  hash: hex(0xfeed),
  block: 90,
  ...overrides,
});

describeEachEngine("GET /requests/v2 record fields (issue 24)", (engine) => {
  let server: Listening;
  const counter = { counts: {} as Record<string, number> };

  before(async () => {
    const counted = countingStore(engine.store, counter);
    server = await listen({ config: fixtureConfig({ rateLimits: { anonymousPerMinute: 100_000 } }), deps: { store: counted } });
  });
  after(async () => server?.close());
  beforeEach(() => {
    counter.counts = {};
  });

  const records = async (query: string): Promise<Json[]> => {
    const response = await fetch(`${server.url}/requests/v2?${query}`);
    const text = await response.text();
    expect(response.status, text).to.equal(200);
    return (JSON.parse(text) as { requests: Json[] }).requests;
  };

  it("includeChildRequests=true: duplicate and mismatched deposits (by block), then the refund, for a whole page in one store call; =false unchanged", async () => {
    // Request 1: refunded, with a double spend (refunded) and a mismatched deposit (ignored). Request 2: no children.
    const data: RequestData = { fees: { gas: "1", fixed: "0", price: "2", gateway: "0" }, feeCurrencyObject: ETH, currencyObject: ETH };
    await engine.store.createRequest(testNewRequest(1, { data, inTxHashes: [hex(0xf001)] }));
    await engine.store.transitionRequest(hex(1), "pending");
    await engine.store.transitionRequest(hex(1), "failure", { failReason: "ORDER_EXPIRED" });
    await engine.store.transitionRequest(hex(1), "refund", { txHashes: [hex(0xfeed)], solver: { refund: refundPayout() } });
    engine.clock.ms += 1_000;
    await engine.store.createRequest(testNewRequest(2, { inTxHashes: [hex(0xf002)] }));
    const stray = { chainId: 31337, depository: DEPOSITORY, orderId: hex(1001), depositor: addr(0xe1), token: ZERO_ADDRESS, requestId: hex(1) };
    await engine.store.recordStrayDeposit({ ...stray, txHash: hex(0xa2), logIndex: 0, block: 80, amount: 5n, reason: "DEPOSITED_AMOUNT_TOO_LOW_TO_FILL" });
    await engine.store.recordStrayDeposit({ ...stray, txHash: hex(0xa1), logIndex: 3, block: 70, amount: 2n * 10n ** 18n, reason: "DOUBLE_SPEND" });
    // An unknown order's stray names no request: never anyone's child.
    await engine.store.recordStrayDeposit({ ...stray, requestId: null, orderId: hex(0x999), txHash: hex(0xa3), logIndex: 0, block: 75, amount: 9n, reason: "UNKNOWN_ORDER" });
    await engine.store.patchStrayDeposit({ chainId: 31337, txHash: hex(0xa2), logIndex: 0 }, { state: "ignored", ignoredReason: "AMOUNT_TOO_LOW_TO_REFUND" });
    await engine.store.patchStrayDeposit({ chainId: 31337, txHash: hex(0xa1), logIndex: 3 }, { refund: refundPayout({ hash: hex(0xbeef), block: 85, nonce: 8n }), state: "refunded" });

    counter.counts = {};
    const served = await records("includeChildRequests=true&sortDirection=asc");
    expect(counter.counts.listStrayDepositsByRequestIds, "one store call for the page").to.equal(1);
    expect(served.map((r) => r.id)).to.deep.equal([hex(1), hex(2)]);
    const common = { chainId: 31337, currency: ZERO_ADDRESS };
    expect(served[0]!.childRequests).to.deep.equal([
      { ...common, kind: "duplicateDeposit", reason: "DOUBLE_SPEND", status: "refunded", txHash: hex(0xa1), block: 70, from: addr(0xe1), to: DEPOSITORY, amount: (2n * 10n ** 18n).toString(), refundTxHash: hex(0xbeef), refundFailReason: "N/A" },
      { ...common, kind: "mismatchedDeposit", reason: "DEPOSITED_AMOUNT_TOO_LOW_TO_FILL", status: "ignored", txHash: hex(0xa2), block: 80, from: addr(0xe1), to: DEPOSITORY, amount: "5", refundTxHash: null, refundFailReason: "AMOUNT_TOO_LOW_TO_REFUND" },
      { ...common, kind: "refund", reason: "ORDER_EXPIRED", status: "refunded", txHash: hex(0xfeed), block: 90, from: DEPOSITORY, to: addr(0xa1), amount: (10n ** 18n).toString(), refundTxHash: null, refundFailReason: "N/A" },
    ]);
    expect(served[1]!.childRequests).to.deep.equal([]);

    for (const query of ["sortDirection=asc", "includeChildRequests=false&sortDirection=asc"]) {
      counter.counts = {};
      const plain = await records(query);
      expect(counter.counts.listStrayDepositsByRequestIds ?? 0, query).to.equal(0);
      expect(plain, query).to.deep.equal(served.map(({ childRequests: _c, ...rest }) => rest));
    }
  });

  it("/openapi.json describes every field added: feesUsd, refundFailReason and failReason required, isNative required, childRequests, includeChildRequests", async () => {
    const document = (await (await fetch(`${server.url}/openapi.json`)).json()) as { paths: Record<string, any> };
    const get = document.paths["/requests/v2"].get;
    const record = get.responses["200"].content["application/json"].schema.properties.requests.items;
    const data = record.properties.data;
    expect(data.required).to.include.members(["failReason", "refundFailReason"]);
    expect(data.properties.feesUsd.required).to.have.members(["gas", "fixed", "price", "gateway"]);
    expect(data.properties).to.include.keys("failedTxHash", "failedTxBlockNumber", "refundCurrencyData");
    for (const field of ["currencyObject", "feeCurrencyObject", "appFeeCurrencyObject"]) {
      expect(data.properties[field].properties.metadata.required, field).to.include("isNative");
    }
    expect(data.properties.refundCurrencyData.properties.currency.properties.metadata.required).to.include("isNative");
    expect(data.properties.refundCurrencyData.properties.amountUsd).to.be.an("object");
    expect(record.properties.childRequests.items.required).to.have.members(["kind", "reason", "status", "chainId", "txHash", "block", "from", "to", "currency", "amount", "refundTxHash", "refundFailReason"]);
    const parameter = (get.parameters as Array<{ name: string; description?: string }>).find((p) => p.name === "includeChildRequests");
    expect(parameter?.description ?? JSON.stringify(parameter)).to.include("childRequests");
  });

  it("migration 0015: a quote stored without its USD price gets it from its own currencyIn, so do its request's intent and record; a $0 quote gets none", async () => {
    const priced = testIntent(3, { requestId: hex(3), orderId: hex(1003) });
    const unpriced = testIntent(4, { requestId: hex(4), orderId: hex(1004) });
    const currencyIn = (amountUsd: string) => ({ details: { currencyIn: { amount: "1000000000000000000", amountUsd, currency: { decimals: 18 } } } });
    for (const [intent, quote] of [[priced, currencyIn("3000.5")], [unpriced, currencyIn("0")]] as const) {
      await engine.store.saveQuote({ requestId: intent.requestId, orderId: intent.orderId, orderData: testOrder(intent), quote, intent, expiresAt: new Date(engine.clock.ms + 60_000) });
      const data: RequestData = {
        fees: { gas: "1000000000000000", fixed: "0", price: "2000000000000000", gateway: "0" },
        feeCurrencyObject: ETH,
        refundCurrencyData: { currency: ETH, amount: "1000000000000000000", amountFormatted: "1", amountUsd: "0", minimumAmount: "1000000000000000000" },
      };
      await engine.store.createRequest({ ...testNewRequest(Number(BigInt(intent.requestId)), { data }), solver: { intent } });
    }
    const before = (await records(`id=${hex(3)}`))[0]!;
    expect(before.data.feesUsd, "no stored price: $0").to.deep.equal({ gas: "0", fixed: "0", price: "0", gateway: "0" });

    const migration = loadMigrations().find((m) => m.version === 15)!;
    expect(migration.name).to.equal("quote_usd_prices");
    await engine.store.engine.exec(migration.sql);

    expect((await engine.store.getQuote(hex(3)))!.intent.originUsdPriceE8).to.equal(300050000000n);
    expect((await engine.store.getRequest(hex(3)))!.solver!.intent.originUsdPriceE8).to.equal(300050000000n);
    expect((await engine.store.getQuote(hex(4)))!.intent).to.not.have.property("originUsdPriceE8");
    const after = (await records(`id=${hex(3)}`))[0]!;
    expect(after.data.feesUsd).to.deep.equal({ gas: "3.0005", fixed: "0", price: "6.001", gateway: "0" });
    expect(after.data.refundCurrencyData.amountUsd).to.equal("3000.5");
    // Served with isNative, although stored without it.
    expect(after.data.feeCurrencyObject.metadata).to.deep.equal({ logoURI: "", verified: true, isNative: true });
    expect(after.data.refundCurrencyData.currency.metadata.isNative).to.equal(true);
    expect((await records(`id=${hex(4)}`))[0]!.data.feesUsd).to.deep.equal({ gas: "0", fixed: "0", price: "0", gateway: "0" });
  });
});

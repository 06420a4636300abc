/**
 * The request record of GET /requests/v2 holds every field the spec lists, after real requests on two
 * EDR chains, the real solver and real HTTP (docs/api.md "Request record"):
 * - `feesUsd` {gas, fixed, price, gateway}: `data.fees` in USD at the price the quote used (stored with
 *   its intent, never re-read at serve time);
 * - `refundFailReason` always present: `N/A` until a refund fails;
 * - `failedTxHash` / `failedTxBlockNumber` = the fill that reverted onchain (its receipt's block); omitted
 *   when no fill was sent;
 * - `metadata.isNative` in every currency object, as in quotes;
 * - `refundCurrencyData.amountUsd` priced at the quote's price;
 * - `includeChildRequests=true`: the duplicate deposits and refunds that belong to a request, as its
 *   `childRequests`; without the flag the record is unchanged;
 * - the `apiKey` filter takes the key's id (with the key in `x-api-key`); the raw key in the URL is 400
 *   API_KEY_IN_URL.
 */
import { expect } from "chai";
import { parseEther, type Address, type Hex } from "viem";
import { depositoryAbi } from "../../ts/abi/Depository.ts";
import { createStore, type Store } from "../../ts/service/store/createStore.ts";
import { createSolver } from "../../ts/service/solver/startSolver.ts";
import { apiKeyStore } from "../../ts/service/store/apiKeys.ts";
import type { QuotedIntent } from "../../ts/service/model/quotedIntent.ts";
import { testOrder } from "./fixtures/testOrder.ts";
import { errorBody, listen, type Listening } from "./http/testApp.ts";
import { depository, tickUntil } from "./solver/solverHelpers.ts";
import { chainNow, deposit, freshAddress, makeIntent, startTwoChains, type TwoChains } from "./solver/twoChains.ts";

/** The quote's price of ETH: $3000 (1e-8 USD). */
const ETH_USD_E8 = 3000n * 10n ** 8n;

type Json = Record<string, any>;

describe("request record complete (issue 24: feesUsd, refundFailReason, failedTx, isNative, amountUsd, children, apiKey)", function () {
  this.timeout(300_000);
  let env: TwoChains;
  let store: Store;
  let server: Listening;
  let solver: ReturnType<typeof createSolver>;
  let key: { id: string; key: string };

  before(async () => {
    env = await startTwoChains();
    store = await createStore();
    solver = createSolver({ config: env.config, store });
    // Running before the deposits: strays are tracked from here (the chain's earlier deposits are not).
    await solver.tick();
    key = await apiKeyStore(store).createApiKey("shop");
    server = await listen({ config: env.config, deps: { store } });
  });
  after(async () => {
    await server?.close();
    await store?.close();
    await env?.close();
  });

  async function quoted(overrides: Partial<QuotedIntent> = {}): Promise<QuotedIntent> {
    const intent = makeIntent(env, { fees: { relayerGas: parseEther("0.001"), relayerService: parseEther("0.002"), app: 0n }, originUsdPriceE8: ETH_USD_E8, ...overrides });
    await store.saveQuote({ requestId: intent.requestId, orderId: intent.orderId, orderData: testOrder(intent), quote: {}, intent, expiresAt: new Date(intent.expiresAt * 1000), apiKeyId: key.id });
    return intent;
  }

  async function record(requestId: string, query = ""): Promise<Json> {
    const response = await fetch(`${server.url}/requests/v2?id=${requestId}${query}`);
    const text = await response.text();
    expect(response.status, text).to.equal(200);
    return (JSON.parse(text) as { requests: Json[] }).requests[0]!;
  }

  /** Every currency object of a record's data, by path. */
  function currencyObjects(data: Json): Array<[string, Json]> {
    const found: Array<[string, Json]> = [];
    const walk = (value: unknown, path: string) => {
      if (value === null || typeof value !== "object") return;
      const object = value as Json;
      if ("decimals" in object && "metadata" in object) found.push([path, object]);
      for (const [k, v] of Object.entries(object)) walk(v, `${path}.${k}`);
    };
    walk(data, "data");
    return found;
  }

  it("success: feesUsd at the quote's price, refundFailReason N/A, isNative in every currency object, no failedTx fields", async () => {
    const intent = await quoted();
    await deposit(env, { orderId: intent.orderId, amount: intent.originAmount });
    await tickUntil(solver, store, intent.requestId, (r) => r.solver?.repayment?.status === "confirmed");
    const { data } = await record(intent.requestId);
    expect(data.fees).to.deep.equal({ gas: parseEther("0.001").toString(), fixed: "0", price: parseEther("0.002").toString(), gateway: "0" });
    expect(data.feesUsd).to.deep.equal({ gas: "3", fixed: "0", price: "6", gateway: "0" });
    expect(data.refundFailReason).to.equal("N/A");
    expect(data.refundCurrencyData).to.include({ amount: intent.originAmount.toString(), amountUsd: "3000" });
    const currencies = currencyObjects(data);
    expect(currencies.map(([path]) => path)).to.include.members(["data.currencyObject", "data.feeCurrencyObject", "data.appFeeCurrencyObject", "data.refundCurrencyData.currency"]);
    for (const [path, currency] of currencies) expect(currency.metadata.isNative, path).to.equal(currency.address === "0x0000000000000000000000000000000000000000");
    expect(data).to.not.have.any.keys("failedTxHash", "failedTxBlockNumber");
  });

  it("fill reverted onchain: failedTxHash and failedTxBlockNumber are that fill's; the refund is a child record; amountUsd priced", async () => {
    const latest = await env.destination.publicClient.getBlock();
    const intent = await quoted({ fillDeadline: Number(latest.timestamp) + 120 });
    await deposit(env, { orderId: intent.orderId, amount: intent.originAmount });
    await env.destination.testClient.setAutomine(false);
    try {
      await tickUntil(solver, store, intent.requestId, (r) => r.status === "submitted");
      await env.destination.testClient.increaseTime({ seconds: 600 });
      await env.destination.testClient.mine({ blocks: 1 });
    } finally {
      await env.destination.testClient.setAutomine(true);
    }
    const done = await tickUntil(solver, store, intent.requestId, (r) => r.status === "refund");
    const fillHash = done.solver!.fill!.hash;
    const receipt = await env.destination.publicClient.getTransactionReceipt({ hash: fillHash });
    expect(receipt.status).to.equal("reverted");

    const plain = await record(intent.requestId);
    expect(plain.status).to.equal("refund");
    expect(plain.data).to.include({ failedTxHash: fillHash, failedTxBlockNumber: Number(receipt.blockNumber), refundFailReason: "N/A" });
    expect(plain.data.refundCurrencyData).to.include({ amount: intent.originAmount.toString(), amountUsd: "3000" });
    expect(plain).to.not.have.property("childRequests");

    const withChildren = await record(intent.requestId, "&includeChildRequests=true");
    const refundHash = done.solver!.refund!.hash!;
    const refundReceipt = await env.origin.publicClient.getTransactionReceipt({ hash: refundHash });
    expect(withChildren.childRequests).to.deep.equal([
      {
        kind: "refund",
        reason: "ORDER_EXPIRED",
        status: "refunded",
        chainId: env.origin.chainId,
        txHash: refundHash,
        block: Number(refundReceipt.blockNumber),
        from: depository(env, env.origin).toLowerCase(),
        to: intent.refundTo,
        currency: "0x0000000000000000000000000000000000000000",
        amount: intent.originAmount.toString(),
        refundTxHash: null,
        refundFailReason: "N/A",
      },
    ]);
    const { childRequests: _children, ...rest } = withChildren;
    expect(rest).to.deep.equal(plain);
  });

  it("failure before any fill was sent (deposit after the quote expired): failedTxHash and failedTxBlockNumber are omitted", async () => {
    const intent = await quoted({ expiresAt: (await chainNow(env.origin)) - 60 });
    await deposit(env, { orderId: intent.orderId, amount: intent.originAmount });
    const done = await tickUntil(solver, store, intent.requestId, (r) => r.status === "refund");
    expect(done.solver?.fill).to.equal(undefined);
    const { data } = await record(intent.requestId);
    expect(data.failReason).to.equal("ORDER_EXPIRED");
    expect(data).to.not.have.any.keys("failedTxHash", "failedTxBlockNumber");
    expect(data.refundFailReason).to.equal("N/A");
  });

  it("includeChildRequests=true: a duplicate deposit is a child record with its refund; without the flag (or =false) the record is unchanged", async () => {
    const intent = await quoted();
    await deposit(env, { orderId: intent.orderId, amount: intent.originAmount });
    // A second deposit for the same order, crediting a fresh depositor.
    const depositor = freshAddress();
    const wallet = env.origin.walletClient(env.user.privateKey);
    const amount = parseEther("1.3");
    const duplicate = await wallet.writeContract({ chain: wallet.chain, address: depository(env, env.origin), abi: depositoryAbi, functionName: "depositNative", args: [depositor as Address, intent.orderId as Hex], value: amount });
    const duplicateReceipt = await env.origin.publicClient.waitForTransactionReceipt({ hash: duplicate });
    await tickUntil(solver, store, intent.requestId, (r) => r.solver?.repayment?.status === "confirmed");
    let stray;
    for (let i = 0; i < 20 && stray?.state !== "refunded"; i++) {
      await solver.tick();
      [stray] = await store.listStrayDepositsByOrderId(intent.orderId);
    }
    expect(stray?.state).to.equal("refunded");

    const plain = await record(intent.requestId);
    expect(plain).to.not.have.property("childRequests");
    expect(await record(intent.requestId, "&includeChildRequests=false")).to.deep.equal(plain);
    const withChildren = await record(intent.requestId, "&includeChildRequests=true");
    expect(withChildren.childRequests).to.deep.equal([
      {
        kind: "duplicateDeposit",
        reason: "DOUBLE_SPEND",
        status: "refunded",
        chainId: env.origin.chainId,
        txHash: duplicate.toLowerCase(),
        block: Number(duplicateReceipt.blockNumber),
        from: depositor,
        to: depository(env, env.origin).toLowerCase(),
        currency: "0x0000000000000000000000000000000000000000",
        amount: amount.toString(),
        refundTxHash: stray!.refund!.hash,
        refundFailReason: "N/A",
      },
    ]);
    const { childRequests: _children, ...rest } = withChildren;
    expect(rest).to.deep.equal(plain);
  });

  it("apiKey filter: the key's id with the key in x-api-key finds the request; the raw key in the URL is 400 API_KEY_IN_URL", async () => {
    const intent = await quoted();
    await deposit(env, { orderId: intent.orderId, amount: intent.originAmount });
    await tickUntil(solver, store, intent.requestId, (r) => r.status !== "waiting");
    const byId = await fetch(`${server.url}/requests/v2?apiKey=${key.id}&id=${intent.requestId}`, { headers: { "x-api-key": key.key } });
    expect(byId.status).to.equal(200);
    expect(((await byId.json()) as { requests: Json[] }).requests.map((r) => r.id)).to.deep.equal([intent.requestId]);
    const raw = await fetch(`${server.url}/requests/v2?apiKey=${encodeURIComponent(key.key)}`, { headers: { "x-api-key": key.key } });
    expect([raw.status, (await errorBody(raw)).errorCode]).to.deep.equal([400, "API_KEY_IN_URL"]);
  });
});

/**
 * ts/service/quote/quoteService.ts: one quote end to end against real local chains (Hardhat EDR 31337
 * and 31338) and a real store (PGlite in memory), with the clock, the randomness and the route resolver
 * injected: the route is resolved once, the quote is built from live reads, signed when asked and
 * stored with the order once.
 */
import { expect } from "chai";
import { network } from "hardhat";
import { getAddress, type Hex, type PublicClient } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { serviceAccountOf } from "../../../ts/service/chains/serviceAccounts.ts";
import { isFerryError } from "../../../ts/core/errors.ts";
import { getOrderId } from "../../../ts/core/orderId.ts";
import { orderToJson } from "../../../ts/core/orderJson.ts";
import { recoverOrderSigner } from "../../../ts/core/orderSignature.ts";
import { createQuoteService, type QuoteServiceDeps } from "../../../ts/service/quote/quoteService.ts";
import { resolveRoute, type RouteRequest } from "../../../ts/service/quote/quoteRoute.ts";
import { createStore, type Store } from "../../../ts/service/store/createStore.ts";
import { DESTINATION, nativeRequest, NOW, ORIGIN, quoteConfig } from "./quoteFixture.ts";
import { canonicalHex } from "../../../ts/service/model/values.ts";

// Hardhat account #3.
const SOLVER = serviceAccountOf(privateKeyToAccount("0x7c852118294e51e653712a81e05800f419141751be58f605c371e15141b007a6"));
const config = quoteConfig();
const origin = await network.create("origin");
const destination = await network.create("destination");
const clients = new Map<number, PublicClient>([
  [ORIGIN, (await origin.viem.getPublicClient()) as unknown as PublicClient],
  [DESTINATION, (await destination.viem.getPublicClient()) as unknown as PublicClient],
]);

async function codeOf(promise: Promise<unknown>): Promise<string | undefined> {
  try {
    await promise;
  } catch (error) {
    return isFerryError(error) ? error.code : String(error);
  }
  return undefined;
}

describe("quoteService", function () {
  let store: Store;
  let resolved: number;
  let draws: number;
  /** Each draw of random bytes is a new byte value, so every quote has its own salt and requestId. */
  let seed = 0;

  /** Every dependency injected: a fixed clock, counted randomness, a counting route resolver. */
  const service = (overrides: Partial<QuoteServiceDeps> = {}) =>
    createQuoteService({
      chains: config.chains,
      settings: config.quotes,
      clients,
      solver: SOLVER,
      store,
      now: () => new Date(NOW * 1000),
      randomBytes32: () => {
        draws += 1;
        return new Uint8Array(32).fill(++seed);
      },
      resolveRoute: (request: RouteRequest) => {
        resolved += 1;
        return resolveRoute(config.chains, request);
      },
      ...overrides,
    });
  const options = { includeOrderSignature: false, apiKeyId: null };

  before(async () => {
    store = await createStore();
  });
  after(async () => {
    await store?.close();
  });
  beforeEach(() => {
    resolved = 0;
    draws = 0;
  });

  it("quote_resolvesTheRouteOnce_andBuildsFromLiveGasPrices", async () => {
    const byte = (n: number) => n.toString(16).padStart(2, "0").repeat(32);
    const [salt, requestId] = [byte(seed + 1), byte(seed + 2)];
    const quote = await service().quote(nativeRequest(), options);
    expect(resolved).to.equal(1);
    const gasPrice = await clients.get(ORIGIN)!.getGasPrice();
    expect(quote.fees.gas.amount).to.equal((BigInt(config.quotes.gas.depositNative) * gasPrice).toString());
    // The injected clock (NOW) is behind the chains' block time: expiry follows the origin chain's clock.
    const originTime = Number((await clients.get(ORIGIN)!.getBlock()).timestamp);
    expect(quote.expiresAt).to.equal(Math.max(NOW, originTime) + config.quotes.ttlSeconds);
    expect(quote.protocol.v2.orderData.salt).to.equal(`0x${salt}`);
    expect(quote.steps[0]!.requestId).to.equal(`0x${requestId}`);
    expect(getOrderId(quote.protocol.v2.orderData)).to.equal(quote.protocol.v2.orderId);
    expect(quote.protocol.v2.orderSignature).to.equal(undefined);

    await service().quote(nativeRequest({ destinationChainId: ORIGIN }), options);
    expect(resolved, "a same-chain quote too").to.equal(2);
  });

  it("quote_storesTheQuoteWithItsIntent_andTheOrderDataOnce", async () => {
    const quote = await service().quote(nativeRequest(), { includeOrderSignature: false, apiKeyId: null });
    const requestId = quote.steps[0]!.requestId;
    const stored = await store.getQuote(canonicalHex(requestId));
    expect(stored!.quote).to.deep.equal(quote);
    expect(orderToJson(stored!.orderData), "the typed order, whose wire form the quote carries").to.deep.equal(quote.protocol.v2.orderData);
    expect(stored!.intent).to.deep.include({ requestId, orderId: quote.protocol.v2.orderId, expiresAt: quote.expiresAt });
    const { rows } = await store.engine.query<{ order_data: unknown; quote_order: unknown }>(
      "SELECT order_data, quote #> '{protocol,v2,orderData}' AS quote_order FROM quotes WHERE request_id = $1",
      [requestId],
    );
    expect(rows[0]!.order_data).to.deep.equal(quote.protocol.v2.orderData);
    expect(rows[0]!.quote_order, "the quote column does not hold the order again").to.equal(null);
  });

  it("quote_signsTheOrderIdWithTheSolverKey_whenAsked", async () => {
    const quote = await service().quote(nativeRequest(), { includeOrderSignature: true, apiKeyId: null });
    const { orderId, orderSignature } = quote.protocol.v2;
    expect(await recoverOrderSigner(orderId, orderSignature as Hex)).to.equal(getAddress(SOLVER.address));
    expect(quote.protocol.v2.orderData.solver).to.equal(SOLVER.address);
  });

  it("quote_isSolverNotConfigured_withoutASolverKey_beforeAnyWork", async () => {
    expect(await codeOf(service({ solver: undefined }).quote(nativeRequest(), options))).to.equal("SOLVER_NOT_CONFIGURED");
    expect([resolved, draws]).to.deep.equal([0, 0]);
  });

  it("quote_isChainUnavailable_withoutAClientOrAnAnswer_beforeBuilding", async () => {
    const originOnly = new Map([[ORIGIN, clients.get(ORIGIN)!]]);
    expect(await codeOf(service({ clients: originOnly }).quote(nativeRequest(), options))).to.equal("CHAIN_UNAVAILABLE");
    const down = () => Promise.reject(new Error("down"));
    const failing = { getGasPrice: down, getBalance: down, readContract: down, getBlock: down, getCode: down };
    const unanswered = new Map([[ORIGIN, failing], [DESTINATION, failing]]);
    expect(await codeOf(service({ clients: unanswered }).quote(nativeRequest(), options))).to.equal("CHAIN_UNAVAILABLE");
    expect(draws, "nothing built").to.equal(0);
  });

  it("quote_anchorsExpiryToTheChainsClocks_whenTheyRunAheadOfTheWallClock", async () => {
    // A busy devnet: blocks come faster than one a second, so block time runs ahead of the wall clock.
    // The solver checks expiry against chain time (deposit block ≤ expiresAt, destination block < fillDeadline).
    const wall = Math.floor(Date.now() / 1000);
    // The next blocks' times set outright, not moved by evm_increaseTime: in one CI run the EDR chain's
    // own clock stood 6,246 s behind the wall clock when this test ran (its chains were made when the
    // worker loaded the file), and an hour ahead of that was still behind the wall.
    const ahead = async (chain: typeof origin, seconds: number) => {
      const latest = Number((await chain.viem.getPublicClient().then((c) => c.getBlock())).timestamp);
      await chain.provider.request({ method: "evm_setNextBlockTimestamp", params: [Math.max(latest + 1, wall + seconds)] });
      await chain.provider.request({ method: "evm_mine", params: [] });
    };
    await ahead(origin, 3_600);
    await ahead(destination, 7_200);
    const originTime = Number((await clients.get(ORIGIN)!.getBlock()).timestamp);
    const destinationTime = Number((await clients.get(DESTINATION)!.getBlock()).timestamp);
    expect(originTime - wall, "the origin chain runs ahead").to.be.greaterThan(3_000);

    const quote = await service({ now: () => new Date() }).quote(nativeRequest(), options);
    const { ttlSeconds, fillWindowSeconds } = config.quotes;
    expect(quote.expiresAt, "a deposit mined now on the origin chain is in time").to.be.at.least(originTime + ttlSeconds);
    expect(quote.expiresAt - (originTime + ttlSeconds), "and the window is the TTL, not more").to.be.below(5);
    expect(quote.fillDeadline, "the destination's clock gets the whole fill window").to.be.at.least(destinationTime + ttlSeconds + fillWindowSeconds);
    expect(quote.protocol.v2.orderData.output.deadline).to.equal(quote.fillDeadline);
    const stored = await store.getQuote(canonicalHex(quote.steps[0]!.requestId));
    expect([stored!.intent.expiresAt, stored!.intent.fillDeadline]).to.deep.equal([quote.expiresAt, quote.fillDeadline]);
  });

  it("quote_refusesAnUnsupportedRoute_withItsQuoteErrorCode", async () => {
    expect(await codeOf(service().quote(nativeRequest({ originChainId: 1 }), options))).to.equal("UNSUPPORTED_CHAIN");
    expect(resolved).to.equal(1);
  });
});

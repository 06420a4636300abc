/**
 * Fee sponsorship over real HTTP on loopback (POST /quote/v2 `subsidizeFees`), against two real local
 * chains (Hardhat EDR, Ferry deployed by ts/testing deployFerry) and both store engines: who may
 * sponsor (the caller's own, unrevoked key — not an anonymous caller, not a referrer-attributed key,
 * not a key revoked a moment ago), the hold taken on the app balance per quote, the cap, quote spam
 * that stops at zero, and the quote and its record validating against their schemas.
 */
import { expect } from "chai";
import { network } from "hardhat";
import { Value } from "typebox/value";
import { zeroAddress, type Address, type PublicClient } from "viem";
import type { FerryConfig } from "../../../ts/service/config/configSchema.ts";
import { parseConfig, resolveChainContracts } from "../../../ts/service/config/parseConfig.ts";
import { chainClientsOf, type ChainClient } from "../../../ts/service/chains/chainClients.ts";
import type { Quote } from "../../../ts/service/quote/buildQuote.ts";
import { QuoteSchema } from "../../../ts/service/http/quoteRecord.ts";
import { RequestData } from "../../../ts/service/model/requestData.ts";
import { quoteData } from "../../../ts/service/solver/indexer/depositRequest.ts";
import { canonicalHex } from "../../../ts/service/model/values.ts";
import { apiKeyStore } from "../../../ts/service/store/apiKeys.ts";
import { deployFerry, type FerryFixture } from "../../../ts/testing/deployFerry.ts";
import { describeEachEngine } from "../store/engines.ts";
import { errorBody, listen, type Listening } from "./testApp.ts";

const SOLVER_KEY = "0x7c852118294e51e653712a81e05800f419141751be58f605c371e15141b007a6";
const SOLVER = "0x90F79bf6EB2c4f870365E785982E1f101E93b906";
const ORIGIN = 31337;
const DESTINATION = 31338;

const origin = await network.create("origin");
const destination = await network.create("destination");
const [, user] = await origin.viem.getWalletClients();
const originClient = await origin.viem.getPublicClient();
const destinationClient = await destination.viem.getPublicClient();
const originFerry: FerryFixture = await deployFerry(origin.viem);
const destinationFerry: FerryFixture = await deployFerry(destination.viem);
for (const ferry of [originFerry, destinationFerry]) await ferry.stablecoin!.write.mint([SOLVER, 1_000_000n * 10n ** 6n]);
const stablecoin: Address = originFerry.stablecoin!.address;

function serviceConfig(): FerryConfig {
  const chain = (id: number, name: string, ferry: FerryFixture) => ({
    id,
    name,
    displayName: name,
    rpcUrl: "http://127.0.0.1:1",
    nativeCurrency: { symbol: "ETH", name: "Ether", decimals: 18, usdPrice: "3000" },
    erc20Currencies: [{ address: ferry.stablecoin!.address, symbol: "fUSD", name: "Ferry Test USD", decimals: 6, usdPrice: "1" }],
    contracts: { depository: ferry.addresses.depository, attestedReceiver: ferry.addresses.attestedReceiver, multicaller: ferry.addresses.multicaller },
  });
  return resolveChainContracts(
    parseConfig(
      { chains: [chain(ORIGIN, "ferry-origin", originFerry), chain(DESTINATION, "ferry-destination", destinationFerry)], rateLimits: { anonymousPerMinute: 100_000, apiKeyPerMinute: 100_000 } },
      { FERRY_SOLVER_KEY: SOLVER_KEY },
      "/tmp",
    ),
    new Map(),
  );
}

const testClient = (id: number, client: unknown) => ({ config: { id }, publicClient: client as PublicClient }) as unknown as ChainClient;
const clients = chainClientsOf([testClient(ORIGIN, originClient), testClient(DESTINATION, destinationClient)]);
const config = serviceConfig();

const body = (overrides: Record<string, unknown> = {}) => ({
  user: user!.account.address,
  originChainId: ORIGIN,
  destinationChainId: DESTINATION,
  originCurrency: stablecoin,
  destinationCurrency: destinationFerry.stablecoin!.address,
  amount: "25000000",
  tradeType: "EXACT_INPUT",
  subsidizeFees: true,
  ...overrides,
});

describeEachEngine("fee sponsorship over HTTP", (engine) => {
  let server: Listening;
  before(async () => {
    server = await listen({ config, deps: { store: engine.store, chainClients: clients } });
  });
  after(async () => server?.close());

  const post = (payload: unknown, headers: Record<string, string> = {}) =>
    fetch(`${server.url}/quote/v2`, { method: "POST", headers: { "content-type": "application/json", ...headers }, body: JSON.stringify(payload) });
  async function newApp(fundUsdMicro: bigint) {
    const key = await apiKeyStore(engine.store).createApiKey(`app-${Math.random()}`);
    const id = (await apiKeyStore(engine.store).verify(key.key))!.id;
    if (fundUsdMicro > 0n) {
      await engine.store.appBalances.credit({ apiKeyId: id, amountUsd: fundUsdMicro, source: { chainId: ORIGIN, txHash: `0x${id.slice(-8).padStart(64, "0")}`, logIndex: 0 }, currency: stablecoin.toLowerCase(), amount: fundUsdMicro });
    }
    return { key: key.key, id };
  }
  async function quotesStored(): Promise<number> {
    const { rows } = await engine.store.engine.query<{ n: number }>("SELECT count(*)::int AS n FROM quotes");
    return rows[0]!.n;
  }

  it("sponsorship_withoutAnApiKey_is401_andNothingIsQuoted", async () => {
    const response = await post(body());
    expect(response.status).to.equal(401);
    expect((await errorBody(response)).errorCode).to.equal("SPONSORSHIP_REQUIRES_API_KEY");
    expect(await quotesStored()).to.equal(0);
  });

  it("sponsorship_withAReferrerAttributedKeyOnly_is401_attributionGivesNoPrivilege", async () => {
    const app = await newApp(10_000_000n);
    await apiKeyStore(engine.store).setReferrer(app.id, "shop");
    const response = await post(body({ referrer: "shop" }));
    expect(response.status).to.equal(401);
    expect((await errorBody(response)).errorCode).to.equal("SPONSORSHIP_REQUIRES_API_KEY");
    expect((await engine.store.appBalances.balance(app.id)).heldUsd).to.equal(0n);
  });

  it("sponsorship_withAKeyRevokedAMomentAgo_is401_evenWhileTheRequestCacheStillKnowsIt", async () => {
    const app = await newApp(10_000_000n);
    // Warm the per-process key cache with an unsponsored quote, then revoke.
    expect((await post(body({ subsidizeFees: false }), { "x-api-key": app.key })).status).to.equal(200);
    expect(await apiKeyStore(engine.store).revokeApiKey(app.id)).to.equal(true);
    const response = await post(body(), { "x-api-key": app.key });
    expect(response.status).to.equal(401);
    expect((await errorBody(response)).errorCode).to.equal("SPONSORSHIP_REQUIRES_API_KEY");
    expect((await engine.store.appBalances.balance(app.id)).heldUsd).to.equal(0n);
  });

  it("sponsoredQuote_holdsTheSponsoredAmount_deliversMore_andValidatesWithItsRecord", async () => {
    const app = await newApp(10_000_000n);
    const plain = (await (await post(body({ subsidizeFees: false }))).json()) as Quote;
    const response = await post(body(), { "x-api-key": app.key });
    const quote = (await response.json()) as Quote;
    expect(response.status, JSON.stringify(quote)).to.equal(200);
    expect(Value.Check(QuoteSchema, quote), JSON.stringify([...Value.Errors(QuoteSchema, quote)].slice(0, 3))).to.equal(true);
    const subsidized = BigInt(quote.fees.subsidized.amount);
    expect(subsidized > 0n).to.equal(true);
    expect(quote.fees.relayer).to.deep.equal(plain.fees.relayer);
    expect(BigInt(quote.details.currencyOut.amount)).to.equal(BigInt(plain.details.currencyOut.amount) + subsidized);
    expect(quote.feeSponsorship!.capHit).to.equal(false);
    // fUSD is $1: the hold is the sponsored amount in USD micro-units.
    expect(await engine.store.appBalances.balance(app.id)).to.deep.include({ heldUsd: subsidized, availableUsd: 10_000_000n - subsidized });
    const stored = await engine.store.getQuote(canonicalHex(quote.steps.at(-1)!.requestId));
    expect(stored!.apiKeyId).to.equal(app.id);
    const sponsorship = stored!.intent.sponsorship!;
    const hold = await engine.store.appBalances.getHold(sponsorship.holdId!);
    expect(hold).to.deep.include({ purpose: "sponsorship", reference: stored!.intent.requestId, amountUsd: subsidized, state: "held" });
    const data = quoteData(stored!.intent, config.chains[0]);
    expect(Value.Check(RequestData, data), JSON.stringify([...Value.Errors(RequestData, data)].slice(0, 3))).to.equal(true);
    expect(data.subsidizedRequest).to.equal(true);
    expect(data.subsidizedFee).to.deep.include({ amountUsd: quote.fees.subsidized.amountUsd });
    expect(data.subsidizedFee!.sponsor.amount).to.equal(subsidized.toString());
    expect(data.feeSponsorship!.quoted.components.execution.sponsored.amount).to.equal(quote.feeSponsorship!.components.execution.sponsored.amount);
  });

  it("sponsoredQuote_overTheCap_sponsorsTheCap_andTheUserPaysTheRest", async () => {
    const app = await newApp(10_000_000n);
    const response = await post(body({ maxSubsidizationAmount: "1000" }), { "x-api-key": app.key });
    const quote = (await response.json()) as Quote;
    expect(response.status, JSON.stringify(quote)).to.equal(200);
    expect(quote.fees.subsidized.amount).to.equal("1000");
    expect(quote.feeSponsorship).to.deep.include({ capHit: true, maxSubsidizationAmount: "1000" });
    expect((await engine.store.appBalances.balance(app.id)).heldUsd).to.equal(1000n);
  });

  it("quoteSpam_locksAtMostTheBalance_stopsAtZero_andTheNextIsRefusedNotQuoted", async () => {
    const app = await newApp(0n);
    const probe = await newApp(10_000_000n);
    const per = BigInt(((await (await post(body(), { "x-api-key": probe.key })).json()) as Quote).fees.subsidized.amount);
    await engine.store.appBalances.credit({ apiKeyId: app.id, amountUsd: per * 3n, source: { chainId: ORIGIN, txHash: `0x${"ee".repeat(32)}`, logIndex: 7 }, currency: stablecoin.toLowerCase(), amount: per * 3n });
    const before = await quotesStored();
    // Six at once: three fit, three are refused; never more held than the balance.
    const responses = await Promise.all(Array.from({ length: 6 }, () => post(body(), { "x-api-key": app.key })));
    const statuses = responses.map((r) => r.status).sort();
    expect(statuses).to.deep.equal([200, 200, 200, 400, 400, 400]);
    for (const r of responses.filter((r) => r.status === 400)) expect((await errorBody(r)).errorCode).to.equal("SPONSOR_BALANCE_TOO_LOW");
    expect(await engine.store.appBalances.balance(app.id)).to.deep.include({ heldUsd: per * 3n, availableUsd: 0n, debitedUsd: 0n });
    expect(await quotesStored()).to.equal(before + 3);
    // The next one is refused too, and the app can still quote unsponsored.
    const next = await post(body(), { "x-api-key": app.key });
    expect(next.status).to.equal(400);
    expect((await errorBody(next)).errorCode).to.equal("SPONSOR_BALANCE_TOO_LOW");
    expect((await post(body({ subsidizeFees: false }), { "x-api-key": app.key })).status).to.equal(200);
  });
});

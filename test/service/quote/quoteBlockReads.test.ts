/**
 * The quote's chain reads cached per block (ts/service/chains/blockReadCache.ts), keyed by the chain
 * watch's head (ts/service/chains/chainWatch.ts: the chains' shared heads as last seen), on real chains (Hardhat EDR 31337 and 31338) with a
 * real store: quotes made while the heads stay read the chains once; a new head seen by the watch
 * (a new gas price, a user paid) is what the next quote prices with; a head the watch has not seen yet
 * does not leak into the cached values, and without a watch every quote reads its chains.
 */
import { expect } from "chai";
import { parseEther, parseGwei, type PublicClient } from "viem";
import type { ChainClients } from "../../../ts/service/chains/chainClients.ts";
import { createChainHead } from "../../../ts/service/chains/chainHead.ts";
import { createChainWatch, type ChainWatch } from "../../../ts/service/chains/chainWatch.ts";
import { createQuoteService, type QuoteChainClient } from "../../../ts/service/quote/quoteService.ts";
import { createStore, type Store } from "../../../ts/service/store/createStore.ts";
import { canonicalHex } from "../../../ts/service/model/values.ts";
import { quoteChains, QUOTE_SOLVER } from "./quoteChains.ts";
import { ADDR, DESTINATION, nativeRequest, ORIGIN, quoteConfig } from "./quoteFixture.ts";

const config = quoteConfig();
const { origin, clients } = await quoteChains();
const [payer] = await origin.viem.getWalletClients();

/** Every chain read a quote makes, counted per method. */
const reads: string[] = [];
const counted = new Map<number, QuoteChainClient>(
  [...clients].map(([chainId, client]) => [
    chainId,
    new Proxy(client, {
      get(target, name, receiver) {
        const value = Reflect.get(target, name, receiver) as unknown;
        if (typeof value !== "function" || !["getGasPrice", "getBalance", "readContract", "getBlock"].includes(String(name))) return value;
        return (...args: unknown[]) => {
          reads.push(`${chainId}:${String(name)}`);
          return (value as (...a: unknown[]) => unknown).apply(target, args);
        };
      },
    }) as QuoteChainClient,
  ]),
);
/**
 * The watch reads each chain's shared head (ts/service/chains/chainHead.ts) over the chains' own clients;
 * read at every tick (maxAgeMs 0), so the ticks are what moves the heads here.
 */
const heads = new Map([...clients].map(([chainId, client]) => [chainId, createChainHead(client as PublicClient, { maxAgeMs: 0 })]));
const watchClients = {
  has: (chainId: number) => clients.has(chainId),
  get: (chainId: number) => ({ publicClient: clients.get(chainId)!, head: heads.get(chainId)! }),
  all: () => [],
} as unknown as ChainClients;

describe("quoteService: chain reads cached per block", function () {
  let store: Store;
  let watch: ChainWatch;
  const options = { includeOrderSignature: false, apiKeyId: null };
  const service = (withWatch = true) =>
    createQuoteService({ chains: config.chains, settings: config.quotes, clients: counted, solver: QUOTE_SOLVER, store, ...(withWatch && { heads: watch.head }) });
  const originClient = clients.get(ORIGIN) as PublicClient;
  const depositGas = BigInt(config.quotes.gas.depositNative);

  before(async () => {
    store = await createStore();
    watch = createChainWatch({ chains: config.chains, clients: watchClients, intervalMs: 60_000 });
  });
  after(async () => {
    await store?.close();
  });
  beforeEach(async () => {
    await watch.tick();
    reads.length = 0;
  });

  it("quotes_whileTheHeadsStay_readTheChainsOnce", async () => {
    const quotes = service();
    const first = await quotes.quote(nativeRequest(), options);
    const perQuote = reads.length;
    expect(perQuote, "gas price, block time on both chains, the user's balance").to.equal(5);
    const more = await Promise.all([1, 2, 3].map(() => quotes.quote(nativeRequest(), options)));
    expect(reads.length, "no read after the first quote of the block").to.equal(perQuote);
    for (const quote of more) {
      expect(quote.steps[0]!.requestId).to.not.equal(first.steps[0]!.requestId);
      expect(quote.fees).to.deep.equal(first.fees);
      expect(quote.details.userBalance).to.equal(first.details.userBalance);
      expect(await store.getQuote(canonicalHex(quote.steps[0]!.requestId)), "each quote stored").to.not.equal(null);
    }
  });

  it("aNewHead_isWhatTheNextQuotePricesWith_andNotBeforeTheWatchSeesIt", async () => {
    const quotes = service();
    const before = await quotes.quote(nativeRequest(), options);
    const gasBefore = await originClient.getGasPrice();
    expect(before.fees.gas.amount).to.equal((depositGas * gasBefore).toString());
    // A new block on the origin: a higher base fee, and the user paid 1 ETH.
    await origin.provider.request({ method: "hardhat_setNextBlockBaseFeePerGas", params: [`0x${parseGwei("7").toString(16)}`] });
    await payer!.sendTransaction({ to: ADDR.user, value: parseEther("1") });
    const gasAfter = await originClient.getGasPrice();
    expect(gasAfter).to.not.equal(gasBefore);

    const unseen = await quotes.quote(nativeRequest(), options);
    expect(unseen.fees.gas.amount, "the watch still says the old head: the old block's values").to.equal(before.fees.gas.amount);
    expect(unseen.details.userBalance).to.equal(before.details.userBalance);

    await watch.tick();
    reads.length = 0;
    const after = await quotes.quote(nativeRequest(), options);
    expect(reads.filter((r) => r.startsWith(`${ORIGIN}:`)).length, "the origin read again at its new head").to.equal(3);
    expect(reads.filter((r) => r.startsWith(`${DESTINATION}:`)).length, "the destination's head did not move: nothing read").to.equal(0);
    expect(after.fees.gas.amount).to.equal((depositGas * gasAfter).toString());
    expect(BigInt(after.details.userBalance)).to.equal(BigInt(before.details.userBalance) + parseEther("1"));
  });

  it("withoutAWatch_everyQuoteReadsItsChains", async () => {
    const quotes = service(false);
    await quotes.quote(nativeRequest(), options);
    await quotes.quote(nativeRequest(), options);
    expect(reads.length).to.equal(10);
  });
});

// `useExternalLiquidity` has an effect: on a destination whose operator configured both a fixed
// ETH/fUSD price and the chain's Uniswap V2 pool for the pair (the fixed one first), a swap quoted
// with `useExternalLiquidity: true` is priced by the pool (onchain liquidity) instead of the fixed
// price, and the solver fills it re-priced against the same pool; without the flag (or with false),
// and for a bridge, the quote is what it was. Real EDR chains (the devnet's pool with its TWAP
// history), real HTTP (startServer), both store engines.
import { expect } from "chai";
import { parseEther, type Address } from "viem";
import type { FerryConfig, PriceSourceConfig } from "../../../ts/service/config/configSchema.ts";
import { DEVNET_TWAP_WINDOW_SECONDS } from "../../../ts/devnet/devnetMarket.ts";
import { startServer } from "../../../ts/service/server.ts";
import { createSolver } from "../../../ts/service/solver/startSolver.ts";
import type { Store } from "../../../ts/service/store/createStore.ts";
import { canonicalAddress, canonicalHex } from "../../../ts/service/model/values.ts";
import { describeEachEngine } from "../store/engines.ts";
import { tickUntil } from "../solver/solverHelpers.ts";
import { freshAddress, NATIVE, startTwoChains, tokenBalance, type TwoChains } from "../solver/twoChains.ts";

type QuoteBody = {
  details: { operation: string; isFixedRate: boolean; currencyOut: { amount: string; minimumAmount: string }; route: { destination: { router: string; pricing?: { source: string } } } };
  steps: Array<{ requestId: string; items: Array<{ data: { to: Address; data: `0x${string}`; value: string } }> }>;
};

describeEachEngine("quote: useExternalLiquidity prices a swap from the destination's pool", (engine) => {
  let env: TwoChains;
  let config: FerryConfig;
  let store: Store;
  let server: Awaited<ReturnType<typeof startServer>>;
  let pool: PriceSourceConfig;

  before(async function () {
    this.timeout(180_000);
    env = await startTwoChains();
    pool = {
      type: "uniswapV2",
      chainId: env.market.chainId,
      base: "ETH",
      quote: "fUSD",
      pair: canonicalAddress(env.market.uniswapV2Pair),
      baseToken: canonicalAddress(env.market.wrappedNative),
      quoteToken: canonicalAddress(env.stablecoin),
      feeBps: 30,
      reference: { type: "twap", windowSeconds: DEVNET_TWAP_WINDOW_SECONDS },
      maxReserveBps: 500,
    };
    // The devnet's fixed ETH/fUSD price for the destination stays first; the pool comes after it.
    expect(env.config.quotes.priceSources.some((s) => s.type === "fixed" && s.chainId === env.destination.chainId)).to.equal(true);
    config = { ...env.config, quotes: { ...env.config.quotes, priceSources: [...env.config.quotes.priceSources, pool] } };
    store = await (await engine.freshDatabase()).open(() => new Date());
    server = await startServer({ config, deps: { store }, solver: false, webhooks: false });
  });
  after(async () => {
    await server?.close();
    await store?.close();
    await env?.close();
  });

  const poolId = () => `uniswap-v2:${env.destination.chainId}:${env.market.uniswapV2Pair.toLowerCase()}`;

  async function quote(destinationCurrency: Address, extra: Record<string, unknown> = {}, recipient: Address = env.user.address): Promise<QuoteBody> {
    const response = await fetch(`${server.url}/quote/v2`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({
        user: env.user.address,
        recipient,
        originChainId: env.origin.chainId,
        destinationChainId: env.destination.chainId,
        originCurrency: NATIVE,
        destinationCurrency,
        amount: parseEther("0.1").toString(),
        tradeType: "EXACT_INPUT",
        slippageTolerance: "100",
        ...extra,
      }),
    });
    const body = await response.json();
    expect(response.status, JSON.stringify(body)).to.equal(200);
    return body as QuoteBody;
  }

  it("without the flag (absent or false): the first configured source, the fixed price", async function () {
    this.timeout(60_000);
    for (const extra of [{}, { useExternalLiquidity: false }]) {
      const q = await quote(env.stablecoin, extra);
      expect(q.details).to.deep.include({ operation: "swap", isFixedRate: true });
      expect(q.details.route.destination.router).to.equal("fixed");
    }
  });

  it("with useExternalLiquidity: the pool prices it, and the solver fills it re-priced against the pool", async function () {
    this.timeout(120_000);
    const recipient = freshAddress();
    const q = await quote(env.stablecoin, { useExternalLiquidity: true }, recipient);
    expect(q.details).to.deep.include({ operation: "swap", isFixedRate: false });
    expect(q.details.route.destination.router).to.equal(`uniswap-v2:${env.market.uniswapV2Pair.toLowerCase()}`);
    expect(q.details.route.destination.pricing!.source).to.equal(poolId());
    const stored = (await store.getQuote(canonicalHex(q.steps[0]!.requestId)))!;
    expect(stored.intent.swap!.priceSource).to.equal(poolId());
    // The pool (100 ETH / 300,000 fUSD, 0.3% fee) pays less than the fixed price for the same input.
    const fixed = await quote(env.stablecoin);
    expect(BigInt(q.details.currencyOut.amount) < BigInt(fixed.details.currencyOut.amount)).to.equal(true);

    // The quote's own deposit step, sent from the user's wallet.
    const step = q.steps[0]!.items[0]!.data;
    const wallet = env.origin.walletClient(env.user.privateKey);
    const hash = await wallet.sendTransaction({ chain: wallet.chain, account: wallet.account!, to: step.to, data: step.data, value: BigInt(step.value) });
    expect((await env.origin.publicClient.waitForTransactionReceipt({ hash })).status).to.equal("success");
    const done = await tickUntil(createSolver({ config, store }), store, q.steps[0]!.requestId, (r) => r.status === "success" || r.status === "refund" || r.status === "failure", 40);
    expect(done.status, JSON.stringify({ failReason: done.failReason, details: done.details })).to.equal("success");
    const status = (await (await fetch(`${server.url}/intents/status/v3?requestId=${q.steps[0]!.requestId}`)).json()) as { status: string };
    expect(status.status).to.equal("success");
    expect(await tokenBalance(env.destination, env.stablecoin, recipient)).to.equal(BigInt(q.details.currencyOut.amount));
  });

  it("a bridge (no swap) with the flag is quoted as without it", async function () {
    this.timeout(60_000);
    const q = await quote(NATIVE, { useExternalLiquidity: true });
    expect(q.details.operation).to.not.equal("swap");
    expect(q.details.route.destination.router).to.equal("ferry");
    expect(q.details.route.destination.pricing).to.equal(undefined);
  });
});

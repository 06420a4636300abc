/**
 * The decimals attack: the same symbol with different decimals on two chains (USDC has 18 on BNB Chain
 * and 6 on Ethereum). Here the origin's fUSD has 18 decimals and the destination's Uniswap V2 pool
 * trades the 6-decimal fUSD against WETH (ts/devnet/devnetMarket.ts: 100 ETH / 300,000 fUSD). Priced in
 * raw units, $100 of the 18-decimal fUSD was read as 10^14 fUSD of the pool's and bought nearly the
 * whole pool (~100 ETH). The price source converts between the route's decimals and its tokens'
 * (read onchain), and the start check refuses a configuration whose decimals are not the token's.
 * Real EDR chains (31337, 31338) and an in-memory store.
 */
import { expect } from "chai";
import { parseEther, zeroAddress, type Abi, type Address, type Hex, } from "viem";
import stablecoinArtifact from "../../../artifacts/contracts/mocks/MockStablecoin.sol/MockStablecoin.json" with { type: "json" };
import wethArtifact from "../../../artifacts/contracts/devnet/DevnetWrappedNative.sol/DevnetWrappedNative.json" with { type: "json" };
import { isFerryError } from "../../../ts/core/errors.ts";
import { deployDevnetMarket } from "../../../ts/devnet/devnetMarket.ts";
import { parseConfig, resolveChainContracts } from "../../../ts/service/config/parseConfig.ts";
import { createQuoteService } from "../../../ts/service/quote/quoteService.ts";
import { createStore, type Store } from "../../../ts/service/store/createStore.ts";
import { ADDR, DESTINATION, nativeRequest, ORIGIN } from "./quoteFixture.ts";
import { QUOTE_SOLVER, quoteChains } from "./quoteChains.ts";
import { canonicalAddress } from "../../../ts/service/model/values.ts";

const SOLVER = QUOTE_SOLVER;
const { origin, destination, clients } = await quoteChains();

describe("swap pricing across decimals (18-decimal fUSD in, a 6-decimal fUSD pool)", function () {
  this.timeout(120_000);
  let store: Store;
  let token18: Address;
  let fusd6: Address;
  let market: Awaited<ReturnType<typeof deployDevnetMarket>>;

  const config = (poolFusdDecimals = 6) =>
    resolveChainContracts(
      parseConfig(
        {
          chains: [ORIGIN, DESTINATION].map((id) => ({
            id,
            name: id === ORIGIN ? "ferry-origin" : "ferry-destination",
            displayName: "Chain",
            rpcUrl: "http://127.0.0.1:1",
            nativeCurrency: { symbol: "ETH", name: "Ether", decimals: 18, usdPrice: "3000" },
            erc20Currencies: [
              id === ORIGIN
                ? { address: token18, symbol: "fUSD", name: "fUSD (18 decimals)", decimals: 18, usdPrice: "1" }
                : { address: fusd6, symbol: "fUSD", name: "fUSD", decimals: poolFusdDecimals, usdPrice: "1" },
            ],
            contracts: { depository: ADDR.depository, attestedReceiver: ADDR.attestedReceiver, multicaller: ADDR.multicaller },
          })),
          quotes: {
            priceSources: [
              { type: "uniswapV2", chainId: DESTINATION, base: "ETH", quote: "fUSD", pair: market.uniswapV2Pair, baseToken: market.wrappedNative, quoteToken: fusd6 },
            ],
          },
        },
        {},
        "/tmp",
      ),
      new Map(),
    );

  before(async () => {
    store = await createStore();
    const [originDeployer] = await origin.viem.getWalletClients();
    const [deployer] = await destination.viem.getWalletClients();
    const originClient = clients.get(ORIGIN)!;
    // An 18-decimal ERC-20 on the origin: the devnet's WETH contract is one (any 18-decimal token would do).
    const hash = await originDeployer!.deployContract({ abi: wethArtifact.abi as Abi, bytecode: wethArtifact.bytecode as Hex });
    token18 = (await originClient.waitForTransactionReceipt({ hash })).contractAddress!;
    const deployed = await deployer!.deployContract({ abi: stablecoinArtifact.abi as Abi, bytecode: stablecoinArtifact.bytecode as Hex, args: ["Ferry Test USD", "fUSD"] });
    fusd6 = (await clients.get(DESTINATION)!.waitForTransactionReceipt({ hash: deployed })).contractAddress!;
    market = await deployDevnetMarket({ publicClient: clients.get(DESTINATION)!, walletClient: deployer!, stablecoin: fusd6 });
    // The pool's price history covers the default TWAP window (30 minutes).
    await destination.provider.request({ method: "evm_increaseTime", params: [1_800] });
    await destination.provider.request({ method: "evm_mine", params: [] });
  });
  after(async () => store?.close());

  const quote = (c: ReturnType<typeof config>, amount: bigint, tradeType: "EXACT_INPUT" | "EXACT_OUTPUT" = "EXACT_INPUT") =>
    createQuoteService({ chains: c.chains, settings: c.quotes, clients, solver: SOLVER, store }).quote(
      nativeRequest({ originCurrency: canonicalAddress(token18), destinationCurrency: zeroAddress, amount, tradeType }),
      { includeOrderSignature: false, apiKeyId: null },
    );

  it("$100 of an 18-decimal fUSD buys about 100/3000 ETH from the 6-decimal pool, not the pool", async () => {
    const q = await quote(config(), parseEther("100"));
    const out = BigInt(q.details.currencyOut.amount);
    // 100 fUSD at 3,000 fUSD per ETH, less the fees (the destination's gas, 10 bps) and the pool's 0.3%.
    expect(out < parseEther("100") / 3_000n, `out ${out}`).to.equal(true);
    expect(out > parseEther("95") / 3_000n, `out ${out}`).to.equal(true);
  });

  it("EXACT_OUTPUT: 0.01 ETH costs about 30 fUSD in 18-decimal units", async () => {
    const q = await quote(config(), parseEther("0.01"), "EXACT_OUTPUT");
    const deposit = BigInt(q.details.currencyIn.amount);
    expect(deposit > parseEther("30"), `deposit ${deposit}`).to.equal(true);
    expect(deposit < parseEther("32"), `deposit ${deposit}`).to.equal(true);
  });

  it("the start check refuses a pool token whose onchain decimals are not the configured ones", async () => {
    const { checkPriceSources } = await import("../../../ts/service/prices/priceSourceCheck.ts");
    await checkPriceSources(config().chains, config().quotes.priceSources, clients);
    const wrong = config(18);
    let error: unknown;
    try {
      await checkPriceSources(wrong.chains, wrong.quotes.priceSources, clients);
    } catch (caught) {
      error = caught;
    }
    expect(isFerryError(error) && error.code).to.equal("CONFIG_INVALID");
    expect((error as Error).message).to.match(/quotes\.priceSources\[0\]\.quoteToken: .* 6 decimals onchain, .* 18/);
  });
});

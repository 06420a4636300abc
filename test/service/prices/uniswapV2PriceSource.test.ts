/**
 * ts/service/prices/uniswapV2PriceSource.ts against a real Uniswap V2 pair on an EDR chain (the devnet's
 * market: WETH/fUSD seeded 100 ETH / 300,000 fUSD, a one-minute history): the spot and the TWAP
 * reference, a push that moves the spot at once and the reference only as it is held, the depth cap,
 * and a Chainlink-style feed as the reference instead (contracts/mocks/MockAggregatorV3.sol).
 */
import { expect } from "chai";
import { network } from "hardhat";
import { erc20Abi, parseEther, zeroAddress, type Abi, type Address, type Hex, type PublicClient } from "viem";
import feedArtifact from "../../../artifacts/contracts/mocks/MockAggregatorV3.sol/MockAggregatorV3.json" with { type: "json" };
import stablecoinArtifact from "../../../artifacts/contracts/mocks/MockStablecoin.sol/MockStablecoin.json" with { type: "json" };
import { mockStablecoinAbi } from "../../../ts/abi/MockStablecoin.ts";
import { deployDevnetMarket, DEVNET_TWAP_WINDOW_SECONDS } from "../../../ts/devnet/devnetMarket.ts";
import { createUniswapV2PriceSource, UNISWAP_V2_PAIR_ABI } from "../../../ts/service/prices/uniswapV2PriceSource.ts";
import { v2AmountOut } from "../../../ts/service/prices/uniswapV2Math.ts";
import { codeOf } from "../quote/quoteFixture.ts";
import { canonicalAddress } from "../../../ts/service/model/values.ts";

const chain = await network.create();
const publicClient = (await chain.viem.getPublicClient()) as unknown as PublicClient;
const [wallet] = await chain.viem.getWalletClients();
const eth = { symbol: "ETH", decimals: 18, address: zeroAddress, isNative: true };

describe("uniswapV2PriceSource on a real pair", function () {
  this.timeout(120_000);
  let fusd: Address;
  let market: Awaited<ReturnType<typeof deployDevnetMarket>>;
  const usd = () => ({ symbol: "fUSD", decimals: 6, address: fusd.toLowerCase() as Address, isNative: false });
  const source = (reference: Parameters<typeof createUniswapV2PriceSource>[0]["reference"] = { type: "twap", windowSeconds: DEVNET_TWAP_WINDOW_SECONDS }) =>
    createUniswapV2PriceSource(
      { chainId: 31337, base: "ETH", quote: "fUSD", pair: canonicalAddress(market.uniswapV2Pair), baseToken: canonicalAddress(market.wrappedNative), quoteToken: canonicalAddress(fusd), feeBps: 30, reference, maxReserveBps: 500 },
      () => publicClient,
    );
  const mined = async (hash: Hex) => expect((await publicClient.waitForTransactionReceipt({ hash })).status).to.equal("success");
  const passTime = async (seconds: number) => {
    await chain.provider.request({ method: "evm_increaseTime", params: [seconds] });
    await chain.provider.request({ method: "evm_mine", params: [] });
  };
  /** Sends `amount` fUSD into the pair and takes the WETH it gives: ETH gets dearer in fUSD. */
  async function buyEth(amount: bigint): Promise<void> {
    const [r0, r1] = await publicClient.readContract({ address: market.uniswapV2Pair, abi: UNISWAP_V2_PAIR_ABI, functionName: "getReserves" });
    const fusdIs0 = (await publicClient.readContract({ address: market.uniswapV2Pair, abi: UNISWAP_V2_PAIR_ABI, functionName: "token0" })).toLowerCase() === fusd.toLowerCase();
    const out = v2AmountOut(amount, fusdIs0 ? { reserveIn: r0, reserveOut: r1 } : { reserveIn: r1, reserveOut: r0 }, 30n);
    await mined(await wallet!.writeContract({ address: fusd, abi: erc20Abi, functionName: "transfer", args: [market.uniswapV2Pair, amount] }));
    await mined(await wallet!.writeContract({ address: market.uniswapV2Pair, abi: UNISWAP_V2_PAIR_ABI, functionName: "swap", args: fusdIs0 ? [0n, out, wallet!.account.address, "0x"] : [out, 0n, wallet!.account.address, "0x"] }));
  }

  before(async () => {
    const hash = await wallet!.deployContract({ abi: stablecoinArtifact.abi as Abi, bytecode: stablecoinArtifact.bytecode as Hex, args: ["Ferry Test USD", "fUSD"] });
    fusd = (await publicClient.waitForTransactionReceipt({ hash })).contractAddress!;
    await mined(await wallet!.writeContract({ address: fusd, abi: mockStablecoinAbi, functionName: "mint", args: [wallet!.account.address, 10_000_000n * 10n ** 6n] }));
    market = await deployDevnetMarket({ publicClient, walletClient: wallet!, stablecoin: fusd });
  });

  it("atRest_theSpotIsTheReference_andOneQuoteTakesAtMost5PercentOfTheInputReserve", async () => {
    const reading = await source().read(eth, usd());
    expect(reading).to.include({ referenceLabel: "twap:60s", deviationBps: 0n, maxInput: parseEther("5") });
    const spot = reading.spot.price("EXACT_INPUT", parseEther("1"));
    const reference = reading.reference.price("EXACT_INPUT", parseEther("1"));
    expect(spot.amountOutAtSpot).to.equal(3_000n * 10n ** 6n);
    // The average is a UQ112x112 fixed-point number, rounded down: the same price to the last unit.
    expect(Number(spot.amountOutAtSpot - reference.amountOutAtSpot)).to.be.within(0, 1);
    expect(Number(spot.amountOut - reference.amountOut)).to.be.within(0, 1);
    const back = await source().read(usd(), eth);
    expect(back.maxInput).to.equal(15_000n * 10n ** 6n);
    expect(Number(parseEther("1") - back.reference.price("EXACT_INPUT", 3_000n * 10n ** 6n).amountOutAtSpot)).to.be.within(0, 1e6);
  });

  it("aPush_movesTheSpotAtOnce_theReferenceOnlyAsItIsHeld", async () => {
    await passTime(DEVNET_TWAP_WINDOW_SECONDS);
    await buyEth(150_000n * 10n ** 6n); // 100 ETH / 300k → ~66.7 ETH / 450k: ~6,730 fUSD per ETH
    const pushed = await source().read(eth, usd());
    expect(pushed.deviationBps > 10_000n, `deviation ${pushed.deviationBps}`).to.equal(true);
    const fair = pushed.reference.price("EXACT_INPUT", parseEther("1")).amountOutAtSpot;
    expect(Number(fair) / 1e6, "the push's own block weighs 0 s").to.be.closeTo(3_000, 1);
    expect(Number(pushed.spot.price("EXACT_INPUT", parseEther("1")).amountOutAtSpot) / 1e6).to.be.greaterThan(6_700);

    await passTime(DEVNET_TWAP_WINDOW_SECONDS / 2);
    // Held 30 s of an average that reaches back to the newest block a window old (here ~95 s back, the
    // block before the previous wait): the reference moves by the push's share of that time.
    const partly = (await source().read(eth, usd())).reference.price("EXACT_INPUT", parseEther("1")).amountOutAtSpot;
    expect(Number(partly) / 1e6, "held part of the window: part of the way").to.be.within(3_900, 4_600);
    await passTime(DEVNET_TWAP_WINDOW_SECONDS);
    const held = await source().read(eth, usd());
    expect(held.deviationBps, "held over the whole window: the reference is the market").to.equal(0n);
  });

  it("aChainlinkReference_ignoresThePool_andIsRefusedWhenStale", async () => {
    const hash = await wallet!.deployContract({ abi: feedArtifact.abi as Abi, bytecode: feedArtifact.bytecode as Hex, args: [8, "ETH / USD"] });
    const feed = (await publicClient.waitForTransactionReceipt({ hash })).contractAddress!;
    const now = (await publicClient.getBlock()).timestamp;
    await mined(await wallet!.writeContract({ address: feed, abi: feedArtifact.abi as Abi, functionName: "setRound", args: [1n, 3_000n * 10n ** 8n, now, now, 1n] }));
    const withFeed = source({ type: "chainlink", feed: canonicalAddress(feed), maxStalenessSeconds: 3_600 });
    const reading = await withFeed.read(eth, usd());
    expect(reading.referenceLabel).to.equal(`chainlink:${feed.toLowerCase()}`);
    expect(Number(reading.reference.price("EXACT_INPUT", parseEther("1")).amountOutAtSpot) / 1e6).to.be.closeTo(3_000, 0.000001);
    expect(reading.deviationBps > 10_000n, "the pool still holds the push").to.equal(true);
    await passTime(3_601);
    expect(await codeOf(() => withFeed.read(eth, usd()))).to.equal("PRICE_UNAVAILABLE");
  });

  it("aPoolYoungerThanTheWindow_hasNoReference_PRICE_UNAVAILABLE", async () => {
    expect(await codeOf(() => source({ type: "twap", windowSeconds: 86_400 }).read(eth, usd()))).to.equal("PRICE_UNAVAILABLE");
  });
});

/** ts/service/prices/priceSources.ts: which configured source prices a pair, with and without the market preference. */
import { expect } from "chai";
import { zeroAddress } from "viem";
import { createPriceSources } from "../../../ts/service/prices/priceSources.ts";
import type { PriceSourceConfig } from "../../../ts/service/config/configSchema.ts";

const eth = { symbol: "ETH", decimals: 18, address: zeroAddress, isNative: true };
const usd = { symbol: "fUSD", decimals: 6, address: "0x4444444444444444444444444444444444444444" as const, isNative: false };
const dai = { ...usd, symbol: "DAI", address: "0x5555555555555555555555555555555555555555" as const };
const PAIR = "0x6666666666666666666666666666666666666666";

const fixed = (chainId: number, quote = "fUSD"): PriceSourceConfig => ({ type: "fixed", chainId, base: "ETH", quote, price: "3000" });
const pool = (chainId: number): PriceSourceConfig => ({
  type: "uniswapV2",
  chainId,
  base: "ETH",
  quote: "fUSD",
  pair: PAIR,
  baseToken: "0x7777777777777777777777777777777777777777",
  quoteToken: usd.address,
  feeBps: 30,
  reference: { type: "twap", windowSeconds: 60 },
  maxReserveBps: 500,
});

describe("priceSources", () => {
  // No reads happen here: only which source is picked.
  const sources = createPriceSources([fixed(2), fixed(1), pool(1), fixed(1, "DAI")], { get: () => undefined });

  it("find_theFirstConfiguredSourceOfThePairOnTheChain", () => {
    expect(sources.find(1, eth, usd)!.id).to.equal("fixed:1:ETH/fUSD");
    expect(sources.find(1, usd, eth)!.id).to.equal("fixed:1:ETH/fUSD");
    expect(sources.find(2, eth, usd)!.id).to.equal("fixed:2:ETH/fUSD");
    expect(sources.find(3, eth, usd)).to.equal(undefined);
  });

  it("find_preferringAMarket_takesThePoolOverTheFixedPrice_elseFallsBackToTheFirst", () => {
    expect(sources.find(1, eth, usd, "market")!.id).to.equal(`uniswap-v2:1:${PAIR}`);
    expect(sources.find(1, usd, eth, "market")!.isFixed).to.equal(false);
    // No market for the pair: the fixed price, as without the preference; none at all: none.
    expect(sources.find(2, eth, usd, "market")!.id).to.equal("fixed:2:ETH/fUSD");
    expect(sources.find(1, eth, dai, "market")!.id).to.equal("fixed:1:ETH/DAI");
    expect(sources.find(3, eth, usd, "market")).to.equal(undefined);
  });
});

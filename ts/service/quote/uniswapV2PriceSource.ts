/**
 * A Uniswap V2 pair as a price source: reads the pair's reserves onchain (`getReserves`, and `token0`
 * once) and prices with the constant-product formula including the pool fee (./uniswapV2Math.ts), so
 * a quote carries the real price impact of its size. `baseToken`/`quoteToken` are the pair's tokens
 * standing for the `base`/`quote` symbols (the native currency trades in a V2 pool as its wrapped
 * token, e.g. WETH for ETH). The solver does not swap on the pool: it delivers from its inventory at
 * the pool's price and re-reads the pool at fill time.
 */
import { parseAbi, type Address } from "viem";
import { canonicalAddress } from "../model/values.ts";
import type { PriceCurve, PriceSource } from "./priceSource.ts";
import { QuoteError, QuoteErrorCode } from "./quoteErrors.ts";
import { v2AmountIn, v2AmountOut, v2AmountOutAtSpot, type Reserves } from "./uniswapV2Math.ts";

export const UNISWAP_V2_PAIR_ABI = parseAbi([
  "function getReserves() view returns (uint112 reserve0, uint112 reserve1, uint32 blockTimestampLast)",
  "function token0() view returns (address)",
  "function token1() view returns (address)",
  "function swap(uint256 amount0Out, uint256 amount1Out, address to, bytes data)",
  "function sync()",
]);

export type UniswapV2Config = {
  chainId: number;
  base: string;
  quote: string;
  pair: Address;
  baseToken: Address;
  quoteToken: Address;
  /** The pool's fee in bps (Uniswap V2: 30). */
  feeBps: number;
};

/** The reads this source makes: a viem client of `chainId`. */
export type PairReader = {
  readContract(args: { address: Address; abi: typeof UNISWAP_V2_PAIR_ABI; functionName: "getReserves" | "token0" }): Promise<unknown>;
};

export function createUniswapV2PriceSource(config: UniswapV2Config, client: () => PairReader | undefined): PriceSource {
  const pair = canonicalAddress(config.pair);
  const baseToken = canonicalAddress(config.baseToken);
  const fee = BigInt(config.feeBps);
  let token0: Address | undefined;
  return {
    id: `uniswap-v2:${config.chainId}:${pair}`,
    router: `uniswap-v2:${pair}`,
    isFixed: false,
    chainId: config.chainId,
    prices: (from, to) => (from.symbol === config.base && to.symbol === config.quote) || (from.symbol === config.quote && to.symbol === config.base),
    async read(from) {
      const reader = client();
      if (!reader) throw new QuoteError(QuoteErrorCode.PRICE_UNAVAILABLE, `no client for chain ${config.chainId} to read the pool ${pair}`);
      const [reserves, first] = await Promise.all([
        reader.readContract({ address: pair, abi: UNISWAP_V2_PAIR_ABI, functionName: "getReserves" }) as Promise<readonly [bigint, bigint, number]>,
        token0 ? Promise.resolve(token0) : (reader.readContract({ address: pair, abi: UNISWAP_V2_PAIR_ABI, functionName: "token0" }) as Promise<Address>),
      ]);
      token0 = canonicalAddress(first);
      const [reserve0, reserve1] = reserves;
      const baseIs0 = token0 === baseToken;
      const [reserveBase, reserveQuote] = baseIs0 ? [reserve0, reserve1] : [reserve1, reserve0];
      const sellingBase = from.symbol === config.base;
      return v2Curve(sellingBase ? { reserveIn: reserveBase, reserveOut: reserveQuote } : { reserveIn: reserveQuote, reserveOut: reserveBase }, fee);
    },
  };
}

function v2Curve(reserves: Reserves, feeBps: bigint): PriceCurve {
  return {
    price(side, amount) {
      if (side === "EXACT_INPUT") {
        return { amountIn: amount, amountOut: v2AmountOut(amount, reserves, feeBps), amountOutAtSpot: v2AmountOutAtSpot(amount, reserves) };
      }
      const amountIn = v2AmountIn(amount, reserves, feeBps);
      return { amountIn, amountOut: amount, amountOutAtSpot: v2AmountOutAtSpot(amountIn, reserves) };
    },
  };
}

/**
 * A Uniswap V2 pair as a price source. `read()` returns (./priceSource.ts):
 * - `spot`: the pair's reserves at the latest block, priced by the constant-product formula with the
 *   pool fee (./uniswapV2Math.ts), so a quote carries the real price impact of its size;
 * - `reference`: the same depth and fee at a price one transaction cannot move — the pair's TWAP over
 *   `reference.windowSeconds` (./uniswapV2History.ts, ./uniswapV2Twap.ts; the default), or a
 *   Chainlink-style feed (./chainlinkFeed.ts) giving `base` in `quote`;
 * - `maxInput`: `maxReserveBps` of the pool's input reserve, the most one quote may take.
 *
 * `baseToken`/`quoteToken` are the pair's tokens standing for the `base`/`quote` symbols (the native
 * currency trades in a V2 pool as its wrapped token, e.g. WETH for ETH). Amounts are converted between
 * the route's currencies' decimals and the pool tokens' decimals, read onchain (`decimals()`, once):
 * an 18-decimal USDC on one chain priced by a pool of the 6-decimal USDC of another is rescaled, not
 * read as a million times more. `checkTokens` (at start, ./priceSourceCheck.ts) checks the pair's
 * tokens and their decimals against the configuration.
 *
 * The solver does not swap on the pool: it delivers from its inventory and re-prices at fill time
 * against the reference (../solver/fill/swapRepricing.ts).
 */
import { erc20Abi, parseAbi, type Address as ViemAddress } from "viem";
import type { PriceSourceReference } from "../config/configSchema.ts";
import { canonicalFields, type Address } from "../model/values.ts";
import { createChainlinkFeed, type FeedReader } from "./chainlinkFeed.ts";
import type { PriceCurve, PriceReading, PriceSource } from "./priceSource.ts";
import { QuoteError } from "../errors/quoteErrors.ts";
import { v2AmountIn, v2AmountOut, v2AmountOutAtSpot, type Reserves } from "./uniswapV2Math.ts";
import { createPairHistory, type HistoryReader, type PairReading } from "./uniswapV2History.ts";
import { referenceReserveOut } from "./uniswapV2Twap.ts";
import { rescale } from "./usdPrice.ts";

export const UNISWAP_V2_PAIR_ABI = parseAbi([
  "function getReserves() view returns (uint112 reserve0, uint112 reserve1, uint32 blockTimestampLast)",
  "function token0() view returns (address)",
  "function token1() view returns (address)",
  "function swap(uint256 amount0Out, uint256 amount1Out, address to, bytes data)",
  "function sync()",
]);

const BPS = 10_000n;

export type UniswapV2Config = {
  chainId: number;
  base: string;
  quote: string;
  pair: Address;
  baseToken: Address;
  quoteToken: Address;
  /** The pool's fee in bps (Uniswap V2: 30). */
  feeBps: number;
  /** What the spot is checked against. */
  reference: PriceSourceReference;
  /** The most one quote may take, in bps of the pool's input reserve. */
  maxReserveBps: number;
};

/** The reads this source makes: a viem public client of `chainId`. */
export type PairReader = HistoryReader &
  FeedReader & {
    readContract(args: { address: Address; abi: typeof UNISWAP_V2_PAIR_ABI | typeof erc20Abi; functionName: "token0" | "token1" | "decimals" }): Promise<unknown>;
  };

/** The pair's tokens as read onchain. */
export type PairTokens = { token0: Address; token1: Address; baseDecimals: number; quoteDecimals: number };

export type UniswapV2PriceSource = PriceSource & {
  /** token0/token1 and both tokens' decimals, read onchain once (cached). */
  tokens(): Promise<PairTokens>;
};

export function createUniswapV2PriceSource(config: UniswapV2Config, client: () => PairReader | undefined): UniswapV2PriceSource {
  const { pair, baseToken, quoteToken } = config;
  const fee = BigInt(config.feeBps);
  const reference = config.reference;
  const history = createPairHistory(pair, reference.type === "twap" ? reference.windowSeconds : 0);
  const feed = reference.type === "chainlink" ? createChainlinkFeed(reference.feed, reference.maxStalenessSeconds) : undefined;
  const referenceLabel = reference.type === "twap" ? `twap:${reference.windowSeconds}s` : `chainlink:${reference.feed}`;
  let tokens: Promise<PairTokens> | undefined;

  const reader = (): PairReader => {
    const found = client();
    if (!found) throw new QuoteError("PRICE_UNAVAILABLE", `no client for chain ${config.chainId} to read the pool ${pair}`);
    return found;
  };
  const readTokens = (): Promise<PairTokens> =>
    (tokens ??= (async () => {
      const r = reader();
      const [token0, token1, baseDecimals, quoteDecimals] = await Promise.all([
        r.readContract({ address: pair, abi: UNISWAP_V2_PAIR_ABI, functionName: "token0" }) as Promise<ViemAddress>,
        r.readContract({ address: pair, abi: UNISWAP_V2_PAIR_ABI, functionName: "token1" }) as Promise<ViemAddress>,
        r.readContract({ address: baseToken, abi: erc20Abi, functionName: "decimals" }) as Promise<number>,
        r.readContract({ address: quoteToken, abi: erc20Abi, functionName: "decimals" }) as Promise<number>,
      ]);
      return { ...canonicalFields({ token0, token1 }), baseDecimals: Number(baseDecimals), quoteDecimals: Number(quoteDecimals) };
    })().catch((error: unknown) => {
      tokens = undefined;
      throw error;
    }));

  return {
    id: `uniswap-v2:${config.chainId}:${pair}`,
    router: `uniswap-v2:${pair}`,
    isFixed: false,
    chainId: config.chainId,
    prices: (from, to) => (from.symbol === config.base && to.symbol === config.quote) || (from.symbol === config.quote && to.symbol === config.base),
    tokens: readTokens,
    async read(from, to): Promise<PriceReading> {
      const r = reader();
      const [pairTokens, reading] = await Promise.all([readTokens(), feed ? history.head(r) : history.read(r)]);
      if (pairTokens.token0 !== baseToken && pairTokens.token1 !== baseToken) {
        throw new QuoteError("PRICE_UNAVAILABLE", `the pool ${pair} does not hold ${baseToken}`);
      }
      const baseIs0 = pairTokens.token0 === baseToken;
      const { reserve0, reserve1 } = reading.state;
      const sellingBase = from.symbol === config.base;
      const inIs0 = sellingBase === baseIs0;
      const reserveIn = inIs0 ? reserve0 : reserve1;
      const reserveOut = inIs0 ? reserve1 : reserve0;
      const [inDecimals, outDecimals] = sellingBase ? [pairTokens.baseDecimals, pairTokens.quoteDecimals] : [pairTokens.quoteDecimals, pairTokens.baseDecimals];

      let referenceOut: bigint;
      if (feed) {
        // The feed prices one whole base in whole quote: scaled to the pool tokens' units.
        const { answer, decimals } = await feed.read(r, reading.timestamp);
        const quotePerBase = { num: answer * 10n ** BigInt(pairTokens.quoteDecimals), den: 10n ** BigInt(decimals + pairTokens.baseDecimals) };
        referenceOut = sellingBase ? (reserveIn * quotePerBase.num) / quotePerBase.den : (reserveIn * quotePerBase.den) / quotePerBase.num;
      } else {
        const { average } = reading as PairReading;
        referenceOut = referenceReserveOut(reserveIn, inIs0 ? average.price0 : average.price1);
      }
      if (reserveIn === 0n || reserveOut === 0n || referenceOut === 0n) throw new QuoteError("INSUFFICIENT_LIQUIDITY", "the pool has no liquidity");
      const deviation = reserveOut > referenceOut ? reserveOut - referenceOut : referenceOut - reserveOut;
      const scale = (curve: PriceCurve) => inRouteUnits(curve, { from: from.decimals, tokenIn: inDecimals, to: to.decimals, tokenOut: outDecimals });
      return {
        spot: scale(v2Curve({ reserveIn, reserveOut }, fee)),
        reference: scale(v2Curve({ reserveIn, reserveOut: referenceOut }, fee)),
        referenceLabel,
        deviationBps: (deviation * BPS) / referenceOut,
        maxInput: rescale((reserveIn * BigInt(config.maxReserveBps)) / BPS, inDecimals, from.decimals),
      };
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

/**
 * A curve in the pool tokens' units answered in the route currencies' units: inputs rescaled down and
 * outputs down (EXACT_INPUT), the asked output up and the input it needs up (EXACT_OUTPUT) — every
 * rounding in the service's favour.
 */
export function inRouteUnits(curve: PriceCurve, decimals: { from: number; tokenIn: number; to: number; tokenOut: number }): PriceCurve {
  return {
    price(side, amount) {
      if (side === "EXACT_INPUT") {
        const priced = curve.price("EXACT_INPUT", rescale(amount, decimals.from, decimals.tokenIn));
        return {
          amountIn: amount,
          amountOut: rescale(priced.amountOut, decimals.tokenOut, decimals.to),
          amountOutAtSpot: rescale(priced.amountOutAtSpot, decimals.tokenOut, decimals.to),
        };
      }
      const priced = curve.price("EXACT_OUTPUT", rescale(amount, decimals.to, decimals.tokenOut, true));
      return { amountIn: rescale(priced.amountIn, decimals.tokenIn, decimals.from, true), amountOut: amount, amountOutAtSpot: rescale(priced.amountOutAtSpot, decimals.tokenOut, decimals.to) };
    },
  };
}

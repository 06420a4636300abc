/**
 * The one interface every swap price comes through. A `PriceSource` prices one pair of currencies
 * (by symbol) for one chain's market; `read()` is its only I/O (a pool's reserves, nothing for a
 * fixed price) and returns a `PriceCurve`: a pure snapshot that answers any amount, both sides. The
 * quote reads once and prices the deposit, its fees and both trade types from the same snapshot; the
 * solver reads again at fill time and re-prices the same input (../solver/swapRepricing.ts).
 *
 * Amounts are smallest units of the currency they are in; `from`/`to` are the route's currencies.
 */
import type { RouteCurrency } from "./quoteRoute.ts";

export type SwapSide = "EXACT_INPUT" | "EXACT_OUTPUT";

/** What a price source needs of a currency: its symbol (the pair), decimals and address. */
export type PricedCurrency = Pick<RouteCurrency, "symbol" | "decimals" | "address" | "isNative">;

export type SwapPrice = {
  amountIn: bigint;
  amountOut: bigint;
  /** What `amountIn` would buy at the mid (spot) price, without fee or price impact (output units). */
  amountOutAtSpot: bigint;
};

/** A price snapshot: pure, from one reading of the market. */
export type PriceCurve = {
  /**
   * EXACT_INPUT: `amount` in → the output (rounded down). EXACT_OUTPUT: `amount` out → the input
   * it needs (rounded up). Throws a QuoteError INSUFFICIENT_LIQUIDITY when the market cannot give it.
   */
  price(side: SwapSide, amount: bigint): SwapPrice;
};

export type PriceSource = {
  /** Stable id, stored in the intent (`swap.priceSource`) so the solver re-prices with the same source. */
  readonly id: string;
  /** `details.route.destination.router`: "fixed" or the pool, e.g. "uniswap-v2:0x…". */
  readonly router: string;
  /** A fixed (configured) price: `details.isFixedRate`. */
  readonly isFixed: boolean;
  /** The chain whose market this prices (the destination chain of the routes that use it). */
  readonly chainId: number;
  /** Whether it prices `from` → `to` (either orientation of its pair). */
  prices(from: PricedCurrency, to: PricedCurrency): boolean;
  /** Reads the market now. */
  read(from: PricedCurrency, to: PricedCurrency): Promise<PriceCurve>;
};

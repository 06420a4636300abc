/**
 * The one interface every swap price comes through. A `PriceSource` prices one pair of currencies
 * (by symbol) for one chain's market; `read()` is its only I/O (a pool's reserves and its price
 * history, an oracle's answer; nothing for a fixed price) and returns a `PriceReading`: two pure
 * `PriceCurve`s that answer any amount, both sides — `spot`, the market now, which one transaction
 * can move, and `reference`, which it cannot (the pair's time-weighted average over a window, or an
 * oracle feed, at the pool's depth). The quote reads once and prices the deposit, its fees and both
 * trade types from the same reading, guarded by ./priceGuard.ts (spot only within a band of the
 * reference, never above it); the solver reads again at fill time and re-prices the same input
 * against the reference only (../solver/fill/swapRepricing.ts).
 *
 * Amounts are smallest units of the currency they are in; `from`/`to` are the route's currencies.
 */
import type { Address } from "viem";

export type SwapSide = "EXACT_INPUT" | "EXACT_OUTPUT";

/**
 * What a price source needs of a currency: its symbol (the pair), decimals and address (canonical;
 * the zero address is the native currency). The quote's `RouteCurrency` is one.
 */
export type PricedCurrency = { symbol: string; decimals: number; address: Address; isNative: boolean };

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

/** A reading of a source: the market now and the reference one transaction cannot move. */
export type PriceReading = {
  /** The market now (a pool's reserves, with its fee and price impact). */
  spot: PriceCurve;
  /** The reference (TWAP or oracle at the pool's depth; a fixed price is its own reference). */
  reference: PriceCurve;
  /** What the reference is, for `details.route.destination.priceReference`: "twap:1800s", "chainlink:0x…", "fixed". */
  referenceLabel: string;
  /** How far the spot mid price is from the reference mid price, in bps of the reference (absolute). */
  deviationBps: bigint;
  /** The largest input (smallest units of `from`) one quote may take from this market; undefined: no cap. */
  maxInput?: bigint;
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
  /** Reads the market now and its reference. */
  read(from: PricedCurrency, to: PricedCurrency): Promise<PriceReading>;
};

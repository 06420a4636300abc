/**
 * The time-weighted average price of a Uniswap V2 pair from its cumulative prices (the pair's own
 * oracle: `price0CumulativeLast`/`price1CumulativeLast`, UQ112x112 × seconds, wrapping mod 2^256, and
 * `blockTimestampLast` mod 2^32). Pure, bigint.
 *
 * - `observationAt(state, t)`: the cumulative prices at time `t` — the stored ones plus the current
 *   reserves' price times the seconds since the pair last updated (the counterfactual accumulation of
 *   `UniswapV2OracleLibrary.currentCumulativePrices`), so a pair nobody traded for a while still has
 *   an up-to-date average.
 * - `averagePrices(older, newer)`: the mean price of each token in the other over the interval.
 * - `referenceReserveOut(reserveIn, average)`: the output reserve the pool would hold at the average
 *   price with its real input reserve: the reference curve keeps the pool's depth and fee, only the
 *   price is the average.
 *
 * A price pushed within one block accrues for 0 seconds until the next block; held for s seconds of a
 * window of w, it moves the average by s/w of the push.
 */
export const Q112 = 2n ** 112n;
const UINT256 = 2n ** 256n;
const UINT32 = 2n ** 32n;

/** The pair's state at a block (`getReserves`, `price0CumulativeLast`, `price1CumulativeLast`). */
export type PairState = { reserve0: bigint; reserve1: bigint; blockTimestampLast: number; price0CumulativeLast: bigint; price1CumulativeLast: bigint };

/** Cumulative prices at a time (unix seconds). */
export type Observation = { timestamp: bigint; cumulative0: bigint; cumulative1: bigint };

/** Mean prices over `seconds`, UQ112x112: `price0` = token1 per token0, `price1` = token0 per token1 (raw units). */
export type AveragePrices = { price0: bigint; price1: bigint; seconds: bigint };

export function observationAt(state: PairState, timestamp: bigint): Observation {
  const elapsed = (((timestamp % UINT32) - BigInt(state.blockTimestampLast)) % UINT32 + UINT32) % UINT32;
  if (elapsed === 0n || state.reserve0 === 0n || state.reserve1 === 0n) {
    return { timestamp, cumulative0: state.price0CumulativeLast, cumulative1: state.price1CumulativeLast };
  }
  // UQ112x112.encode(reserve1).uqdiv(reserve0), as the pair computes it.
  const price0 = (state.reserve1 * Q112) / state.reserve0;
  const price1 = (state.reserve0 * Q112) / state.reserve1;
  return {
    timestamp,
    cumulative0: (state.price0CumulativeLast + price0 * elapsed) % UINT256,
    cumulative1: (state.price1CumulativeLast + price1 * elapsed) % UINT256,
  };
}

export function averagePrices(older: Observation, newer: Observation): AveragePrices {
  const seconds = newer.timestamp - older.timestamp;
  if (seconds <= 0n) throw new RangeError(`no time between the observations (${older.timestamp} → ${newer.timestamp})`);
  return {
    price0: ((newer.cumulative0 - older.cumulative0 + UINT256) % UINT256) / seconds,
    price1: ((newer.cumulative1 - older.cumulative1 + UINT256) % UINT256) / seconds,
    seconds,
  };
}

/** The output reserve at the average price (UQ112x112 output per input) with `reserveIn` as the input reserve. */
export function referenceReserveOut(reserveIn: bigint, averagePrice: bigint): bigint {
  return (reserveIn * averagePrice) / Q112;
}

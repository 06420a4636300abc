/**
 * Uniswap V2 constant-product pricing (the pair contract's own formulas, `UniswapV2Library.getAmountOut`
 * / `getAmountIn` with the fee as a parameter). Pure, bigint.
 *
 * - out = floor(in·(10000 − fee)·rOut / (rIn·10000 + in·(10000 − fee)))
 * - in  = floor(rIn·out·10000 / ((rOut − out)·(10000 − fee))) + 1
 * - at spot (mid price, no fee, no impact): in·rOut / rIn
 */
import { QuoteError } from "../errors/quoteErrors.ts";

export type Reserves = { reserveIn: bigint; reserveOut: bigint };

const BPS = 10_000n;

function requireLiquidity({ reserveIn, reserveOut }: Reserves): void {
  if (reserveIn <= 0n || reserveOut <= 0n) throw new QuoteError("INSUFFICIENT_LIQUIDITY", "the pool has no liquidity");
}

export function v2AmountOut(amountIn: bigint, reserves: Reserves, feeBps: bigint): bigint {
  requireLiquidity(reserves);
  const withFee = amountIn * (BPS - feeBps);
  return (withFee * reserves.reserveOut) / (reserves.reserveIn * BPS + withFee);
}

export function v2AmountIn(amountOut: bigint, reserves: Reserves, feeBps: bigint): bigint {
  requireLiquidity(reserves);
  if (amountOut >= reserves.reserveOut) {
    throw new QuoteError("INSUFFICIENT_LIQUIDITY", `the pool holds ${reserves.reserveOut} of the output: it cannot give ${amountOut}`);
  }
  return (reserves.reserveIn * amountOut * BPS) / ((reserves.reserveOut - amountOut) * (BPS - feeBps)) + 1n;
}

export function v2AmountOutAtSpot(amountIn: bigint, { reserveIn, reserveOut }: Reserves): bigint {
  return reserveIn === 0n ? 0n : (amountIn * reserveOut) / reserveIn;
}

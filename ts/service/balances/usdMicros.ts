/**
 * The ledger's unit: USD micro-units (6 decimals) as bigints, the unit of the spec's
 * `maxSubsidizationAmount`. Amounts enter the ledger through `requireUsdMicros` (a positive integer,
 * at most 38 digits: the column's numeric(38,0)), leave it as decimal strings of micro-units, and
 * convert to and from a currency's smallest units at a USD price held as 1e-8 USD integers ("E8",
 * the price sources' unit). Conversions round in the service's favour: a credit down, a payout down.
 */
import { ServiceError } from "../errors/serviceError.ts";

export const USD_MICRO_DECIMALS = 6;
/** What one USD micro-unit is in E8: prices are E8, the ledger is 1e-6. */
const E8_PER_MICRO = 100n;
const MAX_MICROS = 10n ** 38n - 1n;

/** `value` as a positive ledger amount, else INVALID_INPUT naming `name` (zero is refused: a hold or credit of nothing is a bug). */
export function requireUsdMicros(value: bigint, name: string, options: { allowZero?: boolean } = {}): bigint {
  if (typeof value !== "bigint") throw new ServiceError("INVALID_INPUT", `${name} must be a bigint of USD micro-units`);
  const min = options.allowZero ? 0n : 1n;
  if (value < min || value > MAX_MICROS) throw new ServiceError("INVALID_INPUT", `${name} must be ${options.allowZero ? "≥ 0" : "> 0"} and < 1e38 USD micro-units (got ${value})`);
  return value;
}

const MICROS_RE = /^(0|[1-9][0-9]{0,37})$/;

/** A decimal string of micro-units (an HTTP input such as `amountUsd`) → bigint; INVALID_INPUT otherwise. */
export function parseUsdMicros(value: string, name: string): bigint {
  if (!MICROS_RE.test(value)) throw new ServiceError("INVALID_INPUT", `${name} must be a decimal string of USD micro-units (6 decimals)`);
  return BigInt(value);
}

/** The USD micro-units `amount` smallest units are worth at `priceE8` (USD per whole unit, 1e-8), rounded down. */
export function usdMicrosOf(amount: bigint, decimals: number, priceE8: bigint): bigint {
  return (amount * priceE8) / (10n ** BigInt(decimals) * E8_PER_MICRO);
}

/** The smallest units `usdMicros` buys at `priceE8`, rounded down (a payout never exceeds what was held); PRICE_UNAVAILABLE at a zero price. */
export function unitsOfUsdMicros(usdMicros: bigint, decimals: number, priceE8: bigint): bigint {
  if (priceE8 <= 0n) throw new ServiceError("PRICE_UNAVAILABLE", "the currency has no positive USD price");
  return (usdMicros * E8_PER_MICRO * 10n ** BigInt(decimals)) / priceE8;
}

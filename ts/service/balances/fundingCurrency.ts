/**
 * Which currencies fund an app balance on a chain, and what a deposit of one is worth in the ledger's
 * unit. The operator lists them per chain (config `appBalances.fundingCurrencies`); a chain not listed
 * takes its native currency and its ERC-20s priced at exactly 1 USD (its stablecoins). A funding
 * currency needs an operator-configured USD price (one transaction cannot move it): the credit is
 * converted at it when the deposit is indexed (./usdMicros.ts, rounded down). Pure.
 */
import { ServiceError } from "../errors/serviceError.ts";
import { ZERO_ADDRESS, type Address } from "../model/values.ts";
import { usdMicrosOf } from "./usdMicros.ts";

/** What this needs of a configured chain (../config/configSchema.ts's ChainConfig). */
export type FundingChain = {
  id: number;
  nativeCurrency: { symbol: string; decimals: number; usdPrice?: string };
  erc20Currencies: ReadonlyArray<{ address: Address; symbol: string; decimals: number; usdPrice?: string }>;
};

export type FundingCurrency = { address: Address; symbol: string; decimals: number; priceE8: bigint };

const NATIVE = ZERO_ADDRESS;
const USD_RE = /^(0|[1-9][0-9]{0,14})(?:\.([0-9]{1,8}))?$/;
const ONE_USD_E8 = 100_000_000n;

/** An operator's USD price ("3000.5") as 1e-8 USD, or undefined when absent or malformed. */
function priceE8(usdPrice: string | undefined): bigint | undefined {
  const match = usdPrice === undefined ? null : USD_RE.exec(usdPrice);
  if (!match) return undefined;
  return BigInt(match[1]!) * ONE_USD_E8 + BigInt((match[2] ?? "").padEnd(8, "0"));
}

/** The funding currencies of `chain`: the operator's list (`listed`, canonical addresses) or the default; priced ones only. */
export function fundingCurrencies(chain: FundingChain, listed: readonly Address[] | undefined): FundingCurrency[] {
  const all: Array<FundingCurrency | undefined> = [
    priced(NATIVE, chain.nativeCurrency),
    ...chain.erc20Currencies.map((c) => priced(c.address, c)),
  ];
  const known = all.filter((c): c is FundingCurrency => c !== undefined && c.priceE8 > 0n);
  if (listed !== undefined) return known.filter((c) => listed.includes(c.address));
  return known.filter((c) => c.address === NATIVE || c.priceE8 === ONE_USD_E8);
}

function priced(address: Address, currency: { symbol: string; decimals: number; usdPrice?: string }): FundingCurrency | undefined {
  const price = priceE8(currency.usdPrice);
  return price === undefined ? undefined : { address, symbol: currency.symbol, decimals: currency.decimals, priceE8: price };
}

/** The funding currency `currency` of `chain`, or UNSUPPORTED_CURRENCY naming what the chain takes. */
export function requireFundingCurrency(chain: FundingChain, listed: readonly Address[] | undefined, currency: Address): FundingCurrency {
  const options = fundingCurrencies(chain, listed);
  const found = options.find((c) => c.address === currency);
  if (!found) {
    throw new ServiceError("UNSUPPORTED_CURRENCY", `chain ${chain.id} does not fund app balances in ${currency}; it takes ${options.map((c) => `${c.symbol} (${c.address})`).join(", ") || "nothing"}`);
  }
  return found;
}

/** What a deposit of `amount` smallest units of `currency` credits, in USD micro-units (rounded down). */
export function fundingCreditUsd(currency: FundingCurrency, amount: bigint): bigint {
  return usdMicrosOf(amount, currency.decimals, currency.priceE8);
}

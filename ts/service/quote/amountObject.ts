/** The spec's Currency and Amount objects of a quote, from a configured currency. Pure. */
import { formatUnits } from "viem";
import type { RouteCurrency } from "./quoteRoute.ts";
import { formatUsd, usdValueE8 } from "../prices/usdPrice.ts";

export type CurrencyObject = {
  chainId: number;
  address: string;
  symbol: string;
  name: string;
  decimals: number;
  metadata: { logoURI: string; verified: boolean; isNative: boolean };
};

export type AmountObject = {
  currency: CurrencyObject;
  amount: string;
  amountFormatted: string;
  /** "0" when the currency has no configured USD price. */
  amountUsd: string;
  minimumAmount: string;
};

export function currencyObject(currency: RouteCurrency): CurrencyObject {
  return {
    chainId: currency.chainId,
    address: currency.address,
    symbol: currency.symbol,
    name: currency.name,
    decimals: currency.decimals,
    // Every currency Ferry quotes is one the operator configured: "verified".
    metadata: { logoURI: currency.logoURI, verified: true, isNative: currency.isNative },
  };
}

/** `minimumAmount` defaults to `amount` (Ferry's rates are fixed: what is quoted is what is paid). */
export function amountObject(currency: RouteCurrency, amount: bigint, minimumAmount: bigint = amount): AmountObject {
  return {
    currency: currencyObject(currency),
    amount: amount.toString(),
    amountFormatted: formatUnits(amount, currency.decimals),
    amountUsd: formatUsd(usdValueE8(amount, currency)),
    minimumAmount: minimumAmount.toString(),
  };
}

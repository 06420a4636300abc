/**
 * The request record's `data` as GET /requests/v2 serves it, projected from the stored `data` and the
 * request's columns. Pure. What it adds to what is stored:
 * - `failReason`: ./publicRecords.ts's rule (`N/A` unless failed or refunded); `refundFailReason`: the
 *   recorded one, else `N/A` — always present;
 * - `metadata.isNative` on every Currency object (rows written before it was recorded lack it; it is
 *   true exactly for the zero address, the chain's native currency);
 * - `feesUsd` {gas, fixed, price, gateway} whenever `fees` is there, and `refundCurrencyData.amountUsd`
 *   for a refund in the quote's origin currency: at the origin currency's USD price **the quote used**
 *   (stored in its intent, `originUsdPriceE8`) — the same figure whenever it is read, never re-priced
 *   from today's prices. A quote without a USD price (none configured) gives "0", as its own
 *   `amountUsd` did.
 */
import { formatUnits } from "viem";
import type { QuotedIntent } from "./quotedIntent.ts";
import type { CurrencyObject, RecordAmount, RequestData, ServedCurrencyObject, ServedRequestData } from "./requestData.ts";
import { ZERO_ADDRESS } from "./values.ts";

/** 1e-8 USD: the unit of `originUsdPriceE8`. */
const USD_DECIMALS = 8;

/** `amount` smallest units of a `decimals` currency at `priceE8`, as a USD decimal string (rounded down); "0" without a price. */
export function usdAt(amount: bigint, decimals: number, priceE8: bigint | undefined): string {
  if (priceE8 === undefined) return "0";
  return formatUnits((amount * priceE8) / 10n ** BigInt(decimals), USD_DECIMALS);
}

export function servedCurrency(currency: CurrencyObject): ServedCurrencyObject {
  return { ...currency, metadata: { ...currency.metadata, isNative: currency.metadata.isNative ?? currency.address === ZERO_ADDRESS } };
}

function servedAmount(amount: RecordAmount): RecordAmount & { currency: ServedCurrencyObject } {
  return { ...amount, currency: servedCurrency(amount.currency) };
}

type StoredComponents = NonNullable<RequestData["feeSponsorship"]>["quoted"]["components"];
type ServedComponents = NonNullable<ServedRequestData["feeSponsorship"]>["quoted"]["components"];

function servedComponents(components: StoredComponents): ServedComponents {
  const served = (c: StoredComponents["execution"]) => ({ ...c, total: servedAmount(c.total), sponsored: servedAmount(c.sponsored), userPays: servedAmount(c.userPays) });
  return { execution: served(components.execution), swap: served(components.swap), relay: served(components.relay), app: served(components.app) };
}

export type ServedDataFacts = {
  data: RequestData;
  /** The public failReason (already by ./publicRecords.ts's rule). */
  failReason: string;
  refundFailReason: string | null;
  /** The quoted intent, when the request has one (a relayed execution without a quote has none). */
  intent: QuotedIntent | undefined;
};

export function servedRequestData({ data, failReason, refundFailReason, intent }: ServedDataFacts): ServedRequestData {
  const price = intent?.originUsdPriceE8;
  const { currencyObject, feeCurrencyObject, appFeeCurrencyObject, refundCurrencyData, feeSponsorship, ...rest } = data;
  const feeDecimals = (feeCurrencyObject ?? currencyObject)?.decimals;
  const usd = (amount: string) => (feeDecimals === undefined ? "0" : usdAt(BigInt(amount), feeDecimals, price));
  const refundInOriginCurrency =
    refundCurrencyData !== undefined && intent !== undefined && refundCurrencyData.currency.chainId === intent.originChainId && refundCurrencyData.currency.address === intent.originCurrency;
  return {
    ...rest,
    ...(currencyObject && { currencyObject: servedCurrency(currencyObject) }),
    ...(feeCurrencyObject && { feeCurrencyObject: servedCurrency(feeCurrencyObject) }),
    ...(appFeeCurrencyObject && { appFeeCurrencyObject: servedCurrency(appFeeCurrencyObject) }),
    ...(refundCurrencyData && {
      refundCurrencyData: {
        ...servedAmount(refundCurrencyData),
        ...(refundInOriginCurrency && price !== undefined && { amountUsd: usdAt(BigInt(refundCurrencyData.amount), refundCurrencyData.currency.decimals, price) }),
      },
    }),
    ...(feeSponsorship && { feeSponsorship: { quoted: { ...feeSponsorship.quoted, components: servedComponents(feeSponsorship.quoted.components) } } }),
    ...(data.fees && { feesUsd: { gas: usd(data.fees.gas), fixed: usd(data.fees.fixed), price: usd(data.fees.price), gateway: usd(data.fees.gateway) } }),
    failReason,
    refundFailReason: refundFailReason ?? "N/A",
  };
}

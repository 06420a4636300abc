/**
 * What the indexer writes for a deposit that matches a quote: the new request (created `waiting`, its
 * solver state holding the quoted intent) and, when the deposit is indexed, the public `data` it
 * gains (the spec's request-record fields filled from what happened onchain) and the credited
 * deposit in its solver state. Pure.
 */
import type { Hex } from "viem";
import type { ChainConfig } from "../../config/configSchema.ts";
import type { QuotedIntent } from "../../model/quotedIntent.ts";
import type { CurrencyObject, OnchainTx, RecordAmount, RequestData } from "../../model/requestData.ts";
import { sponsorshipView } from "../../quote/feeSponsorship.ts";
import type { CreditedDeposit } from "../../model/solverState.ts";
import type { NewRequest, RequestPatch } from "../../model/storedRequest.ts";
import { ZERO_ADDRESS, type Address } from "../../model/values.ts";
import type { DepositLog } from "./depositEvent.ts";
import { parseUsd } from "../../prices/usdPrice.ts";
import { usdAt } from "../../model/servedRequestData.ts";
import type { Bytes32 } from "../../model/values.ts";

/** A deposit log plus the transaction facts the request record reports. */
export type ObservedDeposit = DepositLog & {
  blockTimestamp: number;
  /** gasUsed × effectiveGasPrice, wei. */
  txFee: bigint;
  txInput: Hex;
  txFrom: Address;
};

/** The spec's Currency object of `address` on `chain` (zero = native, `isNative`); unknown tokens get their address as symbol. */
export function currencyObject(chain: ChainConfig | undefined, chainId: number, address: Address): CurrencyObject {
  if (address === ZERO_ADDRESS && chain) {
    const n = chain.nativeCurrency;
    return { chainId, address: ZERO_ADDRESS, symbol: n.symbol, name: n.name, decimals: n.decimals, metadata: { logoURI: n.logoURI, verified: true, isNative: true } };
  }
  const erc20 = chain?.erc20Currencies.find((c) => c.address === address);
  if (erc20) {
    return { chainId, address, symbol: erc20.symbol, name: erc20.name, decimals: erc20.decimals, metadata: { logoURI: erc20.logoURI, verified: true, isNative: false } };
  }
  return { chainId, address, symbol: address, name: address, decimals: 0, metadata: { logoURI: "", verified: false, isNative: address === ZERO_ADDRESS } };
}

/** Formats `amount` of a `decimals`-decimal currency ("1.5"). */
export function formatAmount(amount: bigint, decimals: number): string {
  if (decimals === 0) return amount.toString();
  const s = amount.toString().padStart(decimals + 1, "0");
  const whole = s.slice(0, -decimals);
  const fraction = s.slice(-decimals).replace(/0+$/, "");
  return fraction ? `${whole}.${fraction}` : whole;
}

/** The credited deposit, as the solver state keeps it. */
export function creditedDeposit(deposit: ObservedDeposit): CreditedDeposit {
  return {
    chainId: deposit.chainId,
    depository: deposit.depository,
    txHash: deposit.txHash,
    logIndex: deposit.logIndex,
    block: Number(deposit.blockNumber),
    blockTimestamp: deposit.blockTimestamp,
    depositor: deposit.depositor,
    token: deposit.token,
    amount: deposit.amount,
    ...(deposit.reclaimAt !== undefined && { reclaimAt: deposit.reclaimAt }),
  };
}

/** The spec's `inTxs` entry for the deposit transaction. */
export function inTxOf(deposit: ObservedDeposit): OnchainTx {
  return {
    fee: deposit.txFee.toString(),
    data: deposit.txInput === "0x" ? {} : { from: deposit.txFrom, to: deposit.depository, input: deposit.txInput },
    stateChanges: [],
    hash: deposit.txHash,
    block: Number(deposit.blockNumber),
    type: "onchain",
    chainId: deposit.chainId,
    timestamp: deposit.blockTimestamp,
    status: "success",
  };
}

/** The request a deposit for `intent` creates (status `waiting`, before the transition to `pending`). */
export function newRequestFor(
  intent: QuotedIntent,
  apiKeyId: string | null,
  inTxHash: Bytes32,
  originBlock: number | null,
  chains: readonly ChainConfig[],
): NewRequest {
  return {
    id: intent.requestId,
    orderId: intent.orderId,
    status: "waiting",
    user: intent.user,
    recipient: intent.recipient,
    originChainId: intent.originChainId,
    destinationChainId: intent.destinationChainId,
    inTxHashes: [inTxHash],
    data: quoteData(intent, chains.find((c) => c.id === intent.originChainId)),
    solver: { intent },
    referrer: intent.referrer,
    apiKeyId,
    originBlock,
  };
}

/** The public `data` fields that come from the quote alone (known before the deposit is mined). */
export function quoteData(intent: QuotedIntent, originChain: ChainConfig | undefined): RequestData {
  const currency = currencyObject(originChain, intent.originChainId, intent.originCurrency);
  const priceE8 = originPriceE8(intent, originChain);
  return {
    slippageTolerance: intent.slippageToleranceBps,
    fees: { gas: intent.fees.relayerGas.toString(), fixed: "0", price: intent.fees.relayerService.toString(), gateway: "0" },
    feeCurrency: currency.symbol,
    feeCurrencyObject: currency,
    currency: currency.symbol,
    currencyObject: currency,
    appFees: intent.appFees.map((fee) => {
      // USD at the quote's price ("current" is the same: never re-priced); "0" without a price.
      const usd = usdAt(fee.amount, currency.decimals, priceE8);
      return { recipient: fee.recipient, bps: fee.bps, amount: fee.amount.toString(), amountUsd: usd, amountUsdCurrent: usd };
    }),
    appFeeCurrencyObject: currency,
    subsidizedRequest: intent.sponsorship !== undefined,
    ...(intent.sponsorship && sponsorshipData(intent, currency, priceE8)),
  };
}

/**
 * The origin currency's USD price (1e-8 USD) the request's figures are in: the quote's
 * (`originUsdPriceE8`); for an intent quoted before prices were stored and not backfilled (migration
 * 0015), the configured price when indexed; else none ("0").
 */
function originPriceE8(intent: QuotedIntent, chain: ChainConfig | undefined): bigint | undefined {
  if (intent.originUsdPriceE8 !== undefined) return intent.originUsdPriceE8;
  const configured = originUsdPrice(chain, intent.originCurrency);
  return configured === undefined ? undefined : parseUsd(configured);
}

/** A sponsored request's `subsidizedFee` and `feeSponsorship.quoted` (from the quote; USD at the quote's price). */
function sponsorshipData(intent: QuotedIntent, currency: CurrencyObject, priceE8: bigint | undefined): Pick<RequestData, "subsidizedFee" | "feeSponsorship"> {
  const sponsorship = intent.sponsorship!;
  const amount = (units: bigint): RecordAmount => ({
    currency,
    amount: units.toString(),
    amountFormatted: formatAmount(units, currency.decimals),
    amountUsd: usdAt(units, currency.decimals, priceE8),
    minimumAmount: units.toString(),
  });
  const usd = usdAt(sponsorship.amount, currency.decimals, priceE8);
  return {
    subsidizedFee: {
      origin: { amount: sponsorship.amount.toString(), address: intent.originCurrency, chainId: intent.originChainId },
      sponsor: { amount: sponsorship.amountUsdMicro.toString(), address: ZERO_ADDRESS, chainId: 0 },
      amountUsd: usd,
      amountUsdCurrent: usd,
    },
    feeSponsorship: { quoted: sponsorshipView(sponsorship, amount) },
  };
}

/** The configured USD price of `address` on `chain` (native or ERC-20), if any. */
function originUsdPrice(chain: ChainConfig | undefined, address: Address): string | undefined {
  if (!chain) return undefined;
  if (address === ZERO_ADDRESS) return chain.nativeCurrency.usdPrice;
  return chain.erc20Currencies.find((c) => c.address === address)?.usdPrice;
}

/** What indexing the deposit records: the public `inTxs` and refund currency, and the credited deposit. */
export function depositPatch(intent: QuotedIntent, deposit: ObservedDeposit, chains: readonly ChainConfig[]): RequestPatch {
  const depositCurrency = currencyObject(chains.find((c) => c.id === deposit.chainId), deposit.chainId, deposit.token);
  return {
    inTxHashes: [deposit.txHash],
    originBlock: Number(deposit.blockNumber),
    data: {
      ...quoteData(intent, chains.find((c) => c.id === intent.originChainId)),
      inTxs: [inTxOf(deposit)],
      refundCurrencyData: {
        currency: depositCurrency,
        amount: deposit.amount.toString(),
        amountFormatted: formatAmount(deposit.amount, depositCurrency.decimals),
        // The deposit matched the quote: it is in the origin currency, at the quote's price.
        amountUsd: usdAt(deposit.amount, depositCurrency.decimals, originPriceE8(intent, chains.find((c) => c.id === intent.originChainId))),
        // A permit request's refund may keep the service's gas, up to the quote's `fees.refundGas`.
        minimumAmount: (deposit.amount > (intent.fees.refundGas ?? 0n) ? deposit.amount - (intent.fees.refundGas ?? 0n) : 0n).toString(),
      },
    },
    solver: { deposit: creditedDeposit(deposit) },
  };
}

/**
 * What the indexer writes for a deposit that matches a quote: the new request (created `waiting`)
 * and the `data` it carries into `pending` — the spec's request-record fields filled from what
 * happened onchain, the fields the signature route reads, and the deposit itself, which the solver's
 * checks compare against the quote. Pure.
 */
import type { Address, Hex } from "viem";
import type { ChainConfig } from "../config/configSchema.ts";
import type { QuotedIntent } from "../model/quotedIntent.ts";
import type { NewRequest } from "../store/requests.ts";
import type { DepositLog } from "./depositEvent.ts";

/** A deposit log plus the transaction facts the request record reports. */
export type ObservedDeposit = DepositLog & {
  blockTimestamp: number;
  /** gasUsed × effectiveGasPrice, wei. */
  txFee: bigint;
  txInput: Hex;
  txFrom: Address;
};

/** `data.deposit`: the onchain deposit, as the solver reads it back. Amounts are decimal strings. */
export type StoredDeposit = {
  chainId: number;
  depository: Address;
  txHash: Hex;
  logIndex: number;
  block: number;
  blockTimestamp: number;
  depositor: Address;
  token: Address;
  amount: string;
};

export type CurrencyObject = {
  chainId: number;
  address: Address;
  symbol: string;
  name: string;
  decimals: number;
  metadata: { logoURI: string; verified: boolean };
};

const ZERO: Address = "0x0000000000000000000000000000000000000000";

/** The spec's Currency object of `address` on `chain` (zero = native); unknown tokens get their address as symbol. */
export function currencyObject(chain: ChainConfig | undefined, chainId: number, address: Address): CurrencyObject {
  const lower = address.toLowerCase() as Address;
  if (lower === ZERO && chain) {
    const n = chain.nativeCurrency;
    return { chainId, address: ZERO, symbol: n.symbol, name: n.name, decimals: n.decimals, metadata: { logoURI: n.logoURI, verified: true } };
  }
  const erc20 = chain?.erc20Currencies.find((c) => c.address.toLowerCase() === lower);
  if (erc20) {
    return { chainId, address: lower, symbol: erc20.symbol, name: erc20.name, decimals: erc20.decimals, metadata: { logoURI: erc20.logoURI, verified: true } };
  }
  return { chainId, address: lower, symbol: lower, name: lower, decimals: 0, metadata: { logoURI: "", verified: false } };
}

/** Formats `amount` of a `decimals`-decimal currency ("1.5"). */
export function formatAmount(amount: bigint, decimals: number): string {
  if (decimals === 0) return amount.toString();
  const s = amount.toString().padStart(decimals + 1, "0");
  const whole = s.slice(0, -decimals);
  const fraction = s.slice(-decimals).replace(/0+$/, "");
  return fraction ? `${whole}.${fraction}` : whole;
}

export function storedDeposit(deposit: ObservedDeposit): StoredDeposit {
  return {
    chainId: deposit.chainId,
    depository: deposit.depository.toLowerCase() as Address,
    txHash: deposit.txHash,
    logIndex: deposit.logIndex,
    block: Number(deposit.blockNumber),
    blockTimestamp: deposit.blockTimestamp,
    depositor: deposit.depositor,
    token: deposit.token,
    amount: deposit.amount.toString(),
  };
}

/** The spec's `inTxs` entry for the deposit transaction. */
export function inTxOf(deposit: ObservedDeposit): Record<string, unknown> {
  return {
    fee: deposit.txFee.toString(),
    data: deposit.txInput === "0x" ? {} : { from: deposit.txFrom.toLowerCase(), to: deposit.depository.toLowerCase(), input: deposit.txInput },
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
  inTxHash: Hex,
  originBlock: number | null,
  chains: readonly ChainConfig[],
): NewRequest {
  return {
    id: intent.requestId.toLowerCase(),
    orderId: intent.orderId.toLowerCase(),
    status: "waiting",
    user: intent.user,
    recipient: intent.recipient,
    originChainId: intent.originChainId,
    destinationChainId: intent.destinationChainId,
    inTxHashes: [inTxHash],
    data: quoteData(intent, chains.find((c) => c.id === intent.originChainId)),
    referrer: intent.referrer,
    apiKeyId,
    originBlock,
  };
}

/** The `data` fields that come from the quote alone (known before the deposit is mined). */
export function quoteData(intent: QuotedIntent, originChain: ChainConfig | undefined): Record<string, unknown> {
  const currency = currencyObject(originChain, intent.originChainId, intent.originCurrency);
  return {
    slippageTolerance: intent.slippageToleranceBps,
    fees: { gas: intent.fees.relayerGas.toString(), fixed: "0", price: intent.fees.relayerService.toString(), gateway: "0" },
    feeCurrency: currency.symbol,
    feeCurrencyObject: currency,
    currency: currency.symbol,
    currencyObject: currency,
    appFees: intent.appFees.map((fee) => ({ recipient: fee.recipient, bps: fee.bps, amount: fee.amount.toString(), amountUsd: "0", amountUsdCurrent: "0" })),
    appFeeCurrencyObject: currency,
    subsidizedRequest: false,
    originCurrency: intent.originCurrency.toLowerCase(),
    originAmount: intent.originAmount.toString(),
    destinationCurrency: intent.destinationCurrency.toLowerCase(),
    destinationAmount: intent.destinationAmount.toString(),
    fillDeadline: intent.fillDeadline,
    quoteExpiresAt: intent.expiresAt,
    refundTo: intent.refundTo.toLowerCase(),
  };
}

/** The full `data` written when the deposit is indexed (the request moves to `pending` with it). */
export function depositData(intent: QuotedIntent, deposit: ObservedDeposit, chains: readonly ChainConfig[]): Record<string, unknown> {
  const depositChain = chains.find((c) => c.id === deposit.chainId);
  const depositCurrency = currencyObject(depositChain, deposit.chainId, deposit.token);
  return {
    ...quoteData(intent, chains.find((c) => c.id === intent.originChainId)),
    inTxs: [inTxOf(deposit)],
    depositor: deposit.depositor,
    depositedAmount: deposit.amount.toString(),
    deposit: storedDeposit(deposit),
    refundCurrencyData: {
      currency: depositCurrency,
      amount: deposit.amount.toString(),
      amountFormatted: formatAmount(deposit.amount, depositCurrency.decimals),
      amountUsd: "0",
      minimumAmount: deposit.amount.toString(),
    },
  };
}

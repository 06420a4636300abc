/**
 * What a quote commits Ferry to, in one flat record: written by POST /quote/v2 next to the quote,
 * read by the indexer (to match a deposit) and the solver (to fill, repay and refund). It is the
 * only contract between the quote side and the solver side.
 *
 * Conventions: addresses are lowercase 0x-hex (the zero address is the native currency); amounts are
 * decimal strings in the currency's smallest units; times are unix seconds.
 */
import type { Address, Hex } from "viem";

export type TradeType = "EXACT_INPUT" | "EXACT_OUTPUT";

export type QuotedIntent = {
  requestId: Hex;
  /** The protocol orderId: the `id` of the expected Depository deposit. */
  orderId: Hex;
  tradeType: TradeType;
  /** The quote's `user`: sender, origin user of the attestations, the deposit step's `from`. */
  user: Address;
  recipient: Address;
  /** Who gets refunds on the origin chain (the quote's `refundTo`, default `user`). */
  refundTo: Address;
  originChainId: number;
  originCurrency: Address;
  /** The deposit the quote expects: what the deposit step sends. */
  originAmount: string;
  destinationChainId: number;
  destinationCurrency: Address;
  /** What the solver pays the recipient on the destination chain. */
  destinationAmount: string;
  /** Deposits mined in an origin block with a timestamp after this are refunded (ORDER_EXPIRED). */
  expiresAt: number;
  /** The fill attestation's `deadline` and orderData.output.deadline: no fill after this. */
  fillDeadline: number;
  /** The fee buckets, in the origin currency's smallest units. */
  fees: { relayerGas: string; relayerService: string; app: string };
  appFees: { recipient: Address; bps: string; amount: string }[];
  /** Basis points, as quoted (always "0" for same-currency routes at a fixed rate). */
  slippageToleranceBps: string;
  referrer: string | null;
};

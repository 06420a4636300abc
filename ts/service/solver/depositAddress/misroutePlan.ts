/**
 * The refund plan of a strict deposit address whose bound payment did not arrive in time: what it holds
 * of each watched currency at one final block past the quote's expiry, turned into refund entries
 * (../../model/depositAddressRefund.ts) and the request's failReason. Pure.
 *
 * - Reason of each entry: the bound currency — `ORDER_EXPIRED` when the bound amount was there but
 *   arrived after the expiry, else `DEPOSITED_AMOUNT_TOO_LOW_TO_FILL`; any other currency
 *   `INCORRECT_DEPOSIT_CURRENCY`. The request's reason is the bound currency's when it holds any, else
 *   `INCORRECT_DEPOSIT_CURRENCY`.
 * - Below the currency's `strayRefundMinimum` (../../config/strayRefundMinimum.ts, as for stray
 *   deposits): `ignored` (AMOUNT_TOO_LOW_TO_REFUND), recorded and left at the address.
 * - The whole amount held goes back: the factory's refund pays `refundTo` exactly the instruction's
 *   amount and has no way to keep a part for the submitter's gas (see docs/decisions.md).
 * - Instruction id: keccak256(abi.encode("ferry/deposit-address/strict/refund", orderId, token)) — one
 *   refund per (address, currency), whatever is retried; a deposit's id has its own tag
 *   (./forwardDepositAddresses.ts `strictInstructionId`), and the row's single compare-and-set from
 *   `watching` decides between the two.
 */
import { encodeAbiParameters } from "viem";
import { strayRefundMinimum } from "../../config/strayRefundMinimum.ts";
import type { ChainConfig } from "../../config/configSchema.ts";
import type { DepositAddressPayment } from "../../model/depositAddressPayment.ts";
import type { DepositAddressRefund, MisrouteReason } from "../../model/depositAddressRefund.ts";
import { ZERO_ADDRESS, type Address, type Bytes32 } from "../../model/values.ts";
import { keccak256Lowercase } from "../../../core/lowercaseHex.ts";

export function strictRefundInstructionId(orderId: Bytes32, token: Address): Bytes32 {
  return keccak256Lowercase(encodeAbiParameters([{ type: "string" }, { type: "bytes32" }, { type: "address" }], ["ferry/deposit-address/strict/refund", orderId, token]));
}

/** The currencies watched at an address: the chain's native currency and its configured ERC-20s (a token Ferry does not know is never called). */
export function watchedCurrencies(chain: Pick<ChainConfig, "erc20Currencies">): Address[] {
  return [ZERO_ADDRESS, ...chain.erc20Currencies.map((c) => c.address)];
}

/** One currency the address holds at the plan's final block, with the payment that brought it. */
export type Held = { token: Address; amount: bigint; payment: DepositAddressPayment };

/** What the address holds besides the payment being forwarded: the bound currency's excess (INCORRECT_PAYMENT) and other currencies (INCORRECT_DEPOSIT_CURRENCY). */
export function planExcessRefunds(args: {
  orderId: Bytes32;
  currency: Address;
  /** The bound currency: only the excess over the forwarded amount. */
  held: readonly Held[];
  chain: Pick<ChainConfig, "nativeCurrency" | "erc20Currencies">;
  strayRefundMinimumUsd: string;
  finalBlock: number;
}): DepositAddressRefund[] {
  return (planMisrouteRefunds({ ...args, boundLate: false })?.refunds ?? []).map((r) => (r.token === args.currency ? { ...r, reason: "INCORRECT_PAYMENT" } : r));
}

export function planMisrouteRefunds(args: {
  orderId: Bytes32;
  currency: Address;
  /** The bound amount was held, but only from a block after the expiry. */
  boundLate: boolean;
  held: readonly Held[];
  chain: Pick<ChainConfig, "nativeCurrency" | "erc20Currencies">;
  strayRefundMinimumUsd: string;
  finalBlock: number;
}): { reason: MisrouteReason; refunds: DepositAddressRefund[] } | null {
  const held = args.held.filter((h) => h.amount > 0n);
  if (held.length === 0) return null;
  const boundReason: MisrouteReason = args.boundLate ? "ORDER_EXPIRED" : "DEPOSITED_AMOUNT_TOO_LOW_TO_FILL";
  const refunds = held.map((h): DepositAddressRefund => {
    const currency = h.token === ZERO_ADDRESS ? args.chain.nativeCurrency : args.chain.erc20Currencies.find((c) => c.address === h.token)!;
    const below = h.amount < strayRefundMinimum(currency, args.strayRefundMinimumUsd);
    return {
      token: h.token,
      amount: h.amount,
      reason: h.token === args.currency ? boundReason : "INCORRECT_DEPOSIT_CURRENCY",
      instructionId: strictRefundInstructionId(args.orderId, h.token),
      state: below ? "ignored" : "planned",
      ...(below && { ignoredReason: "AMOUNT_TOO_LOW_TO_REFUND" as const }),
      plannedAtBlock: args.finalBlock,
      txHash: null,
      payment: h.payment,
    };
  });
  return { reason: held.some((h) => h.token === args.currency) ? boundReason : "INCORRECT_DEPOSIT_CURRENCY", refunds };
}

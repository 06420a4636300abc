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

/** One currency an address holds at a final block, and the payment that brought the part not yet accounted for. */
export type Balance = { token: Address; balance: bigint; payment: DepositAddressPayment };

/**
 * The refunds of what arrived at an address after its earlier refunds (`refunds`, in the order they were
 * planned): per currency, the balance beyond what is known to be left there (`knownLeft`: the `ignored`
 * entries since the last refund that swept it) is new. The whole balance is refunded (sweeping that dust
 * with it) when it reaches the currency's `strayRefundMinimum`; else only the new part is recorded
 * `ignored` (AMOUNT_TOO_LOW_TO_REFUND). Each entry's id is `instructionId(token, n)`, n = that currency's
 * count of entries so far, so every refund has a fresh id under the factory's replay guard.
 */
export function planSweepRefunds(args: {
  refunds: readonly DepositAddressRefund[];
  balances: readonly Balance[];
  chain: Pick<ChainConfig, "nativeCurrency" | "erc20Currencies">;
  strayRefundMinimumUsd: string;
  finalBlock: number;
  reason: (token: Address) => MisrouteReason;
  instructionId: (token: Address, n: number) => Bytes32;
}): DepositAddressRefund[] {
  const planned: DepositAddressRefund[] = [];
  for (const { token, balance, payment } of args.balances) {
    const left = knownLeft(args.refunds, token);
    if (balance <= left) continue;
    const currency = token === ZERO_ADDRESS ? args.chain.nativeCurrency : args.chain.erc20Currencies.find((c) => c.address === token)!;
    const below = balance < strayRefundMinimum(currency, args.strayRefundMinimumUsd);
    planned.push({
      token,
      amount: below ? balance - left : balance,
      reason: args.reason(token),
      instructionId: args.instructionId(token, args.refunds.filter((r) => r.token === token).length),
      state: below ? "ignored" : "planned",
      ...(below && { ignoredReason: "AMOUNT_TOO_LOW_TO_REFUND" as const }),
      plannedAtBlock: args.finalBlock,
      txHash: null,
      payment,
    });
  }
  return planned;
}

/** What is known to be left at the address in `token`: the ignored refunds since the last one that swept it. */
export function knownLeft(refunds: readonly DepositAddressRefund[], token: Address): bigint {
  let left = 0n;
  for (const r of refunds.filter((r) => r.token === token)) left = r.state === "ignored" ? left + r.amount : 0n;
  return left;
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

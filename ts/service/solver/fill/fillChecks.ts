/**
 * Whether a pending request can be filled: the checks, in a fixed order, each failure a spec
 * `failReason`. Pure: the caller reads the chain and passes in what the checks need.
 *
 * 1. the quote had expired when the deposit was mined (deposit block time > quote expiry) → ORDER_EXPIRED;
 *    for a deposit-address payment (`paidAt`) the time the payer paid the address counts, not the
 *    block of the service's own forwarding into the Depository
 * 2. the deposit is on another chain than the quote's origin → DEPOSIT_CHAIN_MISMATCH
 * 3. the deposit is in another currency than quoted → INCORRECT_DEPOSIT_CURRENCY
 * 4. less arrived than the quote's originAmount → DEPOSITED_AMOUNT_TOO_LOW_TO_FILL
 * 5. the fill deadline is within the safety margin of the destination's latest block (latest time +
 *    `solver.fillDeadlineMarginSeconds` ≥ deadline): the receiver rejects time > deadline and the fill
 *    lands in a later block than the one read, so a fill that may not land in time is never sent
 *    (a margin of 0 keeps the bare rule latest ≥ deadline) → ORDER_EXPIRED
 * 6. the solver cannot pay the fill plus gas on the destination → SOLVER_BALANCE_TOO_LOW
 */
import type { QuotedIntent } from "../../model/quotedIntent.ts";
import type { CreditedDeposit, Details } from "../../model/solverState.ts";
import { ZERO_ADDRESS } from "../../model/values.ts";

export type FillFailReason = "ORDER_EXPIRED" | "DEPOSIT_CHAIN_MISMATCH" | "INCORRECT_DEPOSIT_CURRENCY" | "DEPOSITED_AMOUNT_TOO_LOW_TO_FILL" | "SOLVER_BALANCE_TOO_LOW";

export type FillCheckInput = {
  intent: Pick<QuotedIntent, "originChainId" | "originCurrency" | "originAmount" | "expiresAt" | "fillDeadline" | "destinationCurrency" | "destinationAmount">;
  deposit: Pick<CreditedDeposit, "chainId" | "token" | "amount" | "blockTimestamp">;
  /** Paid through a deposit address: the block time of the payment into the address (../../model/depositAddressPayment.ts). */
  paidAt?: number;
  destination: {
    latestBlockTime: number;
    /** Seconds the fill must have before its deadline (config `solver.fillDeadlineMarginSeconds`). */
    deadlineMarginSeconds: number;
    solverNativeBalance: bigint;
    /** The solver's balance of `currency` when it is an ERC-20 (ignored for native). */
    solverTokenBalance: bigint;
    /** Native the fill transaction may cost (gas limit × max fee). */
    gasCost: bigint;
  };
};

export type FillCheckResult = { ok: true } | { ok: false; failReason: FillFailReason; details: Details };

export function checkFill({ intent: quote, deposit, destination, paidAt }: FillCheckInput): FillCheckResult {
  const depositTime = paidAt ?? deposit.blockTimestamp;
  if (depositTime > quote.expiresAt) {
    return { ok: false, failReason: "ORDER_EXPIRED", details: { reason: "quote expired before the deposit", quoteExpiresAt: quote.expiresAt, depositTime } };
  }
  if (deposit.chainId !== quote.originChainId) {
    return { ok: false, failReason: "DEPOSIT_CHAIN_MISMATCH", details: { expectedChainId: quote.originChainId, depositChainId: deposit.chainId } };
  }
  if (deposit.token !== quote.originCurrency) {
    return { ok: false, failReason: "INCORRECT_DEPOSIT_CURRENCY", details: { expectedCurrency: quote.originCurrency, depositCurrency: deposit.token } };
  }
  if (deposit.amount < quote.originAmount) {
    return { ok: false, failReason: "DEPOSITED_AMOUNT_TOO_LOW_TO_FILL", details: { expectedAmount: quote.originAmount.toString(), depositedAmount: deposit.amount.toString() } };
  }
  if (destination.latestBlockTime + destination.deadlineMarginSeconds >= quote.fillDeadline) {
    return {
      ok: false,
      failReason: "ORDER_EXPIRED",
      details: { reason: "fill deadline reached (within the safety margin)", fillDeadline: quote.fillDeadline, destinationTime: destination.latestBlockTime, marginSeconds: destination.deadlineMarginSeconds },
    };
  }
  const native = quote.destinationCurrency === ZERO_ADDRESS;
  const amount = quote.destinationAmount;
  const nativeNeeded = destination.gasCost + (native ? amount : 0n);
  if (destination.solverNativeBalance < nativeNeeded || (!native && destination.solverTokenBalance < amount)) {
    return { ok: false, failReason: "SOLVER_BALANCE_TOO_LOW", details: { currency: quote.destinationCurrency, amount: amount.toString() } };
  }
  return { ok: true };
}

/**
 * A request's failure in plain language, from its public record: what happened (the status, the
 * `failReason`, the `refundFailReason`, the `details` the solver recorded) and what the user or the
 * integrator can do about it. Pure: the MCP server's `explain_failure` tool (./ferryMcpServer.ts)
 * reads the records over HTTP and hands them here.
 *
 * The reasons explained are the ones the service records (ts/service/solver: fill checks, reverts,
 * expiry, the solver's balance) and the spec's refund reasons; any other reason is reported as it
 * is, with the generic advice for its status, never guessed at.
 */

export type FailureFacts = {
  requestId: string;
  status: string;
  failReason?: string | undefined;
  refundFailReason?: string | undefined;
  details?: Record<string, unknown> | null | undefined;
  /** Origin-chain transaction hashes (the deposit, a refund). */
  inTxHashes?: readonly string[];
  /** Destination-chain transaction hashes (the fill). */
  txHashes?: readonly string[];
};

export type FailureExplanation = {
  requestId: string;
  status: string;
  /** Whether the request failed at all (`failure`, `refund` or `fallback`). */
  failed: boolean;
  failReason: string | null;
  refundFailReason: string | null;
  /** One or two sentences: what happened. */
  explanation: string;
  /** What to do next. */
  whatToDo: string;
  details: Record<string, unknown> | null;
};

type Reason = { meaning: string; whatToDo: string };

const REQUOTE = "Ask for a new quote and deposit again.";

/** failReason → what it means and what to do. */
export const FAIL_REASONS: Readonly<Record<string, Reason>> = {
  ORDER_EXPIRED: {
    meaning: "the deposit was mined after the quote's deposit window (`expiresAt`), or the fill could not be made before the fill deadline",
    whatToDo: `${REQUOTE} Send the deposit soon after quoting: a quote is valid for a few minutes.`,
  },
  DEPOSIT_CHAIN_MISMATCH: { meaning: "the deposit was made on another chain than the quote's origin chain", whatToDo: `${REQUOTE} Send the deposit on the quote's originChainId.` },
  NO_QUOTES: {
    meaning: "a payment to an open deposit address could not be quoted onward (details.quoteErrorCode says why: an unsupported currency, an amount out of range, no route), so it was returned to its refundTo address",
    whatToDo: `${REQUOTE} Check the route with POST /quote/v2 before paying the address.`,
  },
  DOUBLE_SPEND: {
    meaning: "the deposit was already spent on the origin chain before the service could pay it out (reclaimed by the depositor after its reclaim time, or paid out by another request)",
    whatToDo: "Nothing came to the recipient and nothing more will; if a reclaim was not yours, contact the operator with the requestId.",
  },
  INCORRECT_DEPOSIT_CURRENCY: { meaning: "the deposit was made in another currency than the quote's origin currency", whatToDo: `${REQUOTE} Deposit exactly the currency the quote names.` },
  DEPOSITED_AMOUNT_TOO_LOW_TO_FILL: {
    meaning: "less was deposited than the quote asked for (a fee-on-transfer token, or an amount edited by hand)",
    whatToDo: `${REQUOTE} Send the deposit transaction exactly as the quote's steps give it.`,
  },
  SOLVER_BALANCE_TOO_LOW: {
    meaning: "the solver did not hold enough of the destination currency to fill when the deposit arrived",
    whatToDo: "Try again later or with a smaller amount; the operator must top up the solver (GET /chains shows its capacity).",
  },
  SOLVER_CAPACITY_EXCEEDED: {
    meaning: "the solver's balance was held by other fills in flight when the deposit arrived",
    whatToDo: "Try again in a minute or with a smaller amount.",
  },
  SLIPPAGE: {
    meaning: "the swap's price moved beyond the quote's slippage tolerance (or its price source was unavailable) before the fill",
    whatToDo: `${REQUOTE} A larger slippageTolerance makes a swap less likely to be refunded.`,
  },
  SWAP_USES_TOO_MUCH_GAS: {
    meaning: "the destination calls needed more gas than the quote priced for them",
    whatToDo: `${REQUOTE} Check that the calls (txs) succeed on their own; give them a realistic gas limit.`,
  },
  EXECUTION_REVERTED: {
    meaning: "one of the destination calls (txs) reverted, so the fill could not be made (details.callIndex and details.revert name the call and its error)",
    whatToDo: "Fix the call that reverted (simulate it on the destination chain), then ask for a new quote.",
  },
  TRANSACTION_REVERTED: { meaning: "the fill transaction reverted on the destination chain", whatToDo: "Quote it to the operator with the requestId; the deposit is refunded when the fill cannot happen." },
  ORDER_ALREADY_FILLED: {
    meaning: "the request was already filled on the destination chain by a fill the service did not send",
    whatToDo: "Contact the operator with the requestId: it needs a person (the request is parked and never repaid automatically).",
  },
  ORDER_IS_CANCELLED: { meaning: "the fill attestation was cancelled onchain before the fill", whatToDo: REQUOTE },
  INVALID_SIGNATURE: { meaning: "the destination contract refused the fill's signature (wrong chain, receiver or signature form)", whatToDo: "Contact the operator with the requestId: this is a service-side fault." },
  INVALID_SIGNER: { meaning: "the destination contract does not accept the service's signer (or the allocator's signature)", whatToDo: "Contact the operator with the requestId: its signer or allocator is not configured onchain." },
  TOKEN_NOT_TRANSFERABLE: { meaning: "the destination currency is not allowed by the destination contract", whatToDo: "Contact the operator: the currency is not enabled onchain." },
  INSUFFICIENT_NATIVE_TOKENS_SUPPLIED: { meaning: "the fill sent the wrong native amount", whatToDo: "Contact the operator with the requestId." },
  TRANSFER_FAILED: { meaning: "a payment to the recipient failed (the recipient rejected it, or the token refused the transfer)", whatToDo: "Use a recipient that can receive the currency, then ask for a new quote." },
  TRANSFER_AMOUNT_EXCEEDS_BALANCE: { meaning: "a transfer needed more than the payer held", whatToDo: "Try again later; if it persists, contact the operator." },
  TRANSFER_AMOUNT_EXCEEDS_ALLOWANCE: { meaning: "a token transfer needed more allowance than was given", whatToDo: "Contact the operator with the requestId." },
  SIGNATURE_EXPIRED: { meaning: "a payout's signature expired before it was mined", whatToDo: "Nothing: the service signs and sends a new one." },
  INVALID_NONCE: { meaning: "a payout's nonce was already used onchain", whatToDo: "Contact the operator with the requestId." },
  AMOUNT_TOO_LOW_TO_REFUND: { meaning: "the deposit is too small to refund after fees", whatToDo: "Nothing can be returned automatically; contact the operator if the amount matters." },
  UNKNOWN: { meaning: "the request failed without a recorded reason", whatToDo: "Contact the operator with the requestId; the service's log has the cause." },
};

/** refundFailReason (the spec's) → why the refund could not be made. */
export const REFUND_FAIL_REASONS: Readonly<Record<string, string>> = {
  AMOUNT_TOO_LOW_TO_REFUND: "the deposit is too small to pay for its own refund, so nothing was sent back",
  NEGATIVE_NEW_AMOUNT_AFTER_FEES: "after fees, nothing would be left to refund",
  SWAP_CURRENCY_NOT_ON_ORIGIN: "the currency to refund does not exist on the origin chain",
  REFUND_RECIPIENT_IS_VASP: "the refund address is a custodial (VASP) address the service does not send to",
};

const FAILED = new Set(["failure", "refund", "fallback"]);
const IN_FLIGHT: Readonly<Record<string, string>> = {
  waiting: "The quote exists but no deposit for it has been seen on the origin chain yet.",
  depositing: "The deposit is being sent.",
  pending: "The deposit was seen; the solver is checking it and preparing the fill.",
  submitted: "The fill was sent on the destination chain and is waiting to be confirmed.",
  success: "The request succeeded: the recipient was paid on the destination chain.",
};

const hashes = (label: string, list: readonly string[] | undefined) => (list && list.length > 0 ? ` ${label}: ${list.join(", ")}.` : "");
const realReason = (reason: string | undefined) => (reason && reason !== "N/A" ? reason : null);

export function explainFailure(facts: FailureFacts): FailureExplanation {
  const failReason = realReason(facts.failReason);
  const refundFailReason = realReason(facts.refundFailReason);
  const base = { requestId: facts.requestId, status: facts.status, failReason, refundFailReason, details: facts.details ?? null };
  if (!FAILED.has(facts.status)) {
    const explanation = IN_FLIGHT[facts.status] ?? `The request is in status ${facts.status}.`;
    return {
      ...base,
      failed: false,
      explanation: `${explanation}${hashes("Deposit", facts.inTxHashes)}${hashes("Fill", facts.txHashes)}`,
      whatToDo: facts.status === "success" ? "Nothing: it did not fail." : "Nothing yet: follow the request until it is success, failure or refund.",
    };
  }
  const reason = FAIL_REASONS[failReason ?? "UNKNOWN"];
  const cause = reason ? reason.meaning : `the service recorded ${failReason}`;
  const named = failReason ? ` (${failReason})` : "";
  let outcome: string;
  if (facts.status === "refund") outcome = `The deposit was refunded on the origin chain.${hashes("Origin transactions", facts.inTxHashes)}`;
  else if (refundFailReason) outcome = `The deposit was not refunded: ${REFUND_FAIL_REASONS[refundFailReason] ?? refundFailReason} (${refundFailReason}).`;
  else if (facts.status === "fallback") outcome = "The destination call failed and the funds went to the fallback recipient.";
  else outcome = "No refund is coming automatically: the request is held for the operator.";
  const whatToDo =
    facts.status === "failure" && !refundFailReason
      ? `Contact the operator with the requestId ${facts.requestId}; they see why it is held (ferry requests parked). ${reason?.whatToDo ?? ""}`.trim()
      : (reason?.whatToDo ?? "Contact the operator with the requestId.");
  return { ...base, failed: true, explanation: `The request failed: ${cause}${named}. ${outcome}`, whatToDo };
}

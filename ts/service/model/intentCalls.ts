/**
 * How a quoted intent's destination calls are filled: `AttestedReceiver.fillWithCalls(att, sig,
 * calls, sweepTokens)` with the intent's calls (all `allowFailure: false`) and its sweep list — the
 * destination currency when it is an ERC-20 and every token the calls name, as quoted (native
 * leftovers are always swept) — to the attested
 * destinationUser, the intent's `recipient`. The requestId of such an intent is ts/core
 * `callsRequestId(orderId, calls, sweepTokens)`: the quote derives it, the solver checks it again
 * before it signs, and the receiver checks it onchain.
 */
import type { Address } from "./values.ts";
import { callsRequestId, type DestinationCall } from "../../core/destinationCalls.ts";
import type { QuotedIntent } from "./quotedIntent.ts";
import { ZERO_ADDRESS } from "./values.ts";

/**
 * What the Multicaller sweeps besides native: the intent's quoted `sweepTokens`; for a row quoted
 * before the list was stored, the destination currency when it is an ERC-20.
 */
export function sweepTokensOf(intent: Pick<QuotedIntent, "destinationCurrency" | "sweepTokens">): Address[] {
  if (intent.sweepTokens) return [...intent.sweepTokens];
  return intent.destinationCurrency === ZERO_ADDRESS ? [] : [intent.destinationCurrency];
}

/** Whether the fill runs calls (`fillWithCalls`) rather than a plain `fill`. */
export function hasCalls(intent: Pick<QuotedIntent, "calls">): intent is Pick<QuotedIntent, "calls"> & { calls: DestinationCall[] } {
  return intent.calls !== undefined && intent.calls.length > 0;
}

/** The requestId an intent with these calls must have. */
export function intentCallsRequestId(intent: Pick<QuotedIntent, "orderId" | "destinationCurrency" | "sweepTokens"> & { calls: readonly DestinationCall[] }) {
  return callsRequestId(intent.orderId, intent.calls, sweepTokensOf(intent));
}

/**
 * What the solver checks of a swap or call intent right before it signs and sends the fill, after the
 * common checks (./fillChecks.ts):
 * 1. destination calls: the intent's requestId is still the commitment to its calls
 *    (../../model/intentCalls.ts) — a row whose calls changed after the quote is corrupted: the step
 *    throws STORED_VALUE_INVALID (the request is parked; nothing is signed);
 * 2. a swap: the fill-time price (./swapRepricing.ts) → failure SLIPPAGE when it moved past the tolerance.
 * The calls themselves are simulated with the fill (its gas estimate, ./sendFill.ts): a reverting
 * call fails the request with EXECUTION_REVERTED and the decoded revert before anything is sent.
 */
import { hasCalls, intentCallsRequestId } from "../../model/intentCalls.ts";
import type { QuotedIntent } from "../../model/quotedIntent.ts";
import { StoredValueInvalidError } from "../../model/storedValue.ts";
import type { SolverContext } from "../solverContext.ts";
import { repriceSwap, swapCurrencies, type RepricingResult } from "./swapRepricing.ts";

export async function fillPreflight(ctx: SolverContext, intent: QuotedIntent): Promise<RepricingResult> {
  if (hasCalls(intent) && intentCallsRequestId(intent) !== intent.requestId) {
    throw new StoredValueInvalidError("requests.solver_state", intent.requestId, "intent.calls", "do not match the requestId's commitment");
  }
  if (!intent.swap) return { ok: true };
  const currencies = swapCurrencies(ctx.chains, intent);
  if (!currencies) {
    return { ok: false, failReason: "SLIPPAGE", details: { reason: "CURRENCY_NOT_CONFIGURED", priceSource: intent.swap.priceSource } };
  }
  return repriceSwap(intent, currencies, ctx.prices);
}

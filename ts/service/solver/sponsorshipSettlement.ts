/**
 * A sponsored request's app balance hold (taken by POST /quote/v2, ../quote/quoteService.ts) ends with
 * the request: `settleSponsorship` debits the sponsored amount when the fill succeeds, in the store
 * transaction that records the success (both or neither); `releaseSponsorship` gives it back when the
 * request is refunded (the app is not charged for a request that did not happen). Both are no-ops for
 * an unsponsored request and idempotent (the ledger ends a hold once: a replayed success or refund
 * changes nothing). A hold already ended the other way is logged, never thrown: the request's own
 * state change must not be blocked by the ledger.
 */
import type { Logger } from "../logging/logger.ts";
import type { QuotedIntent } from "../model/quotedIntent.ts";
import type { Repositories } from "../store/createStore.ts";

type Ledger = Pick<Repositories, "appBalances">;

export async function settleSponsorship(repos: Ledger, intent: QuotedIntent, log: Logger): Promise<void> {
  const holdId = intent.sponsorship?.holdId;
  if (!holdId) return;
  const hold = await repos.appBalances.getHold(holdId);
  if (hold?.state === "held") {
    await repos.appBalances.settle({ holdId, spentUsd: intent.sponsorship!.amountUsdMicro });
    return;
  }
  if (hold?.state !== "settled") log.error({ requestId: intent.requestId, holdId, state: hold?.state ?? null }, "sponsored request succeeded, but its hold is gone: the app was not charged");
}

export async function releaseSponsorship(repos: Ledger, intent: QuotedIntent, log: Logger): Promise<void> {
  const holdId = intent.sponsorship?.holdId;
  if (!holdId) return;
  const hold = await repos.appBalances.getHold(holdId);
  if (hold?.state === "held") {
    await repos.appBalances.release(holdId);
    return;
  }
  if (hold?.state !== "released") log.error({ requestId: intent.requestId, holdId, state: hold?.state ?? null }, "sponsored request refunded, but its hold was settled: the app was charged");
}

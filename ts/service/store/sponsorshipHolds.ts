/**
 * Sponsorship holds of quotes that were never used: a sponsored quote holds its amount on the app
 * balance (../quote/quoteService.ts) and a request settles or releases it (../solver/sponsorshipSettlement.ts);
 * a quote nobody deposited for has no request to end its hold. These are the holds still `held` whose
 * quote's fill deadline (chain time, unix seconds in the stored intent) passed more than
 * `graceSeconds` ago with no request under its requestId: no fill can land any more (the receiver
 * refuses it after the deadline; the grace covers a destination clock behind the wall clock), so the
 * solver's loop releases them. A deposit indexed later still becomes a request — refunded (its
 * deadline passed) with nothing left to release.
 */
import type { StoreContext } from "./engine.ts";

export async function listExpiredSponsorshipHolds(ctx: StoreContext, graceSeconds: number, limit: number): Promise<string[]> {
  const cutoff = Math.floor(ctx.now().getTime() / 1000) - graceSeconds;
  const { rows } = await ctx.db.query<{ id: string }>(
    `SELECT h.id FROM app_balance_holds h JOIN quotes q ON q.request_id = h.reference
     WHERE h.purpose = 'sponsorship' AND h.state = 'held' AND (q.intent->>'fillDeadline')::bigint < $1
       AND NOT EXISTS (SELECT 1 FROM requests r WHERE r.id = h.reference)
     ORDER BY h.created_at LIMIT $2`,
    [cutoff, limit],
  );
  return rows.map((r) => r.id);
}

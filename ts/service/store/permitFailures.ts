/**
 * Failed permit requests per user (`permit_failures`, migration 0013): POST /execute/permits counts a
 * refusal on the merits (the fill or the deposit would revert) against the quote's user, and refuses
 * that user with PERMITS_RATE_LIMITED once `limit` of them fall within the window. Kept in the store so
 * replicas sharing a database share the count. The window is measured on the store's clock (`now`).
 */
import type { Address } from "../model/values.ts";
import type { StoreContext } from "./engine.ts";

/** How many failures `user` has within the last `windowMs`. */
export async function countPermitFailures(ctx: StoreContext, user: Address, windowMs: number): Promise<number> {
  const since = new Date(ctx.now().getTime() - windowMs);
  const { rows } = await ctx.db.query<{ n: number }>("SELECT count(*)::int AS n FROM permit_failures WHERE user_address = $1 AND failed_at > $2", [user, since]);
  return rows[0]?.n ?? 0;
}

/** Records one failure of `user` now, and forgets that user's failures older than `windowMs` (the table stays small). */
export async function recordPermitFailure(ctx: StoreContext, user: Address, windowMs: number): Promise<void> {
  const now = ctx.now();
  await ctx.db.transaction(async (tx) => {
    await tx.query("DELETE FROM permit_failures WHERE user_address = $1 AND failed_at <= $2", [user, new Date(now.getTime() - windowMs)]);
    await tx.query("INSERT INTO permit_failures (user_address, failed_at) VALUES ($1, $2)", [user, now]);
  });
}

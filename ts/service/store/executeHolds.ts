/**
 * POST /execute's app-balance holds that no relayed transaction names (../relay/stuckExecuteHolds.ts).
 * /execute takes the hold (purpose `execute`, reference the requestId) before the relayer's nonce store
 * transaction records the transaction whose subject is `<requestId>:<holdId>`; a process killed in
 * between leaves the hold `held` with nothing to settle it. These queries find such holds past a lease
 * and take the hold's lock, so the sweep that releases one and the nonce store transaction that
 * records its transaction exclude each other: whichever commits first wins, the other sees it.
 */
import { ServiceError } from "../errors/serviceError.ts";
import type { HoldState } from "./appBalances.ts";
import type { StoreContext } from "./engine.ts";

/** `execute` holds still `held`, taken more than `leaseMs` ago (the store's clock), that no relayer transaction names. */
export async function listUnrecordedExecuteHolds(ctx: StoreContext, leaseMs: number, limit: number): Promise<string[]> {
  const cutoff = new Date(ctx.now().getTime() - leaseMs);
  const { rows } = await ctx.db.query<{ id: string }>(
    `SELECT h.id FROM app_balance_holds h
     WHERE h.purpose = 'execute' AND h.state = 'held' AND h.created_at < $1
       AND NOT EXISTS (SELECT 1 FROM solver_transactions t WHERE t.purpose = 'execute' AND t.subject = h.reference || ':' || h.id)
     ORDER BY h.created_at LIMIT $2`,
    [cutoff, limit],
  );
  return rows.map((r) => r.id);
}

/**
 * Locks the hold (the app's balance row first, then the hold: the ledger's lock order) until the
 * surrounding transaction ends, and says its state and whether a relayer transaction names it. Use
 * inside `transaction`.
 */
export async function lockExecuteHold(ctx: StoreContext, holdId: string): Promise<{ state: HoldState; recorded: boolean }> {
  const { rows: found } = await ctx.db.query<{ api_key_id: string }>("SELECT api_key_id FROM app_balance_holds WHERE id = $1 AND purpose = 'execute'", [holdId]);
  if (!found[0]) throw new ServiceError("APP_BALANCE_HOLD_NOT_FOUND", `no execute hold ${holdId}`);
  await ctx.db.query("SELECT 1 FROM app_balances WHERE api_key_id = $1 FOR UPDATE", [found[0].api_key_id]);
  const { rows } = await ctx.db.query<{ state: HoldState; reference: string }>("SELECT state, reference FROM app_balance_holds WHERE id = $1 FOR UPDATE", [holdId]);
  const { rows: txs } = await ctx.db.query("SELECT 1 FROM solver_transactions WHERE purpose = 'execute' AND subject = $1 LIMIT 1", [`${rows[0]!.reference}:${holdId}`]);
  return { state: rows[0]!.state, recorded: txs.length > 0 };
}

/**
 * Relayer transactions that ended (`mined`/`superseded`) while the hold they name is still `held`: the
 * follower marked the nonce, then the process died before it settled the hold. The follower ends them
 * again (following a mined nonce gives its receipt back; settling is idempotent).
 */
export async function listEndedExecuteHoldTransactions(ctx: StoreContext, limit: number): Promise<Array<{ chainId: number; address: string; nonce: number }>> {
  const { rows } = await ctx.db.query<{ chain_id: number; address: string; nonce: number }>(
    `SELECT t.chain_id, t.address, t.nonce FROM app_balance_holds h
     JOIN solver_transactions t ON t.purpose = 'execute' AND t.subject = h.reference || ':' || h.id
     WHERE h.purpose = 'execute' AND h.state = 'held' AND t.state <> 'pending'
     ORDER BY h.created_at LIMIT $1`,
    [limit],
  );
  return rows.map((r) => ({ chainId: r.chain_id, address: r.address, nonce: r.nonce }));
}

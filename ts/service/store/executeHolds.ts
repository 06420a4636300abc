/**
 * POST /execute's app-balance holds and the relayer transactions that name them
 * (../relay/stuckExecuteHolds.ts, ../relay/relayExecution.ts). /execute takes the hold (purpose
 * `execute`, reference the requestId or, for a later attempt, `<requestId>#n`) before the relayer's
 * nonce store transaction records the transaction whose subject names the hold
 * (../balances/executeHoldSubject.ts: the one definition, in TypeScript and in SQL); a process killed
 * in between leaves the hold `held` with nothing to settle it. These queries find such holds past a
 * lease, take the hold's lock (so the sweep that releases one and the nonce store transaction that
 * records its transaction exclude each other: whichever commits first wins, the other sees it), and
 * find the transaction an execution was already sent with.
 */
import { executeHoldReferences, executeHoldSubject, executeHoldSubjectSql } from "../balances/executeHoldSubject.ts";
import { ServiceError } from "../errors/serviceError.ts";
import { decodeStored } from "../model/storedValue.ts";
import { Address, Bytes32 } from "../model/values.ts";
import type { HoldState } from "./appBalances.ts";
import type { StoreContext } from "./engine.ts";

/** A relayer transaction that names an execute hold: its key, and its hash (the mined attempt's, else the first one sent). */
export type ExecuteHoldTransaction = { chainId: number; address: Address; nonce: number; txHash: Bytes32 };

const TRANSACTION_COLUMNS = "t.chain_id, t.address, t.nonce, coalesce(t.mined_hash, t.attempts->0->>'hash') AS tx_hash";

function transactionOf(row: { chain_id: number; address: string; nonce: number; tx_hash: string }): ExecuteHoldTransaction {
  const at = `${row.chain_id}:${row.address}:${row.nonce}`;
  return { chainId: Number(row.chain_id), address: decodeStored(Address, row.address, "solver_transactions.address", at), nonce: Number(row.nonce), txHash: decodeStored(Bytes32, row.tx_hash, "solver_transactions.attempts", at) };
}

/** `execute` holds still `held`, taken more than `leaseMs` ago (the store's clock), that no relayer transaction names. */
export async function listUnrecordedExecuteHolds(ctx: StoreContext, leaseMs: number, limit: number): Promise<string[]> {
  const cutoff = new Date(ctx.now().getTime() - leaseMs);
  const { rows } = await ctx.db.query<{ id: string }>(
    `SELECT h.id FROM app_balance_holds h
     WHERE h.purpose = 'execute' AND h.state = 'held' AND h.created_at < $1
       AND NOT EXISTS (SELECT 1 FROM solver_transactions t WHERE t.purpose = 'execute' AND t.subject = ${executeHoldSubjectSql("h")})
     ORDER BY h.created_at LIMIT $2`,
    [cutoff, limit],
  );
  return rows.map((r) => r.id);
}

/**
 * Locks the hold (the app's balance row first, then the hold: the ledger's lock order) until the
 * surrounding transaction ends, and says its state and the relayer transactions that name it (any
 * state, oldest nonce first). Use inside `transaction`.
 */
export async function lockExecuteHold(ctx: StoreContext, holdId: string): Promise<{ state: HoldState; transactions: ExecuteHoldTransaction[] }> {
  const { rows: found } = await ctx.db.query<{ api_key_id: string }>("SELECT api_key_id FROM app_balance_holds WHERE id = $1 AND purpose = 'execute'", [holdId]);
  if (!found[0]) throw new ServiceError("APP_BALANCE_HOLD_NOT_FOUND", `no execute hold ${holdId}`);
  await ctx.db.query("SELECT 1 FROM app_balances WHERE api_key_id = $1 FOR UPDATE", [found[0].api_key_id]);
  const { rows } = await ctx.db.query<{ state: HoldState; reference: string }>("SELECT state, reference FROM app_balance_holds WHERE id = $1 FOR UPDATE", [holdId]);
  const { rows: txs } = await ctx.db.query<{ chain_id: number; address: string; nonce: number; tx_hash: string }>(
    `SELECT ${TRANSACTION_COLUMNS} FROM solver_transactions t WHERE t.purpose = 'execute' AND t.subject = $1 ORDER BY t.created_at, t.nonce`,
    [executeHoldSubject({ reference: rows[0]!.reference, holdId })],
  );
  return { state: rows[0]!.state, transactions: txs.map(transactionOf) };
}

/**
 * The relayer transaction an execution was sent with: the first one (any state) that names one of its
 * holds not released. A released hold paid for nothing — released with no transaction recorded, or
 * because its transaction's nonce went to another transaction — so its transaction, if any, never ran.
 */
export async function findExecuteTransaction(ctx: StoreContext, requestId: Bytes32): Promise<ExecuteHoldTransaction | null> {
  const { rows } = await ctx.db.query<{ chain_id: number; address: string; nonce: number; tx_hash: string }>(
    `SELECT ${TRANSACTION_COLUMNS} FROM app_balance_holds h
     JOIN solver_transactions t ON t.purpose = 'execute' AND t.subject = ${executeHoldSubjectSql("h")}
     WHERE h.purpose = 'execute' AND h.reference = ANY($1::text[]) AND h.state <> 'released'
     ORDER BY t.created_at, t.nonce LIMIT 1`,
    [executeHoldReferences(requestId)],
  );
  return rows[0] ? transactionOf(rows[0]) : null;
}

/**
 * Relayer transactions that ended (`mined`/`superseded`) while the hold they name is still `held`: the
 * follower marked the nonce, then the process died before it settled the hold. The follower ends them
 * again (following a mined nonce gives its receipt back; settling is idempotent).
 */
export async function listEndedExecuteHoldTransactions(ctx: StoreContext, limit: number): Promise<Array<{ chainId: number; address: string; nonce: number }>> {
  const { rows } = await ctx.db.query<{ chain_id: number; address: string; nonce: number }>(
    `SELECT t.chain_id, t.address, t.nonce FROM app_balance_holds h
     JOIN solver_transactions t ON t.purpose = 'execute' AND t.subject = ${executeHoldSubjectSql("h")}
     WHERE h.purpose = 'execute' AND h.state = 'held' AND t.state <> 'pending'
     ORDER BY h.created_at LIMIT $1`,
    [limit],
  );
  return rows.map((r) => ({ chainId: r.chain_id, address: r.address, nonce: r.nonce }));
}

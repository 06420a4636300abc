/**
 * The nonce manager's repository (migration 0012): the next nonce per (chain, sender) and every
 * transaction the solver sends with all its signed attempts. Allocation is `allocateNonces` (the next
 * nonces taken and the row locked, one statement) → sign → `insertSolverTransactions` (one multi-row
 * INSERT), all inside one `store.transaction` together with the callers' own records of the hashes: no
 * nonce is ever handed out twice across processes, and no nonce is handed out without its transaction
 * stored.
 */
import { Type } from "typebox";
import { SolverTransaction, TxAttempt, TxCall, type TxPurpose, type TxState } from "../../model/solverTransaction.ts";
import { decodeStored, encodeStored } from "../../model/storedValue.ts";
import { Address, type Bytes32 } from "../../model/values.ts";
import { isoColumn, type Row, type StoreContext } from "../engine.ts";

export type SolverTxKey = { chainId: number; address: Address; nonce: number };

export type NewSolverTransaction = SolverTxKey & { purpose: TxPurpose; subject: string; call: TxCall; attempt: TxAttempt };

const COLUMNS = `chain_id, address, nonce, purpose, subject, call, attempts, state, mined_hash, ${isoColumn("created_at")}, ${isoColumn("updated_at")}`;

function fromRow(row: Row): SolverTransaction {
  return decodeStored(
    SolverTransaction,
    {
      chainId: row.chain_id,
      address: row.address,
      nonce: row.nonce,
      purpose: row.purpose,
      subject: row.subject,
      call: row.call,
      attempts: row.attempts,
      state: row.state,
      minedHash: row.mined_hash,
      createdAt: row.created_at,
      updatedAt: row.updated_at,
    },
    "solver_transactions",
    `${String(row.chain_id)}:${String(row.address)}:${String(row.nonce)}`,
  );
}

/**
 * Makes sure the sender's next nonce is at least `chainNonce` (the chain's pending nonce: transactions
 * sent from the key by anything else are skipped over). Returns the next nonce.
 */
export async function syncNonce({ db }: StoreContext, chainId: number, address: Address, chainNonce: number): Promise<number> {
  const { rows } = await db.query<{ next_nonce: number }>(
    `INSERT INTO solver_nonces (chain_id, address, next_nonce) VALUES ($1, $2, $3)
     ON CONFLICT (chain_id, address) DO UPDATE SET next_nonce = GREATEST(solver_nonces.next_nonce, EXCLUDED.next_nonce)
     RETURNING next_nonce`,
    [chainId, address, chainNonce],
  );
  return Number(rows[0]!.next_nonce);
}

/**
 * Takes the sender's next `count` nonces: moves its next nonce on by `count` and returns the first one
 * taken, the row locked until the surrounding transaction ends (so an allocation that rolls back hands
 * nothing out). Null before the first `syncNonce`.
 */
export async function allocateNonces({ db }: StoreContext, chainId: number, address: Address, count: number): Promise<number | null> {
  const { rows } = await db.query<{ first: number }>(
    "UPDATE solver_nonces SET next_nonce = next_nonce + $3 WHERE chain_id = $1 AND address = $2 RETURNING next_nonce - $3 AS first",
    [chainId, address, count],
  );
  return rows.length === 0 ? null : Number(rows[0]!.first);
}

/** Stores transactions, each with its first attempt, in one statement (call inside the `allocateNonces` transaction that took their nonces). */
export async function insertSolverTransactions({ db, now }: StoreContext, ts: readonly NewSolverTransaction[]): Promise<SolverTransaction[]> {
  if (ts.length === 0) return [];
  const at = now().toISOString();
  const params: unknown[] = [at];
  const values = ts.map((t) => {
    const base = params.length;
    params.push(t.chainId, t.address, t.nonce, t.purpose, t.subject, JSON.stringify(encodeStored(TxCall, t.call)), JSON.stringify([encodeStored(TxAttempt, t.attempt)]));
    return `($${base + 1}, $${base + 2}, $${base + 3}, $${base + 4}, $${base + 5}, $${base + 6}::jsonb, $${base + 7}::jsonb, $1::timestamptz, $1::timestamptz)`;
  });
  const { rows } = await db.query(
    `INSERT INTO solver_transactions (chain_id, address, nonce, purpose, subject, call, attempts, created_at, updated_at)
     VALUES ${values.join(", ")} RETURNING ${COLUMNS}`,
    params,
  );
  return rows.map(fromRow);
}

export async function getSolverTransaction({ db }: StoreContext, key: SolverTxKey): Promise<SolverTransaction | null> {
  const { rows } = await db.query(`SELECT ${COLUMNS} FROM solver_transactions WHERE chain_id = $1 AND address = $2 AND nonce = $3`, [
    key.chainId,
    key.address,
    key.nonce,
  ]);
  return rows.length === 0 ? null : fromRow(rows[0]!);
}

/** Adds a signed attempt (a replacement) to a pending transaction; null when it is no longer pending. */
export async function appendSolverTxAttempt({ db, now }: StoreContext, key: SolverTxKey, attempt: TxAttempt): Promise<SolverTransaction | null> {
  const { rows } = await db.query(
    `UPDATE solver_transactions SET attempts = attempts || $4::jsonb, updated_at = $5::timestamptz
     WHERE chain_id = $1 AND address = $2 AND nonce = $3 AND state = 'pending' RETURNING ${COLUMNS}`,
    [key.chainId, key.address, key.nonce, JSON.stringify([encodeStored(TxAttempt, attempt)]), now().toISOString()],
  );
  return rows.length === 0 ? null : fromRow(rows[0]!);
}

/**
 * Records how the nonce ended: `mined` (with the attempt that landed) or `superseded` — or `pending`
 * again (minedHash null) when a reorg took the mined attempt's block away and the nonce is followed anew.
 * Returns the record as settled (null when there is none): a follow that found its receipt without
 * reading the record first gets it here.
 */
export async function settleSolverTransaction({ db, now }: StoreContext, key: SolverTxKey, state: TxState, minedHash: Bytes32 | null): Promise<SolverTransaction | null> {
  const { rows } = await db.query(
    `UPDATE solver_transactions SET state = $4, mined_hash = $5, updated_at = $6::timestamptz WHERE chain_id = $1 AND address = $2 AND nonce = $3 RETURNING ${COLUMNS}`,
    [key.chainId, key.address, key.nonce, state, minedHash, now().toISOString()],
  );
  return rows.length === 0 ? null : fromRow(rows[0]!);
}

/** The latest pending transaction for (purpose, subject) on a chain, e.g. an approval still in flight. */
export async function findPendingSolverTransaction({ db }: StoreContext, chainId: number, purpose: TxPurpose, subject: string): Promise<SolverTransaction | null> {
  const { rows } = await db.query(
    `SELECT ${COLUMNS} FROM solver_transactions WHERE chain_id = $1 AND purpose = $2 AND subject = $3 AND state = 'pending' ORDER BY nonce DESC LIMIT 1`,
    [chainId, purpose, subject],
  );
  return rows.length === 0 ? null : fromRow(rows[0]!);
}

/**
 * Pending transactions of one purpose, oldest first: those no request step follows (a permit deposit
 * sent for the API) are followed by the solver loop from this list.
 */
export async function listPendingSolverTransactions({ db }: StoreContext, purpose: TxPurpose, limit: number): Promise<SolverTransaction[]> {
  const { rows } = await db.query(`SELECT ${COLUMNS} FROM solver_transactions WHERE state = 'pending' AND purpose = $1 ORDER BY created_at, nonce LIMIT $2`, [purpose, limit]);
  return rows.map(fromRow);
}

const Count = Type.Integer({ minimum: 0 });
const StatsRow = Type.Object({ chain_id: Type.Integer(), address: Address, pending: Count, replacements: Count, superseded: Count });

/** Per (chain, sender): pending transactions and how many attempts they took (metrics). */
export async function solverTransactionStats({ db }: StoreContext): Promise<Array<{ chainId: number; address: Address; pending: number; replacements: number; superseded: number }>> {
  const { rows } = await db.query(
    `SELECT chain_id, address,
       count(*) FILTER (WHERE state = 'pending')::int AS pending,
       coalesce(sum(jsonb_array_length(attempts) - 1), 0)::int AS replacements,
       count(*) FILTER (WHERE state = 'superseded')::int AS superseded
     FROM solver_transactions GROUP BY chain_id, address`,
  );
  return rows.map((row) => {
    const r = decodeStored(StatsRow, row, "solver_transactions", `${String(row.chain_id)}:${String(row.address)}`);
    return { chainId: r.chain_id, address: r.address, pending: r.pending, replacements: r.replacements, superseded: r.superseded };
  });
}

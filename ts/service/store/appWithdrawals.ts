/**
 * App withdrawals (migration 0014): POST /app-balance/withdrawals records one with its "withdrawal"
 * hold (./appBalances.ts) in one transaction; the solver (../solver/payout/appWithdrawal.ts) plans the
 * allocator-signed Depository payout to the key's funding address, sends it under the row's lease,
 * and ends it: `paid` with the hold settled, or `failed` with the hold released — each in one
 * transaction with the hold, so the ledger and the withdrawal never disagree.
 */
import { Type } from "typebox";
import { Payout } from "../model/payout.ts";
import { decodeStored, encodeStored } from "../model/storedValue.ts";
import { Address, Bytes32, type Address as AddressValue } from "../model/values.ts";
import { isoColumn, type StoreContext } from "./engine.ts";

export type AppWithdrawalState = "pending" | "paid" | "failed";

export type AppWithdrawal = {
  id: string;
  apiKeyId: string;
  chainId: number;
  currency: AddressValue;
  amountUsd: bigint;
  amount: bigint;
  recipient: AddressValue;
  holdId: string;
  state: AppWithdrawalState;
  payout: Payout | null;
  failReason: string | null;
  createdAt: string;
  updatedAt: string;
};

export type NewAppWithdrawal = Pick<AppWithdrawal, "id" | "apiKeyId" | "chainId" | "currency" | "amountUsd" | "amount" | "recipient" | "holdId">;

const Row = Type.Object({
  id: Type.String(),
  api_key_id: Type.String(),
  chain_id: Type.Integer(),
  currency: Address,
  amount_usd: Type.String(),
  amount: Type.String(),
  recipient: Address,
  hold_id: Type.String(),
  state: Type.Union([Type.Literal("pending"), Type.Literal("paid"), Type.Literal("failed")]),
  payout: Type.Union([Payout, Type.Null()]),
  tx_hash: Type.Union([Bytes32, Type.Null()]),
  fail_reason: Type.Union([Type.String(), Type.Null()]),
  created_at: Type.String(),
  updated_at: Type.String(),
});

const COLUMNS = `id, api_key_id, chain_id, currency, amount_usd::text AS amount_usd, amount::text AS amount, recipient, hold_id, state, payout, tx_hash, fail_reason, ${isoColumn("created_at")}, ${isoColumn("updated_at")}`;

function fromRow(row: Record<string, unknown>): AppWithdrawal {
  const r = decodeStored(Row, { ...row, chain_id: Number(row.chain_id) }, "app_withdrawals", String(row.id));
  return {
    id: r.id,
    apiKeyId: r.api_key_id,
    chainId: r.chain_id,
    currency: r.currency,
    amountUsd: BigInt(r.amount_usd),
    amount: BigInt(r.amount),
    recipient: r.recipient,
    holdId: r.hold_id,
    state: r.state,
    payout: r.payout,
    failReason: r.fail_reason,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
  };
}

export async function createAppWithdrawal({ db, now }: StoreContext, w: NewAppWithdrawal): Promise<AppWithdrawal> {
  const at = now();
  const { rows } = await db.query(
    `INSERT INTO app_withdrawals (id, api_key_id, chain_id, currency, amount_usd, amount, recipient, hold_id, state, created_at, updated_at)
     VALUES ($1, $2, $3, $4, $5::numeric, $6::numeric, $7, $8, 'pending', $9, $9) RETURNING ${COLUMNS}`,
    [w.id, w.apiKeyId, w.chainId, w.currency, w.amountUsd.toString(), w.amount.toString(), w.recipient, w.holdId, at],
  );
  return fromRow(rows[0]!);
}

export async function getAppWithdrawal({ db }: StoreContext, id: string): Promise<AppWithdrawal | null> {
  const { rows } = await db.query(`SELECT ${COLUMNS} FROM app_withdrawals WHERE id = $1`, [id]);
  return rows[0] ? fromRow(rows[0]) : null;
}

/** The withdrawals the solver still has to pay, oldest first. */
export async function listPendingAppWithdrawals({ db }: StoreContext, limit = 50): Promise<AppWithdrawal[]> {
  const { rows } = await db.query(`SELECT ${COLUMNS} FROM app_withdrawals WHERE state = 'pending' ORDER BY updated_at, id LIMIT $1`, [limit]);
  return rows.map(fromRow);
}

/** Writes the payout (and the end state with its tx hash or fail reason). */
export async function patchAppWithdrawal(
  { db, now }: StoreContext,
  id: string,
  patch: { payout: Payout; state?: Exclude<AppWithdrawalState, "pending">; failReason?: string },
): Promise<AppWithdrawal> {
  const { rows } = await db.query(
    `UPDATE app_withdrawals SET payout = $2::jsonb, state = COALESCE($3, state), tx_hash = $4, fail_reason = COALESCE($5, fail_reason), updated_at = $6 WHERE id = $1 RETURNING ${COLUMNS}`,
    [id, JSON.stringify(encodeStored(Payout, patch.payout)), patch.state ?? null, patch.payout.hash ?? null, patch.failReason ?? null, now()],
  );
  return fromRow(rows[0]!);
}

/** Takes (or renews) the withdrawal's lease for `owner`: false while another owner's lease runs. */
export async function claimAppWithdrawal({ db, now }: StoreContext, id: string, owner: string, ttlMs: number): Promise<boolean> {
  const at = now();
  const { rowCount } = await db.query(
    `UPDATE app_withdrawals SET lease_owner = $2, lease_expires_at = $3 WHERE id = $1 AND state = 'pending' AND (lease_owner IS NULL OR lease_owner = $2 OR lease_expires_at <= $4)`,
    [id, owner, new Date(at.getTime() + ttlMs), at],
  );
  return rowCount > 0;
}

export async function releaseAppWithdrawal({ db }: StoreContext, id: string, owner: string): Promise<void> {
  await db.query("UPDATE app_withdrawals SET lease_owner = NULL, lease_expires_at = NULL WHERE id = $1 AND lease_owner = $2", [id, owner]);
}

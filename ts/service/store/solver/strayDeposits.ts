/**
 * Stray deposits (migration 0005): deposits no request accounts for, which the solver returns to their
 * depositor. Recording is idempotent on the log's key (chain, transaction, log index); the solver lists
 * the pending ones, leases one at a time (claim columns on the row: `solver_claims` references
 * requests) and patches it as its refund payout advances. Every call joins the caller's transaction.
 * `stray_tracking` holds, per Depository, the first block whose strays are tracked (migration 0005).
 */
import { Type } from "typebox";
import { Payout } from "../../model/payout.ts";
import { decodeStored, encodeStored } from "../../model/storedValue.ts";
import { Address, BlockNumber, Bytes32, ChainId, LogIndex, Uint256 } from "../../model/values.ts";
import { isoColumn, type Row, type StoreContext } from "../engine.ts";
import { StrayDepositNotFoundError } from "../errors.ts";

/**
 * Why a deposit is stray: a second deposit for a credited order (DOUBLE_SPEND), an orderId never
 * quoted (UNKNOWN_ORDER), or a deposit under a quoted orderId that does not match the quote
 * (migration 0007: the mismatch, as ../../solver/indexer/depositMatch.ts names it; INCORRECT_PAYMENT, a
 * reclaimable deposit that reclaims earlier than its quote: migration 0022).
 */
export const STRAY_DEPOSIT_REASONS = ["DOUBLE_SPEND", "UNKNOWN_ORDER", "DEPOSIT_CHAIN_MISMATCH", "INCORRECT_DEPOSIT_CURRENCY", "DEPOSITED_AMOUNT_TOO_LOW_TO_FILL", "INCORRECT_PAYMENT"] as const;
export type StrayDepositReason = (typeof STRAY_DEPOSIT_REASONS)[number];
export type StrayDepositState = "pending" | "refunded" | "ignored";

/** A deposit's identity: its log. */
export type StrayDepositKey = { chainId: number; txHash: Bytes32; logIndex: number };

export type NewStrayDeposit = {
  chainId: number;
  txHash: Bytes32;
  logIndex: number;
  depository: Address;
  block: number;
  orderId: Bytes32;
  depositor: Address;
  /** Zero address = native. */
  token: Address;
  amount: bigint;
  reason: StrayDepositReason;
  /** DOUBLE_SPEND: the request holding the credited deposit; a mismatch: the quoted request it did not match. */
  requestId?: Bytes32 | null;
  /** Recorded `ignored` for this reason instead of `pending` (never refunded by the service), e.g. RECLAIMABLE. */
  ignoredReason?: string;
};

export type StoredStrayDeposit = Required<Omit<NewStrayDeposit, "ignoredReason">> & {
  state: StrayDepositState;
  ignoredReason: string | null;
  /** The refund payout, stored before it is signed. */
  refund: Payout | null;
  createdAt: string;
  updatedAt: string;
};

/** What the solver may change: the refund record, and the state (with the reason when `ignored`). */
export type StrayDepositPatch = { refund?: Payout; state?: StrayDepositState; ignoredReason?: string };

const COLUMNS = `chain_id, tx_hash, log_index, depository, block, order_id, depositor, token, amount::text AS amount, reason,
  request_id, state, ignored_reason, refund, ${isoColumn("created_at")}, ${isoColumn("updated_at")}`;

const StrayRow = Type.Object({
  chain_id: ChainId,
  tx_hash: Bytes32,
  log_index: LogIndex,
  depository: Address,
  block: BlockNumber,
  order_id: Bytes32,
  depositor: Address,
  token: Address,
  amount: Uint256,
  reason: Type.Union(STRAY_DEPOSIT_REASONS.map((reason) => Type.Literal(reason))),
  request_id: Type.Union([Bytes32, Type.Null()]),
  state: Type.Union([Type.Literal("pending"), Type.Literal("refunded"), Type.Literal("ignored")]),
  ignored_reason: Type.Union([Type.String(), Type.Null()]),
  refund: Type.Union([Payout, Type.Null()]),
  created_at: Type.String(),
  updated_at: Type.String(),
});

function fromRow(row: Row): StoredStrayDeposit {
  const r = decodeStored(StrayRow, { ...row, chain_id: Number(row.chain_id), log_index: Number(row.log_index), block: Number(row.block) }, "stray_deposits", `${row.chain_id}:${row.tx_hash}:${row.log_index}`);
  return {
    chainId: r.chain_id,
    txHash: r.tx_hash,
    logIndex: r.log_index,
    depository: r.depository,
    block: r.block,
    orderId: r.order_id,
    depositor: r.depositor,
    token: r.token,
    amount: r.amount,
    reason: r.reason,
    requestId: r.request_id,
    state: r.state,
    ignoredReason: r.ignored_reason,
    refund: r.refund,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
  };
}

const KEY_WHERE = "chain_id = $1 AND tx_hash = $2 AND log_index = $3";
const keyParams = (key: StrayDepositKey) => [key.chainId, key.txHash, key.logIndex];

/** Records a stray deposit once. Returns true when this call recorded it, false when it already was. */
export async function recordStrayDeposit({ db, now }: StoreContext, stray: NewStrayDeposit): Promise<boolean> {
  const at = now().toISOString();
  const { rows } = await db.query(
    `INSERT INTO stray_deposits (chain_id, tx_hash, log_index, depository, block, order_id, depositor, token, amount, reason, request_id, created_at, updated_at, state, ignored_reason)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9::numeric, $10, $11, $12::timestamptz, $12::timestamptz, $13, $14)
     ON CONFLICT (chain_id, tx_hash, log_index) DO NOTHING RETURNING chain_id`,
    [
      ...keyParams(stray),
      stray.depository,
      stray.block,
      stray.orderId,
      stray.depositor,
      stray.token,
      stray.amount.toString(),
      stray.reason,
      stray.requestId ?? null,
      at,
      stray.ignoredReason === undefined ? "pending" : "ignored",
      stray.ignoredReason ?? null,
    ],
  );
  return rows.length === 1;
}

export async function getStrayDeposit({ db }: StoreContext, key: StrayDepositKey): Promise<StoredStrayDeposit | null> {
  const { rows } = await db.query(`SELECT ${COLUMNS} FROM stray_deposits WHERE ${KEY_WHERE}`, keyParams(key));
  return rows.length === 0 ? null : fromRow(rows[0]!);
}

/**
 * The strays the solver still has to act on, least recently touched first: `pending`, except those
 * whose refund payout reverted (`refund.status` = `reverted`), which need an operator.
 */
export async function listPendingStrayDeposits({ db }: StoreContext, limit = 50): Promise<StoredStrayDeposit[]> {
  const { rows } = await db.query(
    `SELECT ${COLUMNS} FROM stray_deposits
     WHERE state = 'pending' AND coalesce(refund->>'status', '') <> 'reverted'
     ORDER BY updated_at, chain_id, tx_hash, log_index LIMIT $1`,
    [limit],
  );
  return rows.map(fromRow);
}

/** All strays of an orderId (operators, tests), oldest first. */
export async function listStrayDepositsByOrderId({ db }: StoreContext, orderId: Bytes32): Promise<StoredStrayDeposit[]> {
  const { rows } = await db.query(`SELECT ${COLUMNS} FROM stray_deposits WHERE order_id = $1 ORDER BY block, log_index`, [orderId]);
  return rows.map(fromRow);
}

/**
 * The strays that belong to any of `requestIds` (a DOUBLE_SPEND of their credited deposit, or a deposit
 * under their orderId that did not match the quote), in one query: a page's child records
 * (GET /requests/v2?includeChildRequests=true). Keyed by request id; oldest first.
 */
export async function listStrayDepositsByRequestIds({ db }: StoreContext, requestIds: readonly Bytes32[]): Promise<Map<Bytes32, StoredStrayDeposit[]>> {
  const byRequest = new Map<Bytes32, StoredStrayDeposit[]>();
  if (requestIds.length === 0) return byRequest;
  const { rows } = await db.query(`SELECT ${COLUMNS} FROM stray_deposits WHERE request_id = ANY($1::text[]) ORDER BY block, log_index`, [[...requestIds]]);
  for (const stray of rows.map(fromRow)) {
    const requestId = stray.requestId!;
    byRequest.set(requestId, [...(byRequest.get(requestId) ?? []), stray]);
  }
  return byRequest;
}

/** Merges `patch` into the stray (one statement). Throws STRAY_DEPOSIT_NOT_FOUND. */
export async function patchStrayDeposit({ db, now }: StoreContext, key: StrayDepositKey, patch: StrayDepositPatch): Promise<StoredStrayDeposit> {
  const { rows } = await db.query(
    `UPDATE stray_deposits SET refund = coalesce($4::jsonb, refund), state = coalesce($5, state),
       ignored_reason = coalesce($6, ignored_reason), updated_at = $7::timestamptz
     WHERE ${KEY_WHERE} RETURNING ${COLUMNS}`,
    [...keyParams(key), patch.refund ? JSON.stringify(encodeStored(Payout, patch.refund)) : null, patch.state ?? null, patch.ignoredReason ?? null, now().toISOString()],
  );
  if (rows.length === 0) throw new StrayDepositNotFoundError(`${key.chainId}:${key.txHash}:${key.logIndex}`);
  return fromRow(rows[0]!);
}

/**
 * Takes (or renews) the lease on a stray for `owner` until `now + ttlMs`; false while another owner's
 * lease runs. Atomic on both engines: the UPDATE's WHERE is re-checked on the locked row.
 */
export async function claimStrayDeposit({ db, now }: StoreContext, key: StrayDepositKey, owner: string, ttlMs: number): Promise<boolean> {
  const at = now();
  const { rows } = await db.query(
    `UPDATE stray_deposits SET claim_owner = $4, claim_expires_at = $5::timestamptz
     WHERE ${KEY_WHERE} AND (claim_owner IS NULL OR claim_owner = $4 OR claim_expires_at < $6::timestamptz)
     RETURNING chain_id`,
    [...keyParams(key), owner, new Date(at.getTime() + ttlMs).toISOString(), at.toISOString()],
  );
  return rows.length === 1;
}

/** Gives the lease back (only `owner`'s own). */
export async function releaseStrayDeposit({ db }: StoreContext, key: StrayDepositKey, owner: string): Promise<void> {
  await db.query(`UPDATE stray_deposits SET claim_owner = NULL, claim_expires_at = NULL WHERE ${KEY_WHERE} AND claim_owner = $4`, [...keyParams(key), owner]);
}

/** The first block of `contract` on `chainId` whose stray deposits are recorded, or null before the indexer first ran there. */
export async function getStrayTrackingStart({ db }: StoreContext, chainId: number, contract: Address): Promise<number | null> {
  const { rows } = await db.query<{ from_block: number }>("SELECT from_block FROM stray_tracking WHERE chain_id = $1 AND contract = $2", [chainId, contract]);
  return rows.length === 0 ? null : Number(rows[0].from_block);
}

/** Starts tracking strays of `contract` on `chainId` from `fromBlock`, unless already started (never moved). Returns the start in force. */
export async function startStrayTracking({ db }: StoreContext, chainId: number, contract: Address, fromBlock: number): Promise<number> {
  const { rows } = await db.query<{ from_block: number }>(
    `INSERT INTO stray_tracking (chain_id, contract, from_block) VALUES ($1, $2, $3)
     ON CONFLICT (chain_id, contract) DO UPDATE SET from_block = stray_tracking.from_block RETURNING from_block`,
    [chainId, contract, fromBlock],
  );
  return Number(rows[0].from_block);
}

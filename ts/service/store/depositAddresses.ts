/**
 * Deposit addresses (`deposit_addresses`, migration 0017): one row per address a quote handed out,
 * keyed by (chain, address). Written with the quote (the same store transaction: a quote and its
 * address exist together or not at all); read by the solver's deposit-address watcher
 * (../solver/depositAddress/), which moves a row from `watching` to `forwarding` in the store
 * transaction of the forwarding transaction's nonce (`markForwarding`: a compare-and-set on
 * `watching`, so two replicas or a restart never forward one payment twice; with the refunds of what
 * the address held besides the bound payment: an excess, another currency) — or, for a mis-routed
 * payment (migration 0018), from `watching` to `refunding` with its planned refunds (the same
 * compare-and-set: a row is forwarded or refunded, never both), each refund `planned` → `sent` in its
 * nonce's store transaction, and the row `refunding` → `refunded` once every refund is executed.
 *
 * Every other chain where the same factory sits holds the same address (migration 0021): the solver
 * copies each address it handed out to those chains as a row in state `elsewhere` (`mirrorDepositAddresses`:
 * the origin row's binding, its mode, route and expiry), and a payment found there is refunded from that
 * chain's row like any mis-route (`recordElsewhereCheck` appends its refunds, a compare-and-set on their
 * number, with the scan cursor and the next read). An `elsewhere` row never forwards; the origin row of a
 * strict quote whose only payment came on another chain is closed `watching` → `refunded`
 * (`markDepositAddressRefundedElsewhere`) when that refund decides the quote.
 */
import { Type, type StaticDecode } from "typebox";
import { DepositAddressPayment } from "../model/depositAddressPayment.ts";
import { DepositAddressRefund } from "../model/depositAddressRefund.ts";
import { OpenDepositAddressRoute } from "../model/openDepositAddressRoute.ts";
import { decodeStored, encodeStored } from "../model/storedValue.ts";
import { Address, Bytes32, ChainId, Uint256, type Address as AddressValue } from "../model/values.ts";
import { isoColumn, type Queryable, type StoreContext } from "./engine.ts";

export const DepositAddressState = Type.Union([
  Type.Literal("watching"),
  Type.Literal("forwarding"),
  Type.Literal("refunding"),
  Type.Literal("refunded"),
  Type.Literal("open"),
  Type.Literal("elsewhere"),
]);

const DepositAddressRow = Type.Object({
  chain_id: ChainId,
  address: Address,
  mode: Type.Union([Type.Literal("strict"), Type.Literal("open")]),
  factory: Address,
  refund_to: Address,
  request_id: Bytes32,
  order_id: Bytes32,
  currency: Address,
  amount: Uint256,
  expires_at: Type.String(),
  state: DepositAddressState,
  instruction_id: Type.Union([Bytes32, Type.Null()]),
  payment: Type.Union([DepositAddressPayment, Type.Null()]),
  refunds: Type.Union([Type.Array(DepositAddressRefund), Type.Null()]),
  next_check_at: Type.Union([Type.String(), Type.Null()]),
  route: Type.Union([OpenDepositAddressRoute, Type.Null()]),
  scanned_block: Type.Union([Type.String(), Type.Null()]),
  created_at: Type.String(),
  updated_at: Type.String(),
});

/**
 * A stored deposit address: strict (bound to one quote's order, currency and amount); or, on a chain other
 * than its quote's (`elsewhere`), the copy of a strict or open one.
 */
export type StoredDepositAddress = {
  chainId: number;
  address: AddressValue;
  mode: "strict" | "open";
  factory: AddressValue;
  refundTo: AddressValue;
  requestId: StaticDecode<typeof Bytes32>;
  orderId: StaticDecode<typeof Bytes32>;
  currency: AddressValue;
  amount: bigint;
  /** ISO 8601: the quote's expiry (a payment must be final by then to be forwarded). */
  expiresAt: string;
  state: StaticDecode<typeof DepositAddressState>;
  /** The forwarding instruction's id, once forwarded. */
  instructionId: StaticDecode<typeof Bytes32> | null;
  /** The payment forwarded, once forwarded. */
  payment: DepositAddressPayment | null;
  /** A mis-routed payment's refunds, once planned (`refunding`, `refunded`). */
  refunds: DepositAddressRefund[] | null;
  /** ISO 8601: when the solver must read the address next (migration 0020); null: on every pass. */
  nextCheckAt: string | null;
  /** An open address's route (what its factory parameters are derived from); null for a strict one. */
  route: OpenDepositAddressRoute | null;
  /** An `elsewhere` row: the last final block of its chain whose ERC-20 Transfer logs were read (null: never). */
  scannedBlock: number | null;
  createdAt: string;
  updatedAt: string;
};

export type NewDepositAddress = Pick<StoredDepositAddress, "chainId" | "address" | "factory" | "refundTo" | "requestId" | "orderId" | "currency" | "amount"> & { mode: "strict"; expiresAt: Date };

const COLUMNS = `chain_id, address, mode, factory, refund_to, request_id, order_id, currency, amount::text AS amount, ${isoColumn("expires_at")}, state, instruction_id, payment, refunds, ${isoColumn("next_check_at")}, route, scanned_block::text AS scanned_block, ${isoColumn("created_at")}, ${isoColumn("updated_at")}`;

function fromRow(row: unknown): StoredDepositAddress {
  const r = decodeStored(DepositAddressRow, row, "deposit_addresses", String((row as { address?: unknown }).address));
  return {
    chainId: r.chain_id,
    address: r.address,
    mode: r.mode,
    factory: r.factory,
    refundTo: r.refund_to,
    requestId: r.request_id,
    orderId: r.order_id,
    currency: r.currency,
    amount: r.amount,
    expiresAt: r.expires_at,
    state: r.state,
    instructionId: r.instruction_id,
    payment: r.payment,
    refunds: r.refunds,
    nextCheckAt: r.next_check_at,
    route: r.route,
    scannedBlock: r.scanned_block === null ? null : Number(r.scanned_block),
    createdAt: r.created_at,
    updatedAt: r.updated_at,
  };
}

/** Stores an address handed out by a quote (a strict address is new by construction: its salt holds the fresh orderId). */
export async function saveDepositAddress(ctx: StoreContext, row: NewDepositAddress): Promise<void> {
  const now = ctx.now().toISOString();
  await ctx.db.query(
    `INSERT INTO deposit_addresses (chain_id, address, mode, factory, refund_to, request_id, order_id, currency, amount, expires_at, created_at, updated_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9::numeric, $10::timestamptz, $11::timestamptz, $11::timestamptz)`,
    [row.chainId, row.address, row.mode, row.factory, row.refundTo, row.requestId, row.orderId, row.currency, row.amount.toString(), row.expiresAt.toISOString(), now],
  );
}

export async function getDepositAddress(ctx: StoreContext, chainId: number, address: AddressValue): Promise<StoredDepositAddress | undefined> {
  const { rows } = await ctx.db.query(`SELECT ${COLUMNS} FROM deposit_addresses WHERE chain_id = $1 AND address = $2`, [chainId, address]);
  return rows[0] === undefined ? undefined : fromRow(rows[0]);
}

/**
 * The addresses of `chainId` still waiting for their payment, oldest first; with `now`, only those due
 * for a read at `now` (`next_check_at` unset or reached: ../solver/depositAddress/checkCadence.ts).
 */
export async function listWatchingDepositAddresses(ctx: StoreContext, chainId: number, limit: number, now?: Date): Promise<StoredDepositAddress[]> {
  const { rows } = await ctx.db.query(
    `SELECT ${COLUMNS} FROM deposit_addresses WHERE chain_id = $1 AND state = 'watching' AND ($3::timestamptz IS NULL OR next_check_at IS NULL OR next_check_at <= $3::timestamptz)
     ORDER BY created_at, address LIMIT $2`,
    [chainId, limit, now?.toISOString() ?? null],
  );
  return rows.map(fromRow);
}

/** When the solver must read the address next (null: on every pass). */
export async function setDepositAddressNextCheck(ctx: StoreContext, key: { chainId: number; address: AddressValue }, at: Date | null): Promise<void> {
  await ctx.db.query(`UPDATE deposit_addresses SET next_check_at = $3::timestamptz WHERE chain_id = $1 AND address = $2`, [key.chainId, key.address, at?.toISOString() ?? null]);
}

/**
 * The addresses of `chainId` past their one decision (`forwarding`, `refunded`) with no refund under
 * way (nor a reverted one, left for an operator) and due for a read at `now`, oldest check first: read for payments that arrived later
 * (../solver/depositAddress/laterPayments.ts).
 */
export function listSettledDepositAddresses(ctx: StoreContext, chainId: number, now: Date, limit: number): Promise<StoredDepositAddress[]> {
  return listDueDepositAddresses(ctx, chainId, ["forwarding", "refunded"], now, limit);
}

/** The rows of `chainId` in one of `states`, due for a read at `now`, with no refund under way nor a reverted one; oldest check first. */
async function listDueDepositAddresses(ctx: StoreContext, chainId: number, states: readonly string[], now: Date, limit: number): Promise<StoredDepositAddress[]> {
  const { rows } = await ctx.db.query(
    `SELECT ${COLUMNS} FROM deposit_addresses WHERE chain_id = $1 AND state = ANY($4::text[])
       AND (next_check_at IS NULL OR next_check_at <= $2::timestamptz)
       AND NOT EXISTS (SELECT 1 FROM jsonb_array_elements(coalesce(refunds, '[]'::jsonb)) e WHERE e->>'state' IN ('planned', 'sent', 'reverted'))
     ORDER BY next_check_at NULLS FIRST, created_at, address LIMIT $3`,
    [chainId, now.toISOString(), limit, states],
  );
  return rows.map(fromRow);
}

/**
 * Appends the refunds of payments that arrived after the row's decision (`forwarding` or `refunded`),
 * only while the row still has exactly `known` refunds: false when another replica (or this one before
 * a restart) appended first. A compare-and-set on the list's length, so a later payment is planned once.
 */
export async function addDepositAddressLaterRefunds(
  ctx: StoreContext,
  key: { chainId: number; address: AddressValue },
  known: number,
  refunds: readonly DepositAddressRefund[],
): Promise<boolean> {
  const { rows } = await ctx.db.query(
    `UPDATE deposit_addresses SET refunds = coalesce(refunds, '[]'::jsonb) || $4::jsonb, updated_at = $5::timestamptz
     WHERE chain_id = $1 AND address = $2 AND state IN ('forwarding', 'refunded') AND jsonb_array_length(coalesce(refunds, '[]'::jsonb)) = $3 RETURNING address`,
    [key.chainId, key.address, known, encodedRefunds(refunds), ctx.now().toISOString()],
  );
  return rows.length === 1;
}

/**
 * `watching` → `forwarding` with the instruction id and the payment, only from `watching`: false when
 * the row had already left it (another replica, or this one before a restart, forwarded it).
 */
export async function markDepositAddressForwarding(
  ctx: StoreContext,
  key: { chainId: number; address: AddressValue },
  forward: { instructionId: StaticDecode<typeof Bytes32>; payment: DepositAddressPayment; refunds?: readonly DepositAddressRefund[] },
): Promise<boolean> {
  const { rows } = await ctx.db.query(
    `UPDATE deposit_addresses SET state = 'forwarding', instruction_id = $3, payment = $4::jsonb, refunds = $6::jsonb, updated_at = $5::timestamptz
     WHERE chain_id = $1 AND address = $2 AND state = 'watching' RETURNING address`,
    [
      key.chainId,
      key.address,
      forward.instructionId,
      JSON.stringify(encodeStored(DepositAddressPayment, forward.payment)),
      ctx.now().toISOString(),
      forward.refunds && forward.refunds.length > 0 ? encodedRefunds(forward.refunds) : null,
    ],
  );
  return rows.length === 1;
}

/**
 * The addresses of `chainId` with refunds to send or to confirm, oldest first: `refunding` ones,
 * `forwarding` ones whose forwarding left an excess or another currency to refund, and `forwarding` or
 * `refunded` ones with a later payment to refund — but not an address whose only refunds left are
 * `reverted` ones (../solver/depositAddress/revertedRefund.ts: left for an operator).
 */
export async function listDepositAddressRefundWork(ctx: StoreContext, chainId: number, limit: number): Promise<StoredDepositAddress[]> {
  const { rows } = await ctx.db.query(
    `SELECT ${COLUMNS} FROM deposit_addresses WHERE chain_id = $1 AND (state = 'refunding'
       OR (state IN ('forwarding', 'refunded', 'elsewhere') AND EXISTS (SELECT 1 FROM jsonb_array_elements(coalesce(refunds, '[]'::jsonb)) e WHERE e->>'state' IN ('planned', 'sent'))))
       AND NOT (EXISTS (SELECT 1 FROM jsonb_array_elements(coalesce(refunds, '[]'::jsonb)) e WHERE e->>'state' = 'reverted')
            AND NOT EXISTS (SELECT 1 FROM jsonb_array_elements(coalesce(refunds, '[]'::jsonb)) e WHERE e->>'state' IN ('planned', 'sent')))
     ORDER BY created_at, address LIMIT $2`,
    [chainId, limit],
  );
  return rows.map(fromRow);
}

const encodedRefunds = (refunds: readonly DepositAddressRefund[]): string => JSON.stringify(refunds.map((r) => encodeStored(DepositAddressRefund, r)));

/**
 * `watching` → `refunding` with the planned refunds, only from `watching`: false when the row had
 * already left it (forwarded, or planned by another replica). The one decision between forwarding and
 * refunding an address: whichever compare-and-set wins, the other never happens.
 */
export async function markDepositAddressRefunding(ctx: StoreContext, key: { chainId: number; address: AddressValue }, refunds: readonly DepositAddressRefund[]): Promise<boolean> {
  const { rows } = await ctx.db.query(
    `UPDATE deposit_addresses SET state = 'refunding', refunds = $3::jsonb, updated_at = $4::timestamptz
     WHERE chain_id = $1 AND address = $2 AND state = 'watching' RETURNING address`,
    [key.chainId, key.address, encodedRefunds(refunds), ctx.now().toISOString()],
  );
  return rows.length === 1;
}

/**
 * Moves one refund (by instruction id) of a `refunding` (or `forwarding`, `refunded`) row from `from` to `to` with its transaction:
 * false when the row is not `refunding` or that refund is not in `from` (sent already: a replica or a
 * restart got there first). Run in the nonce's store transaction for `planned` → `sent`.
 */
export async function advanceDepositAddressRefund(
  ctx: StoreContext,
  key: { chainId: number; address: AddressValue },
  instructionId: StaticDecode<typeof Bytes32>,
  from: "planned" | "sent",
  to: { state: "sent" | "confirmed" | "reverted"; txHash: StaticDecode<typeof Bytes32>; txNonce?: number; failReason?: string; revertError?: string | null },
): Promise<boolean> {
  const { rows } = await ctx.db.query(`SELECT ${COLUMNS} FROM deposit_addresses WHERE chain_id = $1 AND address = $2 FOR UPDATE`, [key.chainId, key.address]);
  if (rows[0] === undefined) return false;
  const row = fromRow(rows[0]);
  const refund = row.refunds?.find((r) => r.instructionId === instructionId);
  if (row.state === "watching" || !refund || refund.state !== from) return false;
  const next = row.refunds!.map((r) => (r === refund ? { ...r, ...to } : r));
  await ctx.db.query(`UPDATE deposit_addresses SET refunds = $3::jsonb, updated_at = $4::timestamptz WHERE chain_id = $1 AND address = $2`, [
    key.chainId,
    key.address,
    encodedRefunds(next),
    ctx.now().toISOString(),
  ]);
  return true;
}

/**
 * Copies the addresses handed out on other chains from `factory` to `chainId` (where the same factory
 * sits) as `elsewhere` rows, oldest first, at most `limit` per call: each once (an address that already
 * has a row on `chainId` — its own, or a copy — is left alone). Returns how many were copied.
 */
export async function mirrorDepositAddresses(ctx: StoreContext, chainId: number, factory: AddressValue, limit: number): Promise<number> {
  const now = ctx.now().toISOString();
  const { rows } = await ctx.db.query(
    `INSERT INTO deposit_addresses (chain_id, address, mode, factory, refund_to, request_id, order_id, currency, amount, expires_at, state, route, api_key_id, created_at, updated_at)
     SELECT $1, d.address, d.mode, d.factory, d.refund_to, d.request_id, d.order_id, d.currency, d.amount, d.expires_at, 'elsewhere', d.route, d.api_key_id, $4::timestamptz, $4::timestamptz
     FROM deposit_addresses d
     WHERE d.factory = $2 AND d.chain_id <> $1 AND d.state <> 'elsewhere'
       AND NOT EXISTS (SELECT 1 FROM deposit_addresses e WHERE e.chain_id = $1 AND e.address = d.address)
     ORDER BY d.created_at, d.address LIMIT $3
     ON CONFLICT (chain_id, address) DO NOTHING RETURNING address`,
    [chainId, factory, limit, now],
  );
  return rows.length;
}

/**
 * The `elsewhere` rows of `chainId` due for a read at `now` (`next_check_at` unset or reached), with no
 * refund under way (nor a reverted one, left for an operator), oldest check first.
 */
export function listElsewhereDepositAddresses(ctx: StoreContext, chainId: number, now: Date, limit: number): Promise<StoredDepositAddress[]> {
  return listDueDepositAddresses(ctx, chainId, ["elsewhere"], now, limit);
}

/**
 * One read of an `elsewhere` row: appends the refunds of the payments found (possibly none) and moves its
 * scan cursor and next read, only while the row still has exactly `known` refunds: false when another
 * replica (or this one before a restart) recorded first. A payment on another chain is planned once.
 */
export async function recordElsewhereCheck(
  ctx: StoreContext,
  key: { chainId: number; address: AddressValue },
  known: number,
  check: { refunds: readonly DepositAddressRefund[]; scannedBlock: number; nextCheckAt: Date | null },
): Promise<boolean> {
  const { rows } = await ctx.db.query(
    `UPDATE deposit_addresses SET refunds = CASE WHEN $4::jsonb = '[]'::jsonb THEN refunds ELSE coalesce(refunds, '[]'::jsonb) || $4::jsonb END,
       scanned_block = $5, next_check_at = $6::timestamptz, updated_at = $7::timestamptz
     WHERE chain_id = $1 AND address = $2 AND state = 'elsewhere' AND jsonb_array_length(coalesce(refunds, '[]'::jsonb)) = $3 RETURNING address`,
    [key.chainId, key.address, known, encodedRefunds(check.refunds), check.scannedBlock, check.nextCheckAt?.toISOString() ?? null, ctx.now().toISOString()],
  );
  return rows.length === 1;
}

/** A strict address decided by a refund on another chain: `watching` → `refunded` with no refund of its own, only from `watching`. */
export async function markDepositAddressRefundedElsewhere(ctx: StoreContext, key: { chainId: number; address: AddressValue }): Promise<boolean> {
  const { rows } = await ctx.db.query(
    `UPDATE deposit_addresses SET state = 'refunded', updated_at = $3::timestamptz WHERE chain_id = $1 AND address = $2 AND state = 'watching' RETURNING address`,
    [key.chainId, key.address, ctx.now().toISOString()],
  );
  return rows.length === 1;
}

/** `refunding` → `refunded`, only from `refunding` (false otherwise). */
export async function markDepositAddressRefunded(ctx: StoreContext, key: { chainId: number; address: AddressValue }): Promise<boolean> {
  const { rows } = await ctx.db.query(
    `UPDATE deposit_addresses SET state = 'refunded', updated_at = $3::timestamptz WHERE chain_id = $1 AND address = $2 AND state = 'refunding' RETURNING address`,
    [key.chainId, key.address, ctx.now().toISOString()],
  );
  return rows.length === 1;
}

/** Every row of `address`, on every chain (the factory sits at the same address on each), by chain: what `ferry deposit-addresses show` reads. */
export async function listDepositAddressChains(db: Pick<Queryable, "query">, address: AddressValue): Promise<StoredDepositAddress[]> {
  const { rows } = await db.query(`SELECT ${COLUMNS} FROM deposit_addresses WHERE address = $1 ORDER BY chain_id`, [address]);
  return rows.map(fromRow);
}

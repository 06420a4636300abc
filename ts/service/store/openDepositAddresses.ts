/**
 * Open deposit addresses (migration 0019): one reusable address per refund recipient and route.
 *
 * - **The address** is a `deposit_addresses` row with mode and state `open`, written by the first quote
 *   that hands it out (`saveOpenDepositAddress`: idempotent, keyed by chain and address; a second quote
 *   of the same user and route writes no second row), with the route every payment is re-quoted with
 *   (`route`), the quoting API key and `scanned_block`, how far the solver has looked for payments.
 * - **Every quote** of the address is a `deposit_address_quotes` row: its requestId is a placeholder
 *   that the first payment forwarded after it supersedes (`superseded_by_request_id`).
 * - **Every payment** is a `deposit_address_payments` row keyed by (chain, address, payment key: one per
 *   ERC-20 Transfer log, one per block whose native balance rose), inserted with the scan cursor's move
 *   (`recordOpenPayments`, a compare-and-set on `scanned_block`: a payment is found once). It leaves
 *   `detected` once: to `forwarding` in the store transaction of its forwarding's nonce (re-quoted, its
 *   own request and order) or to `refunding` (it could not be re-quoted), each a compare-and-set on
 *   `detected`, so two replicas or a restart never forward or refund one payment twice.
 */
import { Type, type StaticDecode } from "typebox";
import { DepositAddressPayment } from "../model/depositAddressPayment.ts";
import { DepositAddressRefund } from "../model/depositAddressRefund.ts";
import { OpenDepositAddressRoute } from "../model/openDepositAddressRoute.ts";
import { decodeStored, encodeStored } from "../model/storedValue.ts";
import { Address, Bytes32, ChainId, type Address as AddressValue } from "../model/values.ts";
import { isoColumn, type StoreContext } from "./engine.ts";

type Bytes32Value = StaticDecode<typeof Bytes32>;
type Key = { chainId: number; address: AddressValue };

const OpenAddressRow = Type.Object({
  chain_id: ChainId,
  address: Address,
  factory: Address,
  refund_to: Address,
  route: OpenDepositAddressRoute,
  api_key_id: Type.Union([Type.String(), Type.Null()]),
  scanned_block: Type.Union([Type.String(), Type.Null()]),
  created_at: Type.String(),
});

/** A stored open deposit address: what its payments are re-quoted with, and how far it was scanned. */
export type StoredOpenDepositAddress = {
  chainId: number;
  address: AddressValue;
  factory: AddressValue;
  refundTo: AddressValue;
  route: OpenDepositAddressRoute;
  /** The API key of the quote that first handed the address out (its payments' requests are that app's). */
  apiKeyId: string | null;
  /** The last final block scanned for payments; null: never scanned (the scan starts at the first quote's block). */
  scannedBlock: number | null;
  createdAt: string;
};

export type NewOpenDepositAddress = Pick<StoredOpenDepositAddress, "chainId" | "address" | "factory" | "refundTo" | "route" | "apiKeyId"> & {
  /** The quote handing it out: its requestId and orderId (informative on the address row), its expiry. */
  requestId: Bytes32Value;
  orderId: Bytes32Value;
  expiresAt: Date;
  /** The origin chain's block when quoted: payments are looked for from the next one. */
  quotedAtBlock: number;
};

const PaymentState = Type.Union([Type.Literal("detected"), Type.Literal("forwarding"), Type.Literal("refunding"), Type.Literal("refunded")]);

const PaymentRow = Type.Object({
  chain_id: ChainId,
  address: Address,
  payment_key: Type.String(),
  payment: DepositAddressPayment,
  state: PaymentState,
  request_id: Type.Union([Bytes32, Type.Null()]),
  order_id: Type.Union([Bytes32, Type.Null()]),
  instruction_id: Type.Union([Bytes32, Type.Null()]),
  refunds: Type.Union([Type.Array(DepositAddressRefund), Type.Null()]),
  reason: Type.Union([Type.String(), Type.Null()]),
  created_at: Type.String(),
});

/** One payment into an open address and how far it got. */
export type StoredOpenPayment = {
  chainId: number;
  address: AddressValue;
  /** `native:<block>` or `<token>:<txHash>:<logIndex>`: the payment's identity (two equal payments are two keys). */
  paymentKey: string;
  payment: DepositAddressPayment;
  state: StaticDecode<typeof PaymentState>;
  /** The payment's own request and order (re-quoted), once forwarding. */
  requestId: Bytes32Value | null;
  orderId: Bytes32Value | null;
  instructionId: Bytes32Value | null;
  /** Its refund, when it could not be re-quoted. */
  refunds: DepositAddressRefund[] | null;
  /** Why it was refunded (the quote's error code). */
  reason: string | null;
  createdAt: string;
};

const ADDRESS_COLUMNS = `chain_id, address, factory, refund_to, route, api_key_id, scanned_block::text AS scanned_block, ${isoColumn("created_at")}`;
const PAYMENT_COLUMNS = `chain_id, address, payment_key, payment, state, request_id, order_id, instruction_id, refunds, reason, ${isoColumn("created_at")}`;

function addressFromRow(row: unknown): StoredOpenDepositAddress {
  const r = decodeStored(OpenAddressRow, row, "deposit_addresses", String((row as { address?: unknown }).address));
  return {
    chainId: r.chain_id,
    address: r.address,
    factory: r.factory,
    refundTo: r.refund_to,
    route: r.route,
    apiKeyId: r.api_key_id,
    scannedBlock: r.scanned_block === null ? null : Number(r.scanned_block),
    createdAt: r.created_at,
  };
}

function paymentFromRow(row: unknown): StoredOpenPayment {
  const r = decodeStored(PaymentRow, row, "deposit_address_payments", String((row as { payment_key?: unknown }).payment_key));
  return {
    chainId: r.chain_id,
    address: r.address,
    paymentKey: r.payment_key,
    payment: r.payment,
    state: r.state,
    requestId: r.request_id,
    orderId: r.order_id,
    instructionId: r.instruction_id,
    refunds: r.refunds,
    reason: r.reason,
    createdAt: r.created_at,
  };
}

/**
 * Stores an open address handed out by a quote: the address row once (a later quote of the same address
 * leaves it as it is: its route, key and scan cursor are the first quote's), and the quote's placeholder.
 * A copy of the address watched for payments made on this chain by mistake (state `elsewhere`, another
 * origin's open address: ./depositAddresses.ts) becomes the chain's own open row; its past refunds stay on it.
 */
export async function saveOpenDepositAddress(ctx: StoreContext, row: NewOpenDepositAddress): Promise<void> {
  const now = ctx.now().toISOString();
  await ctx.db.query(
    `INSERT INTO deposit_addresses (chain_id, address, mode, factory, refund_to, request_id, order_id, currency, amount, expires_at, state, route, api_key_id, scanned_block, created_at, updated_at)
     VALUES ($1, $2, 'open', $3, $4, $5, $6, $7, 0, $8::timestamptz, 'open', $9::jsonb, $10, $11, $12::timestamptz, $12::timestamptz)
     ON CONFLICT (chain_id, address) DO UPDATE SET mode = 'open', state = 'open', factory = EXCLUDED.factory, request_id = EXCLUDED.request_id, order_id = EXCLUDED.order_id,
       currency = EXCLUDED.currency, expires_at = EXCLUDED.expires_at, route = EXCLUDED.route, api_key_id = EXCLUDED.api_key_id, scanned_block = EXCLUDED.scanned_block,
       next_check_at = NULL, updated_at = EXCLUDED.updated_at
     WHERE deposit_addresses.state = 'elsewhere'`,
    [
      row.chainId,
      row.address,
      row.factory,
      row.refundTo,
      row.requestId,
      row.orderId,
      row.route.originCurrency,
      row.expiresAt.toISOString(),
      JSON.stringify(encodeStored(OpenDepositAddressRoute, row.route)),
      row.apiKeyId,
      row.quotedAtBlock,
      now,
    ],
  );
  await ctx.db.query(`INSERT INTO deposit_address_quotes (request_id, chain_id, address, created_at) VALUES ($1, $2, $3, $4::timestamptz)`, [row.requestId, row.chainId, row.address, now]);
}

export async function getOpenDepositAddress(ctx: StoreContext, chainId: number, address: AddressValue): Promise<StoredOpenDepositAddress | undefined> {
  const { rows } = await ctx.db.query(`SELECT ${ADDRESS_COLUMNS} FROM deposit_addresses WHERE chain_id = $1 AND address = $2 AND mode = 'open'`, [chainId, address]);
  return rows[0] === undefined ? undefined : addressFromRow(rows[0]);
}

/** The open addresses of `chainId`, least recently scanned first. */
export async function listOpenDepositAddresses(ctx: StoreContext, chainId: number, limit: number): Promise<StoredOpenDepositAddress[]> {
  const { rows } = await ctx.db.query(`SELECT ${ADDRESS_COLUMNS} FROM deposit_addresses WHERE chain_id = $1 AND state = 'open' ORDER BY scanned_block NULLS FIRST, address LIMIT $2`, [chainId, limit]);
  return rows.map(addressFromRow);
}

/**
 * Moves the address's scan cursor from `from` to `to` and stores the payments found in between, in one
 * transaction: false (nothing written) when the cursor was not at `from` (another replica scanned first).
 * A payment already stored under its key is left as it is.
 */
export async function recordOpenPayments(ctx: StoreContext, key: Key, scan: { from: number | null; to: number; payments: ReadonlyArray<{ paymentKey: string; payment: DepositAddressPayment }> }): Promise<boolean> {
  const now = ctx.now().toISOString();
  const { rows } = await ctx.db.query(
    `UPDATE deposit_addresses SET scanned_block = $3, updated_at = $5::timestamptz
     WHERE chain_id = $1 AND address = $2 AND state = 'open' AND scanned_block IS NOT DISTINCT FROM $4 RETURNING address`,
    [key.chainId, key.address, scan.to, scan.from, now],
  );
  if (rows.length !== 1) return false;
  for (const p of scan.payments) {
    await ctx.db.query(
      `INSERT INTO deposit_address_payments (chain_id, address, payment_key, payment, created_at, updated_at) VALUES ($1, $2, $3, $4::jsonb, $5::timestamptz, $5::timestamptz)
       ON CONFLICT (chain_id, address, payment_key) DO NOTHING`,
      [key.chainId, key.address, p.paymentKey, JSON.stringify(encodeStored(DepositAddressPayment, p.payment)), now],
    );
  }
  return true;
}

/** Payments of `chainId` still to re-quote and forward (`detected`) or to refund (`refunding`), oldest first. */
export async function listOpenPaymentWork(ctx: StoreContext, chainId: number, limit: number): Promise<StoredOpenPayment[]> {
  const { rows } = await ctx.db.query(
    `SELECT ${PAYMENT_COLUMNS} FROM deposit_address_payments WHERE chain_id = $1 AND state IN ('detected', 'refunding') ORDER BY created_at, payment_key LIMIT $2`,
    [chainId, limit],
  );
  return rows.map(paymentFromRow);
}

export async function listOpenPayments(ctx: StoreContext, chainId: number, address: AddressValue): Promise<StoredOpenPayment[]> {
  const { rows } = await ctx.db.query(`SELECT ${PAYMENT_COLUMNS} FROM deposit_address_payments WHERE chain_id = $1 AND address = $2 ORDER BY created_at, payment_key`, [chainId, address]);
  return rows.map(paymentFromRow);
}

/** The payment forwarded under `orderId` (its re-quoted order), if any. */
export async function getOpenPaymentByOrderId(ctx: StoreContext, orderId: Bytes32Value): Promise<StoredOpenPayment | undefined> {
  const { rows } = await ctx.db.query(`SELECT ${PAYMENT_COLUMNS} FROM deposit_address_payments WHERE order_id = $1`, [orderId]);
  return rows[0] === undefined ? undefined : paymentFromRow(rows[0]);
}

/**
 * `detected` → `forwarding` with the payment's own request, order and instruction id, only from
 * `detected` (false otherwise: forwarded or refunded already). Every placeholder of the address's quotes
 * not yet superseded is superseded by this request.
 */
export async function markOpenPaymentForwarding(
  ctx: StoreContext,
  key: Key & { paymentKey: string },
  forward: { requestId: Bytes32Value; orderId: Bytes32Value; instructionId: Bytes32Value },
): Promise<boolean> {
  const { rows } = await ctx.db.query(
    `UPDATE deposit_address_payments SET state = 'forwarding', request_id = $4, order_id = $5, instruction_id = $6, updated_at = $7::timestamptz
     WHERE chain_id = $1 AND address = $2 AND payment_key = $3 AND state = 'detected' RETURNING address`,
    [key.chainId, key.address, key.paymentKey, forward.requestId, forward.orderId, forward.instructionId, ctx.now().toISOString()],
  );
  if (rows.length !== 1) return false;
  await ctx.db.query(`UPDATE deposit_address_quotes SET superseded_by_request_id = $3 WHERE chain_id = $1 AND address = $2 AND superseded_by_request_id IS NULL`, [
    key.chainId,
    key.address,
    forward.requestId,
  ]);
  return true;
}

/**
 * `detected` → `refunding` with its refund and why (the re-quote's error code), only from `detected`;
 * straight to `refunded` when nothing is to be sent (every refund `ignored`: below the refund minimum).
 * `requestId`: the payment's own request (../solver/depositAddress/openPaymentRequest.ts), so
 * `listRequests`' `depositAddress` filter lists it.
 */
export async function markOpenPaymentRefunding(
  ctx: StoreContext,
  key: Key & { paymentKey: string },
  refund: { reason: string; refunds: readonly DepositAddressRefund[]; requestId?: Bytes32Value },
): Promise<boolean> {
  const state = refund.refunds.every((r) => r.state === "ignored") ? "refunded" : "refunding";
  const { rows } = await ctx.db.query(
    `UPDATE deposit_address_payments SET state = $7, reason = $4, refunds = $5::jsonb, updated_at = $6::timestamptz, request_id = $8
     WHERE chain_id = $1 AND address = $2 AND payment_key = $3 AND state = 'detected' RETURNING address`,
    [key.chainId, key.address, key.paymentKey, refund.reason, JSON.stringify(refund.refunds.map((r) => encodeStored(DepositAddressRefund, r))), ctx.now().toISOString(), state, refund.requestId ?? null],
  );
  return rows.length === 1;
}

/**
 * Moves the refund of a `refunding` payment from `from` to `to` (`planned` → `sent` in its nonce's store
 * transaction; `sent` → `confirmed`, the payment then `refunded`): false when it is not in `from`.
 */
export async function advanceOpenPaymentRefund(
  ctx: StoreContext,
  key: Key & { paymentKey: string },
  from: "planned" | "sent",
  to: { state: "sent" | "confirmed"; txHash: Bytes32Value },
): Promise<boolean> {
  const { rows } = await ctx.db.query(`SELECT ${PAYMENT_COLUMNS} FROM deposit_address_payments WHERE chain_id = $1 AND address = $2 AND payment_key = $3 FOR UPDATE`, [
    key.chainId,
    key.address,
    key.paymentKey,
  ]);
  if (rows[0] === undefined) return false;
  const row = paymentFromRow(rows[0]);
  const refund = row.refunds?.[0];
  if (row.state !== "refunding" || !refund || refund.state !== from) return false;
  const next = [{ ...refund, state: to.state, txHash: to.txHash }];
  await ctx.db.query(
    `UPDATE deposit_address_payments SET refunds = $4::jsonb, state = $5, updated_at = $6::timestamptz WHERE chain_id = $1 AND address = $2 AND payment_key = $3`,
    [key.chainId, key.address, key.paymentKey, JSON.stringify(next.map((r) => encodeStored(DepositAddressRefund, r))), to.state === "confirmed" ? "refunded" : "refunding", ctx.now().toISOString()],
  );
  return true;
}

/** The request that superseded an open address's quote placeholder (null: not superseded, or not an open quote). */
export async function getSupersedingRequestId(ctx: StoreContext, requestId: Bytes32Value): Promise<Bytes32Value | null> {
  const { rows } = await ctx.db.query<{ superseded_by_request_id: string | null }>(`SELECT superseded_by_request_id FROM deposit_address_quotes WHERE request_id = $1`, [requestId]);
  return (rows[0]?.superseded_by_request_id as Bytes32Value | undefined) ?? null;
}

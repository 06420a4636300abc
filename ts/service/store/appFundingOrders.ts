/**
 * Funding orders (migration 0014): an order id POST /app-balance/deposits handed out, recorded as
 * "funds app X". The indexer looks a deposit's order id up here before looking for a quote: a deposit
 * under a funding order credits the app (./appBalances.ts, once per log) instead of making a request.
 */
import { decodeStored } from "../model/storedValue.ts";
import { Address, Bytes32 } from "../model/values.ts";
import { isoColumn, type StoreContext } from "./engine.ts";

export type AppFundingOrder = { orderId: Bytes32; apiKeyId: string; chainId: number; currency: Address; amount: bigint; createdAt: string };

type Row = { order_id: string; api_key_id: string; chain_id: number; currency: string; amount: string; created_at: string };

/** The columns `fundingOrderFromRow` decodes. */
export const FUNDING_ORDER_COLUMNS = `order_id, api_key_id, chain_id, currency, amount::text AS amount, ${isoColumn("created_at")}`;

export async function saveAppFundingOrder(ctx: StoreContext, order: Omit<AppFundingOrder, "createdAt">): Promise<AppFundingOrder> {
  const { rows } = await ctx.db.query<Row>(
    `INSERT INTO app_funding_orders (order_id, api_key_id, chain_id, currency, amount, created_at) VALUES ($1, $2, $3, $4, $5::numeric, $6)
     RETURNING ${FUNDING_ORDER_COLUMNS}`,
    [order.orderId, order.apiKeyId, order.chainId, order.currency, order.amount.toString(), ctx.now()],
  );
  return fundingOrderFromRow(rows[0]!);
}

export async function getAppFundingOrder(ctx: StoreContext, orderId: Bytes32): Promise<AppFundingOrder | null> {
  const { rows } = await ctx.db.query<Row>(
    `SELECT ${FUNDING_ORDER_COLUMNS} FROM app_funding_orders WHERE order_id = $1`,
    [orderId],
  );
  return rows[0] ? fundingOrderFromRow(rows[0]) : null;
}

/** Decodes one row (selected with FUNDING_ORDER_COLUMNS). */
export function fundingOrderFromRow(row: Row): AppFundingOrder {
  return {
    orderId: decodeStored(Bytes32, row.order_id, "app_funding_orders.order_id", row.order_id),
    apiKeyId: row.api_key_id,
    chainId: row.chain_id,
    currency: decodeStored(Address, row.currency, "app_funding_orders.currency", row.order_id),
    amount: BigInt(row.amount),
    createdAt: row.created_at,
  };
}

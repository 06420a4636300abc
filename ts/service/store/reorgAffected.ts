/**
 * What a reorg of one chain below a block may have invalidated, for the deep-reorg recovery
 * (../solver/indexer/recoverDeepReorg.ts): requests credited from a deposit on that chain above the block, or
 * whose repayment or refund on that chain was recorded above it (or is still in flight: `prepared` /
 * `sent`), and the stray deposits recorded on it above the block (or whose refund was).
 */
import { requestFromRow, REQUEST_COLUMNS } from "./requests.ts";
import type { StoreContext } from "./engine.ts";
import type { StoredRequest } from "../model/storedRequest.ts";
import type { StrayDepositKey } from "./strayDeposits.ts";

/** The park code of a request whose credited deposit is not on the canonical chain after a deep reorg: never repaid, refunded or filled, and not unparkable. */
export const DEPOSIT_GONE_PARK_CODE = "DEEP_REORG_DEPOSIT_GONE";

const payoutAbove = (kind: "repayment" | "refund") =>
  `((solver_state->'${kind}'->>'chainId')::bigint = $1 AND (coalesce((solver_state->'${kind}'->>'block')::bigint, -1) > $2 OR solver_state->'${kind}'->>'status' IN ('prepared', 'sent')))`;

/** Requests whose deposit (on `chainId`) or payout (on `chainId`) lies above `block`, oldest first. */
export async function listReorgAffectedRequests({ db }: StoreContext, chainId: number, block: number): Promise<StoredRequest[]> {
  const { rows } = await db.query(
    `SELECT ${REQUEST_COLUMNS} FROM requests
      WHERE ((solver_state->'deposit'->>'chainId')::bigint = $1 AND (solver_state->'deposit'->>'block')::bigint > $2)
         OR ${payoutAbove("repayment")} OR ${payoutAbove("refund")}
      ORDER BY created_at, id`,
    [chainId, block],
  );
  return rows.map(requestFromRow);
}

/** Stray deposits on `chainId` recorded above `block`, or whose refund was recorded above it (or is in flight). */
export async function listReorgAffectedStrays({ db }: StoreContext, chainId: number, block: number): Promise<StrayDepositKey[]> {
  const { rows } = await db.query<{ chain_id: number; tx_hash: string; log_index: number }>(
    `SELECT chain_id, tx_hash, log_index FROM stray_deposits
      WHERE chain_id = $1 AND (block > $2 OR coalesce((refund->>'block')::bigint, -1) > $2 OR refund->>'status' IN ('prepared', 'sent'))
      ORDER BY block, tx_hash, log_index`,
    [chainId, block],
  );
  return rows.map((row) => ({ chainId: Number(row.chain_id), txHash: row.tx_hash, logIndex: Number(row.log_index) }));
}

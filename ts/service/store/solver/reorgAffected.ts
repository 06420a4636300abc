/**
 * What a reorg of one chain below a block may have invalidated, for the deep-reorg recovery
 * (../../solver/indexer/recoverDeepReorg.ts): requests credited from a deposit on that chain above the block, or
 * whose repayment or refund on that chain was recorded above it (or is still in flight: `prepared` /
 * `sent`), and the stray deposits recorded on it above the block (or whose refund was).
 */
import { requestFromRow, REQUEST_COLUMNS } from "../requests.ts";
import type { StoreContext } from "../engine.ts";
import type { StoredRequest } from "../../model/storedRequest.ts";
import type { StrayDepositKey } from "./strayDeposits.ts";
import { Type } from "typebox";
import { decodeStored } from "../../model/storedValue.ts";
import { Bytes32, ChainId, LogIndex } from "../../model/values.ts";

const StrayKeyRow = Type.Object({ chain_id: ChainId, tx_hash: Bytes32, log_index: LogIndex });

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
  const { rows } = await db.query(
    `SELECT chain_id, tx_hash, log_index FROM stray_deposits
      WHERE chain_id = $1 AND (block > $2 OR coalesce((refund->>'block')::bigint, -1) > $2 OR refund->>'status' IN ('prepared', 'sent'))
      ORDER BY block, tx_hash, log_index`,
    [chainId, block],
  );
  return rows.map((row) => {
    const r = decodeStored(StrayKeyRow, { ...row, chain_id: Number(row.chain_id), log_index: Number(row.log_index) }, "stray_deposits", `${String(row.chain_id)}:${String(row.tx_hash)}`);
    return { chainId: r.chain_id, txHash: r.tx_hash, logIndex: r.log_index };
  });
}

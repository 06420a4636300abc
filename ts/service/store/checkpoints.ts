import type { StoreContext } from "./engine.ts";

/** The last block of `contract` on `chainId` the indexer has fully processed, or null before the first run. */
export async function getCheckpoint({ db }: StoreContext, chainId: number, contract: string): Promise<number | null> {
  const { rows } = await db.query<{ block: number }>("SELECT block FROM indexer_checkpoints WHERE chain_id = $1 AND contract = $2", [
    chainId,
    contract.toLowerCase(),
  ]);
  return rows.length === 0 ? null : rows[0].block;
}

/** Upsert. The block may go backwards (a reorg makes the indexer re-read the unconfirmed window). */
export async function setCheckpoint({ db, now }: StoreContext, chainId: number, contract: string, block: number): Promise<void> {
  await db.query(
    `INSERT INTO indexer_checkpoints (chain_id, contract, block, updated_at) VALUES ($1, $2, $3, $4::timestamptz)
     ON CONFLICT (chain_id, contract) DO UPDATE SET block = EXCLUDED.block, updated_at = EXCLUDED.updated_at`,
    [chainId, contract.toLowerCase(), block, now().toISOString()],
  );
}

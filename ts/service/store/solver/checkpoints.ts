/**
 * The deposit indexer's checkpoints (`indexer_checkpoints`, migrations 0001 and 0011): per chain and
 * contract, the last block fully processed and its hash, the last range ends recorded (`recent`, for
 * measuring a deep reorg and choosing where to resume), and whether indexing is halted after a reorg
 * deeper than the confirmation depth (`halted`, cleared only by an operator: `resumeIndexer`).
 */
import { Type, type StaticDecode } from "typebox";
import { decodeStored } from "../../model/storedValue.ts";
import { Bytes32, type Address } from "../../model/values.ts";
import type { StoreContext } from "../engine.ts";

/** How many range ends `recent` keeps. */
export const RECENT_CHECKPOINTS = 32;

export const BlockRef = Type.Object({ block: Type.Integer({ minimum: 0 }), hash: Bytes32 }, { additionalProperties: false });
export type BlockRef = StaticDecode<typeof BlockRef>;

/** Why and where indexing stopped: the final block that changed, and the newest recorded block still on the chain. */
export const IndexerHalt = Type.Object(
  {
    at: Type.String({ maxLength: 40 }),
    block: Type.Integer({ minimum: 0 }),
    expectedHash: Type.String({ maxLength: 66 }),
    actualHash: Type.Union([Type.String({ maxLength: 66 }), Type.Null()]),
    /** The newest recorded range end whose hash is still the chain's (null: none of the recent ones). */
    lastGood: Type.Union([BlockRef, Type.Null()]),
    /** Blocks dropped at least (checkpoint − last good), when a last good block is known. */
    depth: Type.Union([Type.Integer({ minimum: 0 }), Type.Null()]),
  },
  { additionalProperties: false },
);
export type IndexerHalt = StaticDecode<typeof IndexerHalt>;

export type IndexerCheckpoint = {
  block: number;
  /** Null for a checkpoint written before hashes were kept (migration 0011): trusted once, then hashed. */
  hash: Bytes32 | null;
  recent: BlockRef[];
  halted: IndexerHalt | null;
};

const Recent = Type.Array(BlockRef);

/** The last block of `contract` on `chainId` the indexer has fully processed, or null before the first run. */
export async function getCheckpoint(ctx: StoreContext, chainId: number, contract: Address): Promise<number | null> {
  return (await getIndexerCheckpoint(ctx, chainId, contract))?.block ?? null;
}

export async function getIndexerCheckpoint({ db }: StoreContext, chainId: number, contract: Address): Promise<IndexerCheckpoint | null> {
  const { rows } = await db.query<{ block: number; block_hash: string | null; recent: unknown; halted: unknown }>(
    "SELECT block, block_hash, recent, halted FROM indexer_checkpoints WHERE chain_id = $1 AND contract = $2",
    [chainId, contract],
  );
  if (rows.length === 0) return null;
  const row = rows[0]!;
  const id = `${chainId}:${contract}`;
  return {
    block: row.block,
    hash: row.block_hash === null ? null : decodeStored(Bytes32, row.block_hash, "indexer_checkpoints.block_hash", id),
    recent: decodeStored(Recent, row.recent, "indexer_checkpoints.recent", id),
    halted: row.halted === null ? null : decodeStored(IndexerHalt, row.halted, "indexer_checkpoints.halted", id),
  };
}

/**
 * Upsert of the last processed block (and its hash, appended to `recent`). The block may go backwards
 * (an operator rewinds after a deep reorg). A halt is left as it is.
 */
export async function setCheckpoint({ db, now }: StoreContext, chainId: number, contract: Address, block: number, hash?: Bytes32): Promise<void> {
  const entry = hash === undefined ? [] : [{ block, hash }];
  await db.query(
    `INSERT INTO indexer_checkpoints (chain_id, contract, block, block_hash, recent, updated_at) VALUES ($1, $2, $3, $4, $5::jsonb, $6::timestamptz)
     ON CONFLICT (chain_id, contract) DO UPDATE SET block = EXCLUDED.block, block_hash = EXCLUDED.block_hash, updated_at = EXCLUDED.updated_at,
       recent = (SELECT coalesce(jsonb_agg(e ORDER BY ord), '[]'::jsonb) FROM (
                  SELECT e, ord FROM (
                    SELECT e, n AS ord FROM jsonb_array_elements(indexer_checkpoints.recent) WITH ORDINALITY AS t(e, n) WHERE (e->>'block')::bigint < EXCLUDED.block
                    UNION ALL
                    SELECT e, 1000000 + n FROM jsonb_array_elements(EXCLUDED.recent) WITH ORDINALITY AS t(e, n)
                  ) entries ORDER BY ord DESC LIMIT ${RECENT_CHECKPOINTS}) kept)`,
    [chainId, contract, block, hash ?? null, JSON.stringify(entry), now().toISOString()],
  );
}

/** Stops the chain's indexing (and the solver's fills from and payouts on it) until an operator resumes it. Idempotent: the first halt stays. */
export async function haltIndexer({ db }: StoreContext, chainId: number, contract: Address, halt: IndexerHalt): Promise<void> {
  await db.query("UPDATE indexer_checkpoints SET halted = coalesce(halted, $3::jsonb) WHERE chain_id = $1 AND contract = $2", [
    chainId,
    contract,
    JSON.stringify(halt),
  ]);
}

/**
 * The operator's resume after a deep reorg: indexing restarts after `block` (whose current hash the
 * caller read from the chain), forgetting the recorded range ends above it, and the halt is cleared.
 */
export async function resumeIndexer({ db, now }: StoreContext, chainId: number, contract: Address, at: { block: number; hash: Bytes32 }): Promise<boolean> {
  const { rows } = await db.query(
    `UPDATE indexer_checkpoints SET halted = NULL, block = $3, block_hash = $4, updated_at = $5::timestamptz,
       recent = coalesce((SELECT jsonb_agg(e ORDER BY n) FROM jsonb_array_elements(recent) WITH ORDINALITY AS t(e, n) WHERE (e->>'block')::bigint < $3), '[]'::jsonb)
                || jsonb_build_array(jsonb_build_object('block', $3::bigint, 'hash', $4::text))
     WHERE chain_id = $1 AND contract = $2 RETURNING chain_id`,
    [chainId, contract, at.block, at.hash, now().toISOString()],
  );
  return rows.length === 1;
}

/** The statement listing the halted chains; ../requests.ts `getStepRequest` runs it as a subquery beside the request. */
export const HALTED_CHAINS_SQL = "SELECT DISTINCT chain_id FROM indexer_checkpoints WHERE halted IS NOT NULL ORDER BY chain_id";

/** The chains whose indexing is halted (any contract), for the solver to leave their requests alone. */
export async function listHaltedChains({ db }: StoreContext): Promise<number[]> {
  const { rows } = await db.query<{ chain_id: number }>(HALTED_CHAINS_SQL);
  return rows.map((row) => row.chain_id);
}

/**
 * Which blocks of a chain the service treats as final: a block is final once it has `confirmations`
 * blocks on top including itself (1 = the head, which a reorg can still drop) and, on a chain
 * configured with a `finalityTag` (`finalized` / `safe`), once it is at or below that tag's block too.
 * Deposits are credited, and fills and payouts confirmed, only in final blocks. `finalBlock` is pure;
 * `readChainFinality` takes the chain's shared head (./chainHead.ts) and reads the tag's block.
 */
import type { BlockTag } from "viem";
import { canonicalFields, type Bytes32 } from "../model/values.ts";
import type { ChainClient } from "./chainClients.ts";

/** A block as the reorg checks need it, its hashes canonical: compared with recorded ones by `===`. */
export type BlockHeader = { number: bigint; hash: Bytes32; parentHash: Bytes32 };

/** The header of block `at` (a number or a tag), read now: the one place a block's hashes become canonical. */
export async function readHeader(client: ChainClient, at: bigint | Exclude<BlockTag, "pending">): Promise<BlockHeader> {
  const block = typeof at === "bigint" ? await client.publicClient.getBlock({ blockNumber: at }) : await client.publicClient.getBlock({ blockTag: at });
  return { number: block.number, ...canonicalFields({ hash: block.hash, parentHash: block.parentHash }) };
}

/** The newest final block: min(head − (confirmations − 1), the tag's block); confirmations 0 counts as 1. */
export function finalBlock(head: bigint, confirmations: number, tagBlock: bigint | null): bigint {
  const byDepth = head - BigInt(Math.max(confirmations, 1) - 1);
  return tagBlock !== null && tagBlock < byDepth ? tagBlock : byDepth;
}

export type ChainFinality = { head: BlockHeader; final: bigint };

/**
 * The chain's head and its newest final block: the head from the chain's shared head (./chainHead.ts:
 * no call when it is fresh; never below `atLeast`), plus the finality tag's block, read now.
 */
export async function readChainFinality(client: ChainClient, atLeast?: bigint): Promise<ChainFinality> {
  const { publicClient, config } = client;
  const [head, tagged] = await Promise.all([
    client.head.latest(atLeast === undefined ? {} : { atLeast }).then(({ number, hash, parentHash }) => ({ number, hash, parentHash })),
    config.finalityTag ? publicClient.getBlock({ blockTag: config.finalityTag }) : Promise.resolve(null),
  ]);
  return { head, final: finalBlock(head.number, config.confirmations, tagged ? tagged.number : null) };
}

/** Whether a transaction mined in `block` is final now. */
export async function isFinal(client: ChainClient, block: bigint): Promise<boolean> {
  return block <= (await readChainFinality(client, block)).final;
}

/**
 * Which blocks of a chain the service treats as final: a block is final once it has `confirmations`
 * blocks on top including itself (1 = the head, which a reorg can still drop) and, on a chain
 * configured with a `finalityTag` (`finalized` / `safe`), once it is at or below that tag's block too.
 * Deposits are credited, and fills and payouts confirmed, only in final blocks. `finalBlock` is pure;
 * `readChainFinality` reads the head (and the tag's block) through the chain's client.
 */
import type { Hex } from "viem";
import type { ChainClient } from "./chainClients.ts";

/** A block as the reorg checks need it. */
export type BlockHeader = { number: bigint; hash: Hex; parentHash: Hex };

/** The newest final block: min(head − (confirmations − 1), the tag's block); confirmations 0 counts as 1. */
export function finalBlock(head: bigint, confirmations: number, tagBlock: bigint | null): bigint {
  const byDepth = head - BigInt(Math.max(confirmations, 1) - 1);
  return tagBlock !== null && tagBlock < byDepth ? tagBlock : byDepth;
}

export type ChainFinality = { head: BlockHeader; final: bigint };

/** The chain's head and its newest final block, read now (one call, two with a finality tag). */
export async function readChainFinality(client: ChainClient): Promise<ChainFinality> {
  const { publicClient, config } = client;
  const [latest, tagged] = await Promise.all([
    publicClient.getBlock({ blockTag: "latest" }),
    config.finalityTag ? publicClient.getBlock({ blockTag: config.finalityTag }) : Promise.resolve(null),
  ]);
  const head = { number: latest.number, hash: latest.hash, parentHash: latest.parentHash };
  return { head, final: finalBlock(head.number, config.confirmations, tagged ? tagged.number : null) };
}

/** Whether a transaction mined in `block` is final now. */
export async function isFinal(client: ChainClient, block: bigint): Promise<boolean> {
  return block <= (await readChainFinality(client)).final;
}

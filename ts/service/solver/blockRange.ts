/**
 * Which blocks the deposit indexer reads next. Pure.
 *
 * A block is final enough once it has `confirmations` blocks on top including itself (1 = included):
 * the indexer reads up to `head - (confirmations - 1)`, from the block after the checkpoint (or the
 * chain's deployment block on the first run), at most `maxBlocks` at a time.
 */
export type BlockRange = { fromBlock: bigint; toBlock: bigint };

export function nextBlockRange(args: {
  checkpoint: number | null;
  deploymentBlock: number;
  head: bigint;
  confirmations: number;
  maxBlocks: number;
}): BlockRange | null {
  const confirmed = args.head - BigInt(Math.max(args.confirmations, 1) - 1);
  const fromBlock = args.checkpoint === null ? BigInt(args.deploymentBlock) : BigInt(args.checkpoint) + 1n;
  if (fromBlock > confirmed) return null;
  const last = fromBlock + BigInt(Math.max(args.maxBlocks, 1)) - 1n;
  return { fromBlock, toBlock: last < confirmed ? last : confirmed };
}

/** Whether a transaction mined in `block` has enough confirmations at `head`. */
export function isConfirmed(block: bigint, head: bigint, confirmations: number): boolean {
  return block <= head - BigInt(Math.max(confirmations, 1) - 1);
}

/**
 * Which blocks the deposit indexer reads next, and how a log scan splits its span. Pure.
 *
 * The indexer reads from the block after the checkpoint (the chain's deployment block on the first
 * run) up to the newest final block (../../chains/chainFinality.ts), at most `maxBlocks` at a time. A log
 * scan reads a span in pieces of at most `span` blocks; a provider that refuses a piece as too large
 * makes the scan halve its span (never below one block).
 */
import { finalBlock } from "../../chains/chainFinality.ts";

export type BlockRange = { fromBlock: bigint; toBlock: bigint };

export function nextBlockRange(args: { checkpoint: number | null; deploymentBlock: number; final: bigint; maxBlocks: number }): BlockRange | null {
  const fromBlock = args.checkpoint === null ? BigInt(args.deploymentBlock) : BigInt(args.checkpoint) + 1n;
  if (fromBlock > args.final) return null;
  const last = fromBlock + BigInt(Math.max(args.maxBlocks, 1)) - 1n;
  return { fromBlock, toBlock: last < args.final ? last : args.final };
}

/** Whether a transaction mined in `block` has enough confirmations at `head` (no finality tag). */
export function isConfirmed(block: bigint, head: bigint, confirmations: number): boolean {
  return block <= finalBlock(head, confirmations, null);
}

/** The first piece of [fromBlock, toBlock] a scan reads with `span` blocks per call. */
export function firstPiece(fromBlock: bigint, toBlock: bigint, span: number): BlockRange {
  const last = fromBlock + BigInt(Math.max(span, 1)) - 1n;
  return { fromBlock, toBlock: last < toBlock ? last : toBlock };
}

/** The span after a provider refused `span` blocks (or the piece actually tried, if smaller): half, at least 1. */
export function halvedSpan(span: number, tried: BlockRange): number {
  const size = Number(tried.toBlock - tried.fromBlock + 1n);
  return Math.max(1, Math.floor(Math.min(span, size) / 2));
}

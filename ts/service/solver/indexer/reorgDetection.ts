/**
 * Reorg detection, apart from the I/O: block headers come from an injected `header(n)` (the indexer
 * passes the chain's; tests pass a scripted chain), nothing else is read, nothing is written.
 *
 * - `followTip` keeps a window of the chain's newest headers (enough to cover the unconfirmed blocks)
 *   and, given the new head, tells whether the blocks it had seen were replaced and how many: a
 *   *shallow* reorg, above the final block, which costs nothing (nothing is credited or confirmed
 *   there) but is counted so an operator sees how deep the chain's reorgs go.
 * - `verifyCheckpoint` asks whether the block the indexer last recorded as final is still the
 *   chain's. When it is not, a reorg went deeper than the confirmation depth: it finds the newest
 *   recorded range end still on the chain (where an operator may resume) and how deep the reorg is
 *   at least. The caller halts the chain.
 */
import type { BlockHeader } from "../../chains/chainFinality.ts";
import type { BlockRef, IndexerCheckpoint } from "../../store/solver/checkpoints.ts";
import type { Bytes32 } from "../../model/values.ts";

export type HeaderAt = (block: bigint) => Promise<BlockHeader>;

export type TipFollowed = {
  /** The new window, oldest first, contiguous, at most `maxSize` headers, ending at the new head. */
  window: BlockHeader[];
  /** Blocks of the old window that the new head's chain replaced (none: null). */
  reorg: { depth: number; forkBlock: bigint } | null;
};

/**
 * The window after the head moved to `tip`. Fetches the headers between the old window and the tip
 * (when fewer than `maxSize`) and, on a fork, walks back until the new chain meets the window. A gap
 * longer than the window (the process was away) restarts the window at the tip without a verdict:
 * blocks that became final meanwhile are checked by `verifyCheckpoint`.
 */
export async function followTip(window: readonly BlockHeader[], tip: BlockHeader, header: HeaderAt, maxSize: number): Promise<TipFollowed> {
  const last = window.at(-1);
  if (!last) return { window: [tip], reorg: null };
  if (tip.number === last.number && tip.hash === last.hash) return { window: [...window], reorg: null };
  if (tip.number - last.number > BigInt(maxSize)) return { window: [tip], reorg: null };
  const first = window[0]!;
  const ours = new Map(window.map((b) => [b.number, b.hash] as [bigint, Bytes32]));
  const segment: BlockHeader[] = [tip];
  for (;;) {
    const oldest = segment[0]!;
    const parent = oldest.number - 1n;
    if (ours.get(parent) === oldest.parentHash) {
      const depth = last.number > parent ? Number(last.number - parent) : 0;
      const kept = window.filter((b) => b.number <= parent);
      return { window: [...kept, ...segment].slice(-maxSize), reorg: depth > 0 ? { depth, forkBlock: parent } : null };
    }
    if (parent < first.number) {
      // The new chain does not meet the window: every block of it was replaced.
      return { window: segment.slice(-maxSize), reorg: { depth: Number(last.number - first.number) + 1, forkBlock: first.number - 1n } };
    }
    segment.unshift(await header(parent));
  }
}

export type CheckpointVerdict =
  | { ok: true }
  | {
      ok: false;
      /** The chain's hash now at the checkpoint's block. */
      actualHash: Bytes32;
      /** The newest recorded range end still on the chain, or null when none of the recent ones is. */
      lastGood: BlockRef | null;
      /** Blocks the reorg dropped at least (checkpoint − last good), or null when no recorded block is still good. */
      depth: number | null;
    };

/**
 * Whether `checkpoint` (a final block the indexer recorded) is still the chain's. A checkpoint without
 * a hash (written before hashes were kept) is trusted once. `header(n)` reads the chain (the caller may
 * answer from its tip window); its errors propagate — a failed read is never taken for a reorg.
 */
export async function verifyCheckpoint(checkpoint: Pick<IndexerCheckpoint, "block" | "hash" | "recent">, header: HeaderAt): Promise<CheckpointVerdict> {
  if (checkpoint.hash === null) return { ok: true };
  // A read that fails is retried by the caller: only a hash the chain serves decides.
  const actual = await header(BigInt(checkpoint.block));
  if (actual.hash === checkpoint.hash) return { ok: true };
  for (const ref of [...checkpoint.recent].reverse()) {
    if (ref.block >= checkpoint.block) continue;
    const now = await header(BigInt(ref.block));
    if (now.hash === ref.hash) return { ok: false, actualHash: actual.hash, lastGood: ref, depth: checkpoint.block - ref.block };
  }
  return { ok: false, actualHash: actual.hash, lastGood: null, depth: null };
}

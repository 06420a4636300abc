/**
 * The deposit indexer's step for one origin chain. Deposits are credited only from final blocks
 * (../../chains/chainFinality.ts: `confirmations` deep, and at or below the `finalityTag` block where
 * configured), so a reorg shallower than the depth never touches what was recorded: a deposit it drops
 * was never credited (never filled), and one it moves to another block is credited once, when that
 * block is final.
 *
 * Each step (none at all when the previous one read everything final and the head has not moved since):
 * 1. reads the head and follows the tip (./reorgDetection.ts followTip): replaced blocks above the
 *    final block are a shallow reorg, counted (`ferry_chain_reorgs_total{kind="shallow"}`, depth);
 * 2. verifies that the checkpoint — the last final block recorded, with its hash — is still the
 *    chain's. If it is not, a reorg went deeper than the depth: the chain is halted (the first halt is
 *    stored; error log; `ferry_chain_deep_reorg_alert` = 1), nothing more is indexed on it and the
 *    solver leaves requests and payouts on it alone until an operator resumes it (docs/operations.md "Deep
 *    reorgs"). Nothing is guessed;
 * 3. reads `Deposited` and `DepositedReclaimable` logs from the block after the checkpoint (the deployment block on the first
 *    run) up to the final block, in ranges of at most `maxLogRange` blocks (./logScan.ts halves a range
 *    a provider refuses), and records each range's deposits with its checkpoint (block and hash) in one
 *    transaction (./recordDeposits.ts). A log whose block hash is not the one the window holds for its
 *    block came from another fork than the one being followed: the step stops and retries.
 * Lag, head, final and checkpoint blocks go to /metrics. After a restart it resumes from the
 * checkpoint; a range read twice credits nothing twice. On its first run on a chain it starts
 * tracking stray deposits from the block after the head (store/migrations/0005_stray_deposits.sql).
 */
import type { Log } from "viem";
import type { Store } from "../../store/createStore.ts";
import { nextBlockRange } from "./blockRange.ts";
import type { ChainClient } from "../../chains/chainClients.ts";
import { readChainFinality, readHeader, type BlockHeader } from "../../chains/chainFinality.ts";
import { ServiceError } from "../../errors/serviceError.ts";
import { DEPOSIT_EVENTS, decodeDepositLogs } from "./depositEvent.ts";
import { enrichDeposits } from "./observeDeposits.ts";
import { recordDeposits, type DepositOutcome } from "./recordDeposits.ts";
import type { Logger } from "../../logging/logger.ts";
import type { ChainConfig } from "../../config/configSchema.ts";
import { scanLogs } from "./logScan.ts";
import { followTip, verifyCheckpoint } from "./reorgDetection.ts";
import { canonicalHex } from "../../model/values.ts";

export type IndexDepositsOptions = {
  /** Ranges (each at most the chain's maxLogRange blocks) per step, so one step stays short while catching up. */
  maxRangesPerStep: number;
};

export const DEFAULT_INDEX_OPTIONS: IndexDepositsOptions = { maxRangesPerStep: 10 };

/** The newest headers seen per chain client (process memory: a restart starts a new window). */
const tipWindows = new WeakMap<ChainClient, BlockHeader[]>();

/**
 * Per chain client, the head (and final block) of its last step that read everything final: a step at
 * the same head finds nothing new and skips the store (the checkpoint read, the stray-tracking read).
 * Measured at 200 users on 2 s blocks: 11.8 of 49 store queries per intent were the checkpoint read by
 * steps that had nothing to do. A checkpoint moved back by an operator (recover-reorg) is read at the
 * chain's next block.
 */
const caughtUp = new WeakMap<ChainClient, { headHash: string; final: bigint }>();

/** Read logs came from a fork other than the one followed (a node behind a reorg): the step is retried. */
export class LogsFromAnotherForkError extends ServiceError {
  constructor(chainId: number, block: bigint) {
    super("CHAIN_UNAVAILABLE", `chain ${chainId}: logs of block ${block} carry a hash the chain no longer has; reading again`);
  }
}

export async function indexDeposits(
  deps: { store: Store; client: ChainClient; chains: readonly ChainConfig[]; log: Logger; now?: () => Date },
  options: IndexDepositsOptions = DEFAULT_INDEX_OPTIONS,
): Promise<DepositOutcome[]> {
  const { store, client, log } = deps;
  const chainId = client.config.id;
  const labels = { chain_id: String(chainId) };
  const metrics = client.metrics;
  const contract = client.config.contracts.depository;
  const { head, final } = await readChainFinality(client);
  // Caught up at this very head before: nothing new can be final, so the store is not read again.
  const last = caughtUp.get(client);
  if (last && last.headHash === head.hash && last.final === final) return [];

  const stored = await store.getIndexerCheckpoint(chainId, contract);
  if (stored?.halted) {
    metrics?.deepReorgAlert.set(labels, 1);
    log.debug({ chainId, halted: stored.halted }, "indexing halted after a deep reorg: waiting for an operator");
    return [];
  }
  metrics?.deepReorgAlert.set(labels, 0);

  const windowSize = Math.min(256, Math.max(client.config.confirmations, 1) + 2);
  const header = (n: bigint): Promise<BlockHeader> => readHeader(client, n);
  const followed = await followTip(tipWindows.get(client) ?? [], head, header, windowSize);
  tipWindows.set(client, followed.window);
  if (followed.reorg) {
    metrics?.reorgs.inc({ ...labels, kind: "shallow" });
    metrics?.reorgDepth.observe(labels, followed.reorg.depth);
    log.warn({ chainId, depth: followed.reorg.depth, forkBlock: Number(followed.reorg.forkBlock), head: Number(head.number) }, "reorg above the final block: nothing recorded there");
  }
  const windowHash = (n: bigint) => followed.window.find((b) => b.number === n)?.hash;
  const headerAt = async (n: bigint): Promise<BlockHeader> => {
    const known = followed.window.find((b) => b.number === n);
    return known ?? header(n);
  };
  metrics?.indexerHead.set(labels, Number(head.number));
  metrics?.indexerFinal.set(labels, Number(final));

  let checkpoint = stored?.block ?? null;
  if (stored && BigInt(stored.block) <= head.number) {
    const verdict = await verifyCheckpoint(stored, headerAt);
    if (!verdict.ok) {
      const halt = {
        at: (deps.now?.() ?? new Date()).toISOString(),
        block: stored.block,
        expectedHash: stored.hash!,
        actualHash: verdict.actualHash,
        lastGood: verdict.lastGood,
        depth: verdict.depth,
      };
      await store.haltIndexer(chainId, contract, halt);
      metrics?.reorgs.inc({ ...labels, kind: "deep" });
      if (verdict.depth !== null) metrics?.reorgDepth.observe(labels, verdict.depth);
      metrics?.deepReorgAlert.set(labels, 1);
      log.error(
        { chainId, block: stored.block, expectedHash: stored.hash, actualHash: verdict.actualHash, lastGood: verdict.lastGood, depth: verdict.depth },
        "DEEP REORG: a block the indexer treated as final was replaced; indexing, fills from and payouts on this chain are halted until an operator resumes it (docs/operations.md: Deep reorgs)",
      );
      return [];
    }
  }

  const outcomes: DepositOutcome[] = [];
  if ((await store.getStrayTrackingStart(chainId, contract)) === null) await store.startStrayTracking(chainId, contract, Number(head.number) + 1);
  for (let i = 0; i < options.maxRangesPerStep; i++) {
    const range = nextBlockRange({ checkpoint, deploymentBlock: client.config.deploymentBlock ?? 0, final, maxBlocks: client.config.maxLogRange });
    if (range === null) {
      caughtUp.set(client, { headHash: head.hash, final });
      break;
    }
    const logs = await scanLogs(client, { address: contract, event: DEPOSIT_EVENTS }, range.fromBlock, range.toBlock);
    for (const entry of logs as Log[]) {
      const expected = entry.blockNumber === null ? undefined : windowHash(entry.blockNumber);
      if (expected !== undefined && entry.blockHash !== null && expected !== canonicalHex(entry.blockHash)) throw new LogsFromAnotherForkError(chainId, entry.blockNumber!);
    }
    const end = await headerAt(range.toBlock);
    const deposits = await enrichDeposits(client, decodeDepositLogs(chainId, contract, logs as Log[]));
    outcomes.push(...(await recordDeposits(deps, deposits, { chainId, contract, block: Number(range.toBlock), hash: end.hash })));
    checkpoint = Number(range.toBlock);
  }
  if (checkpoint !== null) {
    metrics?.indexerCheckpoint.set(labels, checkpoint);
    metrics?.indexerLag.set(labels, Math.max(0, Number(head.number) - checkpoint));
  }
  return outcomes;
}

/**
 * The deposit indexer's step for one origin chain: reads `Deposited` logs from the block after the
 * stored checkpoint (the chain's deploymentBlock on the first run) up to the confirmed head, in
 * bounded ranges, and records each range with its checkpoint in one transaction. After a restart it
 * resumes from the checkpoint; a range read twice credits nothing twice (recordDeposits).
 * On its first run on a chain it starts tracking stray deposits from the block after the head: earlier
 * deposits arrived before this database watched the chain, so it cannot tell strays among them
 * (store/migrations/0005_stray_deposits.sql).
 */
import type { Store } from "../store/createStore.ts";
import { nextBlockRange } from "./blockRange.ts";
import type { ChainClient } from "../chains/chainClients.ts";
import { depositsInRange } from "./observeDeposits.ts";
import { recordDeposits, type DepositOutcome } from "./recordDeposits.ts";
import type { Logger } from "../logging/logger.ts";
import type { ChainConfig } from "../config/configSchema.ts";

export type IndexDepositsOptions = {
  /** Blocks per eth_getLogs call. */
  maxBlocksPerRange: number;
  /** Ranges per step, so one step stays short while catching up. */
  maxRangesPerStep: number;
};

export const DEFAULT_INDEX_OPTIONS: IndexDepositsOptions = { maxBlocksPerRange: 2_000, maxRangesPerStep: 10 };

export async function indexDeposits(
  deps: { store: Store; client: ChainClient; chains: readonly ChainConfig[]; log: Logger },
  options: IndexDepositsOptions = DEFAULT_INDEX_OPTIONS,
): Promise<DepositOutcome[]> {
  const { store, client } = deps;
  const chainId = client.config.id;
  const contract = client.config.contracts.depository;
  const head = await client.publicClient.getBlockNumber({ cacheTime: 0 });
  const outcomes: DepositOutcome[] = [];
  let checkpoint = await store.getCheckpoint(chainId, contract);
  if ((await store.getStrayTrackingStart(chainId, contract)) === null) await store.startStrayTracking(chainId, contract, Number(head) + 1);
  for (let i = 0; i < options.maxRangesPerStep; i++) {
    const range = nextBlockRange({
      checkpoint,
      deploymentBlock: client.config.deploymentBlock ?? 0,
      head,
      confirmations: client.config.confirmations,
      maxBlocks: options.maxBlocksPerRange,
    });
    if (range === null) break;
    const deposits = await depositsInRange(client, range.fromBlock, range.toBlock);
    const block = Number(range.toBlock);
    outcomes.push(...(await recordDeposits(deps, deposits, { chainId, contract, block })));
    checkpoint = block;
  }
  return outcomes;
}

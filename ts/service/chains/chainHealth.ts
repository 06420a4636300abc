/**
 * A chain's health as GET /chains, GET /ready and POST /quote/v2 show it, from what the service last
 * observed of the chain (./chainWatch.ts: one observation per chain per tick). Pure: no I/O, no clock.
 *
 * - `blockProductionLagging`: the head has not advanced for longer than LAGGING_BLOCK_TIMES expected
 *   block times (the chain's `expectedBlockTimeSeconds`; a chain without one — a devnet that mines on
 *   demand — is never lagging). Only judged while the RPC answers: an RPC that is down says nothing
 *   about block production.
 * - `disabled`: the service cannot serve the chain. Causes, first match wins (the `reason`):
 *   `OPERATOR_DISABLED` (config `disabled: true`), `CHAIN_HALTED` (the indexer halted the chain after
 *   a deep reorg; an operator resumes it), `RPC_UNREACHABLE` (the last RPC_FAILURES_TO_DISABLE head
 *   reads in a row failed on every URL: one slow or lost answer — a node busy for a moment — does not
 *   turn quoting off),
 *   `SOLVER_INVENTORY_EMPTY` (the solver holds nothing it could fill with on the chain, in any currency).
 * - `depositEnabled`: the configured switch, and neither disabled nor lagging (a deposit on a chain that
 *   does not produce blocks would wait past its quote).
 * - `reason`: why the chain is disabled or lagging (`BLOCK_PRODUCTION_LAGGING`), null when healthy.
 */

export const CHAIN_INCIDENTS = ["OPERATOR_DISABLED", "CHAIN_HALTED", "RPC_UNREACHABLE", "SOLVER_INVENTORY_EMPTY", "BLOCK_PRODUCTION_LAGGING"] as const;
export type ChainIncident = (typeof CHAIN_INCIDENTS)[number];

/** How many head reads in a row must fail on every URL before the chain shows RPC_UNREACHABLE. */
export const RPC_FAILURES_TO_DISABLE = 3;

/** How many expected block times without a new head make a chain lagging. */
export const LAGGING_BLOCK_TIMES = 3;

export type ChainObservation = {
  /** The operator's switches (config `disabled`, `depositEnabled`). */
  operatorDisabled: boolean;
  operatorDepositEnabled: boolean;
  /** The chain's expected block time; undefined: block production is not judged. */
  expectedBlockTimeSeconds?: number | undefined;
  /** The last head read and when (epoch ms) it was first seen at that number; null before any read. */
  head: { number: bigint; advancedAt: number } | null;
  /** Whether the RPC answers: false after RPC_FAILURES_TO_DISABLE failed reads in a row, true after a read; null before the first read. */
  rpcReachable: boolean | null;
  /** Head reads that failed in a row since the last one that answered. */
  rpcFailures: number;
  halted: boolean;
  /** The solver's inventory was read and every currency's capacity is 0. */
  inventoryEmpty: boolean;
};

export type ChainHealth = {
  blockProductionLagging: boolean;
  disabled: boolean;
  depositEnabled: boolean;
  reason: ChainIncident | null;
};

/** What a fresh observation is before anything was read: the operator's switches only. */
export function unobserved(operator: { disabled: boolean; depositEnabled: boolean; expectedBlockTimeSeconds?: number | undefined }): ChainObservation {
  return {
    operatorDisabled: operator.disabled,
    operatorDepositEnabled: operator.depositEnabled,
    expectedBlockTimeSeconds: operator.expectedBlockTimeSeconds,
    head: null,
    rpcReachable: null,
    rpcFailures: 0,
    halted: false,
    inventoryEmpty: false,
  };
}

/** The observation after a head read at `now`: `advancedAt` moves only when the number grew. */
export function observeHead(observation: ChainObservation, head: bigint, now: number): ChainObservation {
  const advanced = observation.head === null || head > observation.head.number;
  return { ...observation, rpcReachable: true, rpcFailures: 0, head: advanced ? { number: head, advancedAt: now } : observation.head };
}

/** The observation after a head read that failed on every URL: unreachable from the RPC_FAILURES_TO_DISABLE-th in a row. */
export function observeRpcFailure(observation: ChainObservation): ChainObservation {
  const rpcFailures = observation.rpcFailures + 1;
  return { ...observation, rpcFailures, rpcReachable: rpcFailures >= RPC_FAILURES_TO_DISABLE ? false : observation.rpcReachable };
}

export function isLagging(observation: ChainObservation, now: number): boolean {
  const blockTime = observation.expectedBlockTimeSeconds;
  if (blockTime === undefined || observation.head === null || observation.rpcReachable !== true) return false;
  return now - observation.head.advancedAt > LAGGING_BLOCK_TIMES * blockTime * 1000;
}

function disabledReason(observation: ChainObservation): ChainIncident | null {
  if (observation.operatorDisabled) return "OPERATOR_DISABLED";
  if (observation.halted) return "CHAIN_HALTED";
  if (observation.rpcReachable === false) return "RPC_UNREACHABLE";
  if (observation.inventoryEmpty) return "SOLVER_INVENTORY_EMPTY";
  return null;
}

export function chainHealth(observation: ChainObservation, now: number): ChainHealth {
  const lagging = isLagging(observation, now);
  const disabledBy = disabledReason(observation);
  const disabled = disabledBy !== null;
  return {
    blockProductionLagging: lagging,
    disabled,
    depositEnabled: observation.operatorDepositEnabled && !disabled && !lagging,
    reason: disabledBy ?? (lagging ? "BLOCK_PRODUCTION_LAGGING" : null),
  };
}

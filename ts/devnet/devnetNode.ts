/**
 * Which node serves the devnet's chains, and how they mine — parsed once from the environment of
 * `npm start` (scripts/devnet.ts) or given by a caller (the tests, the benchmarks):
 *
 * - `FERRY_DEVNET_NODE`: `edr` (default; Hardhat's EDR in this process) or `anvil` (Foundry's Anvil, a
 *   child process per chain from the `@foundry-rs/anvil` package: ./anvilNode.ts).
 * - `FERRY_DEVNET_BLOCK_TIME`: seconds between blocks (1-60). Unset: a block per transaction
 *   (automine), the default. Set: the chains mine on an interval as real chains do, from the moment the
 *   devnet's own deployment is done (the deployment itself is automined: it is a hundred transactions
 *   in a row), and the service is told the chains' block time (`expectedBlockTimeSeconds`).
 */
export type DevnetNodeKind = "edr" | "anvil";

export type DevnetNode = {
  kind: DevnetNodeKind;
  /** Seconds between blocks once deployed; undefined: a block per transaction. */
  blockTimeSeconds?: number | undefined;
};

export const DEFAULT_DEVNET_NODE: DevnetNode = { kind: "edr" };

/** The most a devnet block interval may be: longer would outlast the devnet's quote TTLs. */
export const MAX_DEVNET_BLOCK_TIME_SECONDS = 60;

export class DevnetNodeError extends Error {
  readonly code = "INVALID_DEVNET_NODE";
}

/** `FERRY_DEVNET_NODE` and `FERRY_DEVNET_BLOCK_TIME`; a value it does not know is an error naming the variable. */
export function parseDevnetNode(env: NodeJS.ProcessEnv): DevnetNode {
  const kind = env.FERRY_DEVNET_NODE || "edr";
  if (kind !== "edr" && kind !== "anvil") throw new DevnetNodeError(`FERRY_DEVNET_NODE must be edr or anvil, not ${JSON.stringify(kind)}`);
  const blockTime = env.FERRY_DEVNET_BLOCK_TIME;
  if (blockTime === undefined || blockTime === "") return { kind };
  const seconds = /^[0-9]{1,2}$/.test(blockTime) ? Number(blockTime) : NaN;
  if (!(seconds >= 1 && seconds <= MAX_DEVNET_BLOCK_TIME_SECONDS)) {
    throw new DevnetNodeError(`FERRY_DEVNET_BLOCK_TIME must be whole seconds from 1 to ${MAX_DEVNET_BLOCK_TIME_SECONDS}, not ${JSON.stringify(blockTime)}`);
  }
  return { kind, blockTimeSeconds: seconds };
}

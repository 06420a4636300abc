/**
 * The process's watch over its chains' health (./chainHealth.ts): GET /chains, GET /ready and the
 * quote read it; nothing they serve triggers a read. Each tick observes every chain once — its head
 * (the chain's shared head, ./chainHead.ts: no call when it was pushed or read by another reader within
 * its max age, else one read through the chain's transport, every URL tried, bounded by `headTimeoutMs`;
 * unreachable after ./chainHealth.ts's RPC_FAILURES_TO_DISABLE failed reads in a row),
 * the chains the indexer halted after a deep reorg (one store query for all chains) and the solver's
 * inventory (./solverInventory.ts, whose reads the quote and GET /chains share) — so the cost is one
 * observation per chain per tick however many requests come in. server.ts starts it beside the app.
 */
import type { ChainConfig } from "../config/configSchema.ts";
import type { Logger } from "../logging/logger.ts";
import type { Store } from "../store/createStore.ts";
import { startWorkerLoop, type WorkerLoop } from "../worker/workerLoop.ts";
import type { ChainClients } from "./chainClients.ts";
import { chainHealth, observeHead, observeRpcFailure, unobserved, type ChainHealth, type ChainObservation } from "./chainHealth.ts";
import { withRpcDeadline } from "./rpcDeadline.ts";
import type { SolverInventory } from "./solverInventory.ts";

export type ChainWatch = {
  /** The chain's health now; undefined for a chain that is not configured. */
  health(chainId: number): ChainHealth | undefined;
  /**
   * The chain's shared head as last seen (./chainHead.ts `known()`: pushed, or read by any reader in
   * the process — not only this watch's ticks), while its RPC answers; undefined before the first read,
   * once the chain is RPC_UNREACHABLE, or for a chain that is not configured. What the quote's
   * per-block read cache is keyed by (./blockReadCache.ts): it moves with every new block the
   * process sees, not once per tick.
   */
  head(chainId: number): bigint | undefined;
  /** Observes every chain once (what each tick of the loop does). */
  tick(): Promise<void>;
  /** Starts ticking every `intervalMs` (a first tick at once). */
  start(): void;
  stop(): Promise<void>;
};

export const DEFAULT_HEAD_TIMEOUT_MS = 5_000;

export function createChainWatch(options: {
  chains: readonly ChainConfig[];
  clients: ChainClients;
  store?: Pick<Store, "listHaltedChains">;
  inventory?: Pick<SolverInventory, "lines">;
  intervalMs: number;
  headTimeoutMs?: number;
  log?: Logger;
  now?: () => number;
}): ChainWatch {
  const now = options.now ?? Date.now;
  const headTimeoutMs = options.headTimeoutMs ?? DEFAULT_HEAD_TIMEOUT_MS;
  const observations = new Map<number, ChainObservation>(
    options.chains.map((chain) => [chain.id, unobserved({ disabled: chain.disabled, depositEnabled: chain.depositEnabled, expectedBlockTimeSeconds: chain.expectedBlockTimeSeconds })]),
  );
  const update = (chainId: number, change: (o: ChainObservation) => ChainObservation) => observations.set(chainId, change(observations.get(chainId)!));

  const observeChain = async (chain: ChainConfig, halted: readonly number[] | undefined) => {
    if (halted) update(chain.id, (o) => ({ ...o, halted: halted.includes(chain.id) }));
    if (!options.clients.has(chain.id)) return;
    const client = options.clients.get(chain.id);
    try {
      // The chain's shared head (./chainHead.ts): the indexer, the solver and the fee oracle read the same.
      const head = await withRpcDeadline(headTimeoutMs, `watching chain ${chain.id}`, async () => (await client.head.latest()).number);
      update(chain.id, (o) => observeHead(o, head, now()));
    } catch (error) {
      const before = observations.get(chain.id)!.rpcReachable;
      update(chain.id, observeRpcFailure);
      if (before !== false && observations.get(chain.id)!.rpcReachable === false) options.log?.warn({ chainId: chain.id, err: { message: (error as Error).message } }, "chain head unreadable on every RPC URL: chain shown disabled");
      return;
    }
    if (!options.inventory) return;
    try {
      const lines = await options.inventory.lines(chain.id);
      update(chain.id, (o) => ({ ...o, inventoryEmpty: lines.length > 0 && lines.every((line) => line.available === 0n) }));
    } catch {
      // The balances did not answer this tick: the last judgement stands (an unreachable RPC shows above).
    }
  };

  const tick = async () => {
    let halted: number[] | undefined;
    try {
      halted = options.store ? await options.store.listHaltedChains() : [];
    } catch (error) {
      options.log?.warn({ err: { message: (error as Error).message } }, "reading halted chains failed; keeping the last answer");
    }
    await Promise.all(options.chains.map((chain) => observeChain(chain, halted)));
  };

  let loop: WorkerLoop | undefined;
  return {
    health: (chainId) => {
      const observation = observations.get(chainId);
      return observation ? chainHealth(observation, now()) : undefined;
    },
    head: (chainId) => {
      const observation = observations.get(chainId);
      if (observation?.rpcReachable !== true || !options.clients.has(chainId)) return undefined;
      return options.clients.get(chainId).head.known()?.number ?? observation.head?.number;
    },
    tick,
    start: () => {
      loop ??= startWorkerLoop({
        intervalMs: options.intervalMs,
        pass: tick,
        onFailure: (error, failures) => options.log?.warn({ failures, err: { message: (error as Error).message } }, "chain watch tick failed; retrying"),
      });
    },
    stop: async () => {
      await loop?.stop();
      loop = undefined;
    },
  };
}

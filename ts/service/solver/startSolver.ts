/**
 * `startSolver({config, store, log})`: the solver loop. Every `pollIntervalMs` one tick runs:
 * 0. at most every `allocatorCheckIntervalMs` (10 s), the Depositories' allocators (./watchAllocator.ts);
 * 1. the deposit indexer, per configured chain (./indexDeposits.ts);
 * 2. the work list (`store.listSolverWork`): for each request, take its lease
 *    (`store.claimRequest`, several loops and replicas never work on one request at once), run one
 *    step (./solverStep.ts), give the lease back;
 * 3. the pending stray deposits (`store.listPendingStrayDeposits`): each under its own lease
 *    (`store.claimStrayDeposit`), one refund step (./refundStrayDeposit.ts).
 * A failed step is decided by the error registry (../errors/errorRegistry.ts): a retryable error
 * (an RPC that did not answer, a lease race, any error from outside the service) is logged at warn
 * level and the request is stepped again on the next tick; a non-retryable one (a corrupted row, a
 * request filled onchain yet in failure, a missing key) is logged at error level and the request is
 * parked — left out of the work list, counted in /metrics (`ferry_solver_parked_requests`) — until an
 * operator clears `requests.parked`. Nothing is ever guessed. `stop()` ends the loop after the
 * in-flight tick.
 *
 * Deadlines: every step runs under an RPC deadline (../chains/rpcDeadline.ts) of `stepTimeoutMs`,
 * shorter than the lease (default two thirds of it): no RPC call of the step can start or still run
 * once it has passed, so a hanging RPC never makes a step outlive its lease and two replicas never act
 * on one request at once. Each chain's indexing pass has the same bound, so one hanging chain does not
 * hold up the others or the work list.
 */
import { randomUUID } from "node:crypto";
import { createChainClients, type ChainClients } from "../chains/chainClients.ts";
import { requireAccount, resolveAccounts, type ServiceAccounts } from "../chains/serviceAccounts.ts";
import type { FerryConfig } from "../config/configSchema.ts";
import { isRetryable } from "../errors/serviceError.ts";
import type { Store } from "../store/createStore.ts";
import { indexDeposits, DEFAULT_INDEX_OPTIONS, type IndexDepositsOptions } from "./indexDeposits.ts";
import { withRpcDeadline } from "../chains/rpcDeadline.ts";
import type { SolverContext } from "./solverContext.ts";
import { errorFields, SILENT_LOG, type Logger } from "../logging/logger.ts";
import { solverStep } from "./solverStep.ts";
import { createPriceSources } from "../quote/priceSources.ts";
import { refundStrayDeposit } from "./refundStrayDeposit.ts";
import type { Registry } from "prom-client";
import { createSolverMetrics } from "./solverMetrics.ts";
import { GasCapExceededError } from "./gasCap.ts";
import { createAllocatorWatch } from "./watchAllocator.ts";

export type SolverOptions = {
  config: FerryConfig;
  store: Store;
  log?: Logger;
  /** Pause between ticks. Default 1000 ms (the devnet uses 100). */
  pollIntervalMs?: number;
  /** How long a request's lease lasts when its holder dies mid-step. Default 15 s. */
  claimTtlMs?: number;
  /** The RPC deadline of one step (and of one chain's indexing pass); must be shorter than the lease. Default ⅔ of claimTtlMs. */
  stepTimeoutMs?: number;
  /** This loop's lease owner id. Default: a random UUID. */
  owner?: string;
  /** Requests per tick. Default 50. */
  batchSize?: number;
  index?: IndexDepositsOptions;
  /** The signing accounts, resolved once by the caller; default: resolved from `config`. */
  accounts?: ServiceAccounts;
  /** The process's chain clients (with the solver's wallets); default: created from `config`. */
  clients?: ChainClients;
  now?: () => Date;
  /** How often the Depositories' allocators are checked (./watchAllocator.ts). Default 10 s; the first tick always checks. */
  allocatorCheckIntervalMs?: number;
  /** Where the solver's metrics go (the app's registry, served by GET /metrics); default: a private one. */
  metricsRegistry?: Registry;
};

export type RunningSolver = {
  /** Runs one tick now (tests; also what the loop runs). Ticks never overlap. */
  tick(): Promise<void>;
  /** Stops the loop; resolves after the in-flight tick. */
  stop(): Promise<void>;
};

export const DEFAULT_POLL_INTERVAL_MS = 1000;
export const DEFAULT_CLAIM_TTL_MS = 15_000;
export const DEFAULT_ALLOCATOR_CHECK_MS = 10_000;

/** Whether the config holds every key the solver needs (solver, attester, allocator). */
export function solverKeysConfigured(config: FerryConfig): boolean {
  return Boolean(config.keys.solver && config.keys.attester && config.keys.allocator);
}

export function createSolverContext(options: SolverOptions): SolverContext {
  const accounts = options.accounts ?? resolveAccounts(options.config);
  const solver = requireAccount(accounts, "solver");
  const attester = requireAccount(accounts, "attester");
  const clients =
    options.clients ??
    createChainClients(options.config.chains, { solver, attester, pollingIntervalMs: Math.min(options.pollIntervalMs ?? DEFAULT_POLL_INTERVAL_MS, 1000) });
  return {
    store: options.store,
    clients,
    chains: options.config.chains,
    log: options.log ?? SILENT_LOG,
    attester,
    allocator: requireAccount(accounts, "allocator"),
    solver: solver.address,
    now: options.now ?? (() => new Date()),
    metrics: createSolverMetrics(options.metricsRegistry),
    settings: options.config.solver,
    prices: createPriceSources(options.config.quotes.priceSources, {
      get: (chainId) => (clients.has(chainId) ? clients.get(chainId).publicClient : undefined),
    }),
  };
}

export function startSolver(options: SolverOptions): RunningSolver {
  const solver = createSolver(options);
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  const interval = options.pollIntervalMs ?? DEFAULT_POLL_INTERVAL_MS;
  const loop = async () => {
    timer = undefined;
    if (stopped) return;
    await solver.tick();
    if (!stopped) timer = setTimeout(loop, interval);
  };
  timer = setTimeout(loop, 0);
  return {
    tick: solver.tick,
    async stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      await solver.tick.inFlight();
    },
  };
}

/** The solver without its timer: `tick()` runs one pass (tests drive it directly). */
export function createSolver(options: SolverOptions): { tick: (() => Promise<void>) & { inFlight(): Promise<void> } } {
  const ctx = createSolverContext(options);
  const owner = options.owner ?? randomUUID();
  const ttl = options.claimTtlMs ?? DEFAULT_CLAIM_TTL_MS;
  const stepMs = Math.min(options.stepTimeoutMs ?? Math.floor((ttl * 2) / 3), ttl - 1);
  const batch = options.batchSize ?? 50;
  const indexOptions = options.index ?? DEFAULT_INDEX_OPTIONS;
  let running: Promise<void> | null = null;
  const allocatorWatch = createAllocatorWatch(ctx);
  const allocatorInterval = options.allocatorCheckIntervalMs ?? DEFAULT_ALLOCATOR_CHECK_MS;
  let allocatorCheckedAt = -Infinity;

  const pass = async () => {
    const started = Date.now();
    if (started - allocatorCheckedAt >= allocatorInterval) {
      allocatorCheckedAt = started;
      await allocatorWatch.check();
    }
    for (const client of ctx.clients.all()) {
      try {
        await withRpcDeadline(stepMs, `indexing chain ${client.config.id}`, () => indexDeposits({ store: ctx.store, client, chains: ctx.chains, log: ctx.log }, indexOptions));
      } catch (error) {
        ctx.log.warn({ chainId: client.config.id, err: errorFields(error) }, "deposit indexing failed; retrying next tick");
      }
    }
    let work;
    try {
      work = await ctx.store.listSolverWork(batch);
    } catch (error) {
      ctx.log.warn({ err: errorFields(error) }, "reading the solver's work failed; retrying next tick");
      return;
    }
    const indexed = Date.now();
    for (const request of work) {
      if (!(await ctx.store.claimRequest(request.id, owner, ttl).catch(() => false))) continue;
      try {
        await withRpcDeadline(stepMs, `solver step of ${request.id}`, () => solverStep(ctx, request.id));
      } catch (error) {
        await onStepError(request.id, request.status, error);
      } finally {
        await ctx.store.releaseRequest(request.id, owner).catch(() => {});
      }
    }
    await refundStrays();
    if (work.length > 0) ctx.log.debug({ indexMs: indexed - started, workMs: Date.now() - indexed, requests: work.length }, "solver tick");
  };

  const onStepError = async (requestId: string, status: string, error: unknown) => {
    countAlert(error);
    if (isRetryable(error)) {
      ctx.log.warn({ requestId, status, err: errorFields(error) }, "solver step failed; retrying next tick");
      return;
    }
    const { code, message } = errorFields(error);
    ctx.log.error({ requestId, status, err: { code, message } }, "solver step failed with a non-retryable error: request parked for an operator");
    await ctx.store.parkRequest(requestId, { code: String(code ?? "UNKNOWN"), message }).catch((parkError: unknown) => {
      ctx.log.error({ requestId, err: errorFields(parkError) }, "parking the request failed; it is retried next tick");
    });
  };

  const countAlert = (error: unknown) => {
    if (error instanceof GasCapExceededError) ctx.metrics.gasCapExceeded.inc({ chain_id: String(error.chainId) });
  };

  const refundStrays = async () => {
    let strays;
    try {
      strays = await ctx.store.listPendingStrayDeposits(batch);
    } catch (error) {
      ctx.log.warn({ err: errorFields(error) }, "reading the stray deposits failed; retrying next tick");
      return;
    }
    for (const stray of strays) {
      const key = { chainId: stray.chainId, txHash: stray.txHash, logIndex: stray.logIndex };
      if (!(await ctx.store.claimStrayDeposit(key, owner, ttl).catch(() => false))) continue;
      try {
        await withRpcDeadline(stepMs, `stray refund ${key.chainId}:${key.txHash}:${key.logIndex}`, () => refundStrayDeposit(ctx, key));
      } catch (error) {
        countAlert(error);
        const strayDeposit = `${key.chainId}:${key.txHash}:${key.logIndex}`;
        if (isRetryable(error)) {
          ctx.log.warn({ strayDeposit, err: errorFields(error) }, "stray deposit refund step failed; retrying next tick");
        } else {
          // As a request is parked: out of the work list (state ignored, the code as its reason) for an operator.
          const { code, message } = errorFields(error);
          ctx.log.error({ strayDeposit, err: { code, message } }, "stray deposit refund step failed with a non-retryable error: left for an operator");
          await ctx.store.patchStrayDeposit(key, { state: "ignored", ignoredReason: String(code ?? "UNKNOWN") }).catch(() => {});
        }
      } finally {
        await ctx.store.releaseStrayDeposit(key, owner).catch(() => {});
      }
    }
  };

  const tick = Object.assign(
    async () => {
      while (running) await running;
      running = pass().finally(() => {
        running = null;
      });
      await running;
    },
    { inFlight: async () => void (await running) },
  );
  return { tick };
}

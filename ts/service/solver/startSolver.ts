/**
 * `startSolver({config, store, log})`: the solver of one process.
 * - **Indexers**, one loop per configured chain (./indexer/indexDeposits.ts), at each new head of its
 *   chain (pushed by a newHeads subscription, or read while polling) and every `pollIntervalMs`,
 *   on one replica at a time: a chain's indexing and the background passes (strays, withdrawals, permit
 *   deposits, deposit addresses) run under a lease each (`store.claimWorkerLease`, ../worker/heldLease.ts,
 *   at least WORKER_LEASE_MIN_MS): another replica does them only once that one's lease lapsed (it died:
 *   within the lease and a third) or was given back (`stop()`).
 * - **Steps**: the work list is stepped by a pool of at most `concurrency` requests at once
 *   (`concurrencyPerChain` of them acting on one chain). It is read with the leases taken in the same
 *   statement (`store.claimSolverWork`): two loops (replicas) woken together get different requests and
 *   never race for one. Each step runs under the request's lease — the listing's, or
 *   `store.claimRequest` when that one is a third gone — renewed every third of `leaseMs` while it runs; a step
 *   whose lease could not be renewed, or that has run `stepTimeoutMs`, is aborted — it starts no new
 *   transaction (../transactions/nonceManager.ts checks the signal) and the calls in flight end within their RPC
 *   timeouts. The lease only keeps loops from doing the same work twice: every write that matters is
 *   a compare-and-set in the store (a status transition, the nonce allocation with its record), so a
 *   step that outlived its lease still cannot fill twice.
 * - **Wake-ups**: a status change committed anywhere (`store.onOutboxChange`: in process, or from a
 *   replica over PostgreSQL LISTEN/NOTIFY) and a finished step make the loop read the work list at
 *   once; otherwise every `pollIntervalMs`. A work list that cannot be read (the database is down)
 *   is retried with a backoff doubling up to 2 s.
 * - **Requests waiting for a block** (a fill or a payout sent, not mined or not final: ./blockWait.ts)
 *   are left out of the pool until the head of the chain they wait on has moved past the head their
 *   last step saw, or `blockWaitMaxMs` (5 s) went by; the others are listed in their place. A new head
 *   of a chain such a request waits on wakes the loop. Their step keeps the request's lease (no
 *   release; this loop's next step renews it): no other loop steps them meanwhile, and a step costs one
 *   lease write instead of two. A loop that dies leaves them to another after `leaseMs` (15 s: a crashed
 *   replica's waiting requests resume that much later); `stop()` gives them back. `tick()` steps every
 *   listed request, waiting or not (tests mine their own blocks), and keeps no lease.
 * - **Stray deposits** (`store.listPendingStrayDeposits`): each under its own lease, one refund step
 *   (./payout/refundStrayDeposit.ts), every `pollIntervalMs` but at most once a second
 *   (BACKGROUND_MIN_INTERVAL_MS, with the app-balance withdrawals, the permit deposits and the deposit
 *   addresses: no fill waits on them); a non-retryable failure leaves it `ignored`
 *   with the error code as its reason, for an operator.
 * - **Allocator watch**: at most every `allocatorCheckIntervalMs` (10 s), the Depositories' allocators
 *   (./watchAllocator.ts).
 * - **Deadlines**: every step runs under an RPC deadline (../chains/rpcDeadline.ts) of `stepTimeoutMs`,
 *   shorter than the lease: no RPC call of the step can start or still run once it has passed, so a
 *   hanging RPC never makes a step outlive its lease. Each chain's indexing pass and each stray refund
 *   step has the same bound, so one hanging chain does not hold up the others or the work list.
 * A failed step is decided by the error registry (../errors/errorRegistry.ts): a retryable error (an
 * RPC that did not answer, the database away, a lease race) is logged at warn level and the request is
 * stepped again later; a non-retryable one (a corrupted row, a request filled onchain yet in failure, a
 * missing key) is logged at error level and the request is parked — left out of the work list, counted
 * in /metrics (`ferry_solver_parked_requests`) — until an operator clears `requests.parked`. Every log
 * line of a request's steps carries its `requestId` (and `orderId`, `txHash`, `txNonce` where they
 * apply): `grep <requestId>` traces its whole lifecycle. `stop()` ends the loops after the steps in
 * flight.
 */
import { forwardDepositAddresses } from "./depositAddress/forwardDepositAddresses.ts";
import { forwardOpenDepositAddresses } from "./depositAddress/forwardOpenDepositAddresses.ts";
import { refundOpenPayments } from "./depositAddress/openPaymentRefunds.ts";
import { createQuoteService } from "../quote/quoteService.ts";
import { refundDepositAddresses } from "./depositAddress/refundDepositAddresses.ts";
import { refundLaterPayments } from "./depositAddress/laterPayments.ts";
import { refundOtherChainPayments } from "./depositAddress/otherChainPayments.ts";
import { randomUUID } from "node:crypto";
import pLimit, { type LimitFunction } from "p-limit";
import { createChainClients, type ChainClients } from "../chains/chainClients.ts";
import { requireAccount, resolveAccounts, type ServiceAccounts } from "../chains/serviceAccounts.ts";
import { CONFIG_DEFAULTS, type FerryConfig, type SolverSettings } from "../config/configSchema.ts";
import { isRetryable } from "../errors/serviceError.ts";
import type { Store } from "../store/createStore.ts";
import { isSolverWork, type ClaimedWorkItem, type StepRead } from "../store/solver/solverWork.ts";
import { indexDeposits, DEFAULT_INDEX_OPTIONS, type IndexDepositsOptions } from "./indexer/indexDeposits.ts";
import { withRpcDeadline } from "../chains/rpcDeadline.ts";
import type { SolverContext } from "./solverContext.ts";
import { createBlockReadCache } from "../chains/blockReadCache.ts";
import { errorFields, SILENT_LOG, type Logger } from "../logging/logger.ts";
import { solverStep } from "./solverStep.ts";
import { createPriceSources } from "../prices/priceSources.ts";
import { refundStrayDeposit } from "./payout/refundStrayDeposit.ts";
import { stepAppWithdrawal } from "./payout/appWithdrawal.ts";
import { createFeeOracle } from "../transactions/chainFees.ts";
import { createNonceManager, type NonceManager } from "../transactions/nonceManager.ts";
import type { Registry } from "prom-client";
import { createSolverMetrics } from "./solverMetrics.ts";
import { GasCapExceededError } from "../transactions/gasCap.ts";
import { createAllocatorWatch } from "./watchAllocator.ts";
import { runUnderLease } from "../worker/leasedRun.ts";
import { createHeldLease } from "../worker/heldLease.ts";
import { startWorkerLoop } from "../worker/workerLoop.ts";
import type { Bytes32 } from "../model/values.ts";
import { createBlockWaits, DEFAULT_BLOCK_WAIT_MAX_MS, type BlockWait } from "./blockWait.ts";

/** A work-list entry this loop took the lease of as it listed it, at `claimedAt` (Date.now()). */
type ClaimedWork = ClaimedWorkItem & { claimedAt: number };

export type SolverOptions = {
  config: FerryConfig;
  store: Store;
  log?: Logger;
  /** Pause between ticks. Default: config `solver.pollIntervalMs`. */
  pollIntervalMs?: number;
  /** How long a request's lease lasts when its holder dies mid-step. Default: config `solver.leaseMs` (15 s). */
  claimTtlMs?: number;
  /** The RPC deadline of one step (and of one chain's indexing pass); kept below the lease. Default: config `solver.stepTimeoutMs`. */
  stepTimeoutMs?: number;
  /** This loop's lease owner id. Default: a random UUID. */
  owner?: string;
  /** Requests read from the work list at once. Default: twice the concurrency. */
  batchSize?: number;
  /** Overrides of the config's solver settings (tests, benches). */
  settings?: Partial<SolverSettings>;
  index?: IndexDepositsOptions;
  /** The signing accounts, resolved once by the caller; default: resolved from `config`. */
  accounts?: ServiceAccounts;
  /** The process's chain clients (with the solver's wallets); default: created from `config`. */
  clients?: ChainClients;
  /** The process's nonce manager; default: one of its own (several loops of one process may share one). */
  transactions?: NonceManager;
  now?: () => Date;
  /** How often the Depositories' allocators are checked (./watchAllocator.ts). Default 10 s; the first pass always checks. */
  allocatorCheckIntervalMs?: number;
  /** Where the solver's metrics go (the app's registry, served by GET /metrics); default: a private one. */
  metricsRegistry?: Registry;
  /** The longest a request waiting for a block is left out of the loop's pool when its chain's head does not move (./blockWait.ts). Default 5 s. */
  blockWaitMaxMs?: number;
};

export type RunningSolver = {
  /** Runs one pass now (tests): index every chain, step every listed request (bounded pool), refund strays. */
  tick(): Promise<void>;
  /** Stops the loops; resolves after the steps in flight. */
  stop(): Promise<void>;
};

export const DEFAULT_POLL_INTERVAL_MS = CONFIG_DEFAULTS.solver.pollIntervalMs;
export const DEFAULT_CLAIM_TTL_MS = CONFIG_DEFAULTS.solver.leaseMs;
export const DEFAULT_ALLOCATOR_CHECK_MS = 10_000;
/**
 * The background passes of the running solver (stray refunds, app-balance withdrawals, following permit
 * deposits and deposit-address forwardings, deposit addresses) run at most this often, however fast the
 * work list is polled.
 */
export const BACKGROUND_MIN_INTERVAL_MS = 1_000;

/**
 * The shortest lease on work one replica does for all (a chain's indexing, the background passes; at
 * least three poll intervals): how long the others wait before taking it from a replica that died.
 */
export const WORKER_LEASE_MIN_MS = 5_000;
/** The longest the deposit-address passes of a chain are skipped while its head does not move. */
export const DEPOSIT_ADDRESS_PASS_MAX_SKIP_MS = 5_000;

/** Whether the config holds every key the solver needs (solver, attester, allocator). */
export function solverKeysConfigured(config: FerryConfig): boolean {
  return Boolean(config.keys.solver && config.keys.attester && config.keys.allocator);
}

function settingsOf(options: SolverOptions): SolverSettings {
  const settings = { ...options.config.solver, ...options.settings };
  if (options.pollIntervalMs !== undefined) settings.pollIntervalMs = options.pollIntervalMs;
  if (options.claimTtlMs !== undefined) {
    settings.leaseMs = options.claimTtlMs;
    settings.stepTimeoutMs = Math.min(settings.stepTimeoutMs, Math.floor(options.claimTtlMs * 0.66));
  }
  if (options.stepTimeoutMs !== undefined) settings.stepTimeoutMs = options.stepTimeoutMs;
  // A step must be out of time (no RPC call, no new transaction) while its lease certainly still runs.
  settings.stepTimeoutMs = Math.max(1, Math.min(settings.stepTimeoutMs, settings.leaseMs - 1));
  return settings;
}

/**
 * The nonce manager of the solver's key for one process (../transactions/nonceManager.ts): the solver's steps and the
 * permit-deposit submitter (../server.ts shares one between them) send through it.
 */
export function createSolverNonceManager(options: { config: FerryConfig; store: Store; clients: ChainClients; log?: Logger; now?: () => Date; replaceAfterMs?: number }): NonceManager {
  const chainConfigs = new Map(options.config.chains.map((c) => [c.id, c]));
  return createNonceManager({
    store: options.store,
    clients: options.clients,
    fees: createFeeOracle(options.clients),
    settings: {
      replaceAfterMs: options.replaceAfterMs ?? options.config.solver.replaceAfterMs,
      maxTransactionFee: (chainId) => BigInt(chainConfigs.get(chainId)?.maxTransactionFee ?? CONFIG_DEFAULTS.maxTransactionFee),
    },
    log: options.log ?? SILENT_LOG,
    ...(options.now && { now: options.now }),
  });
}

export function createSolverContext(options: SolverOptions): SolverContext {
  const settings = settingsOf(options);
  const accounts = options.accounts ?? resolveAccounts(options.config);
  const solver = requireAccount(accounts, "solver");
  const attester = requireAccount(accounts, "attester");
  const log = options.log ?? SILENT_LOG;
  const now = options.now ?? (() => new Date());
  // The service hands the solver its clients (one head per chain, shared for up to a poll). A solver
  // made without them is driven by hand (`tick()`, as tests and embedders do): no poll cadence to share
  // a head over, so it reads the head afresh whenever it asks (concurrent asks still share one read).
  const clients =
    options.clients ??
    createChainClients(options.config.chains, { solver, attester, pollingIntervalMs: Math.min(settings.pollIntervalMs, 1000), headMaxAgeMs: 0 });
  const transactions = options.transactions ?? createSolverNonceManager({ config: options.config, store: options.store, clients, log, now, replaceAfterMs: settings.replaceAfterMs });
  const readClients = { get: (chainId: number) => (clients.has(chainId) ? clients.get(chainId).publicClient : undefined) };
  const prices = createPriceSources(options.config.quotes.priceSources, readClients);
  return {
    store: options.store,
    clients,
    chains: options.config.chains,
    log,
    attester,
    allocator: requireAccount(accounts, "allocator"),
    solver: solver.address,
    transactions,
    blockReads: createBlockReadCache({ head: (chainId) => (clients.has(chainId) ? clients.get(chainId).head.known()?.number : undefined) }),
    now,
    settings,
    metrics: createSolverMetrics(options.metricsRegistry, options.store),
    prices,
    quotes: createQuoteService({
      chains: options.config.chains,
      settings: options.config.quotes,
      clients: readClients,
      solver,
      store: options.store,
      priceSources: prices,
      attester,
    }),
  };
}

export function startSolver(options: SolverOptions): RunningSolver {
  const solver = createSolver(options);
  const settings = settingsOf(options);
  const ctx = solver.ctx;

  // Work one replica does for all, each under its lease (../worker/heldLease.ts): a chain's indexing, the
  // background passes. Two replicas did both twice (issue 26).
  const workerLeaseMs = Math.max(WORKER_LEASE_MIN_MS, 3 * settings.pollIntervalMs);
  const heldLease = (name: string) =>
    createHeldLease({
      lease: { claim: (ttlMs) => ctx.store.claimWorkerLease(name, solver.owner, ttlMs), release: () => ctx.store.releaseWorkerLease(name, solver.owner) },
      ttlMs: workerLeaseMs,
    });
  const backgroundLease = heldLease("solver:background");
  const indexLeases = ctx.clients.all().map((client) => heldLease(`solver:index:${client.config.id}`));

  // Each chain's indexer: a pass at each new head of its chain (pushed by a newHeads subscription, or
  // read by anyone while polling) and every pollIntervalMs, backing off while it fails (../worker/workerLoop.ts).
  const indexLoops = ctx.clients.all().map((client, i) =>
    startWorkerLoop({
      intervalMs: settings.pollIntervalMs,
      wakeOn: (wake) => client.head.onNewHead(() => wake()),
      pass: async () => {
        // Only on the replica holding this chain's lease, renewed while the pass runs.
        await indexLeases[i]!.run(async () => {
          await withRpcDeadline(settings.stepTimeoutMs, `indexing chain ${client.config.id}`, () =>
            indexDeposits({ store: ctx.store, client, chains: ctx.chains, log: ctx.log }, options.index ?? DEFAULT_INDEX_OPTIONS),
          );
        });
      },
      onFailure: (error, failures) => ctx.log.warn({ chainId: client.config.id, failures, err: errorFields(error) }, "deposit indexing failed; retrying"),
    }),
  );

  // The work list: woken by a status change committed anywhere, by each finished step, and by a new
  // head of a chain some request waits on (./blockWait.ts).
  let lastStrays = 0;
  const stepLoop = startWorkerLoop({
    intervalMs: settings.pollIntervalMs,
    wakeOn: (wake) => {
      const unsubscribe = [
        options.store.onOutboxChange(wake),
        ...ctx.clients.all().map((client) =>
          client.head.onNewHead(() => {
            if (solver.waitsOn(client.config.id)) wake();
          }),
        ),
      ];
      return () => unsubscribe.forEach((off) => off());
    },
    pass: async () => {
      await solver.checkAllocators();
      try {
        await solver.fillPool(() => stepLoop.wake());
      } finally {
        // The background passes (strays, withdrawals, permit deposits, deposit addresses, unused sponsorship
        // holds) run whether or not the work list could be read, on the replica holding `solver:background`
        // — at most once per BACKGROUND_MIN_INTERVAL_MS even when the work list is polled faster (the
        // devnet's 100 ms): nothing of theirs waits on a fill, and their idle reads were a third of an
        // intent's store queries.
        if (Date.now() - lastStrays >= Math.max(settings.pollIntervalMs, BACKGROUND_MIN_INTERVAL_MS)) {
          await backgroundLease.run(async () => {
            lastStrays = Date.now();
            await solver.backgroundPasses();
          });
        }
      }
    },
    onFailure: (error, failures) => ctx.log.warn({ failures, err: errorFields(error) }, "reading the solver's work failed; retrying with backoff"),
    onRecovered: (failures) => ctx.log.info({ failures }, "solver work list readable again"),
  });

  return {
    tick: solver.tick,
    async stop() {
      await Promise.all([stepLoop.stop(), ...indexLoops.map((loop) => loop.stop())]);
      await solver.drain();
      // Another replica takes this one's indexing and background passes at once, not after their leases lapse.
      await Promise.all([backgroundLease, ...indexLeases].map((lease) => lease.release()));
      // Clients the solver made itself (none were given): their head subscriptions end with it.
      if (!options.clients) ctx.clients.close();
    },
  };
}

export type Solver = {
  ctx: SolverContext;
  /** This loop's lease owner id (its requests' leases, and the leases of the work one replica does for all). */
  owner: string;
  /** One pass: index, step every listed request (bounded pool) and wait for them, refund strays. Passes never overlap. */
  tick: (() => Promise<void>) & { inFlight(): Promise<void> };
  /** Reads the work list and starts steps for the free slots (requests waiting for a block left out); `onSettled` is called as each ends. */
  fillPool(onSettled: () => void): Promise<number>;
  /** Whether a request waits for a block of `chainId` (./blockWait.ts). */
  waitsOn(chainId: number): boolean;
  refundStrays(): Promise<void>;
  /** Pays the pending app-balance withdrawals (./payout/appWithdrawal.ts), each under its lease. */
  payAppWithdrawals(): Promise<void>;
  /** Follows the pending permit deposits (sent for POST /execute/permits, no request step follows them) until they are mined or superseded. */
  followPermitDeposits(): Promise<void>;
  /** Forwards final payments into strict deposit addresses, refunds mis-routed ones (./depositAddress/). */
  forwardDepositPayments(): Promise<void>;
  /**
   * The passes that follow no request's step: stray refunds, app withdrawals, permit deposits, deposit
   * addresses, unused sponsorship holds (what the running loops do on the replica holding `solver:background`).
   */
  backgroundPasses(): Promise<void>;
  /** The Depositories' allocators (./watchAllocator.ts), at most every `allocatorCheckIntervalMs`. */
  checkAllocators(): Promise<void>;
  /** Waits for the steps in flight, then gives back the leases kept across waits for a block. */
  drain(): Promise<void>;
};

/** How long after an unused sponsored quote's fill deadline its hold is released (a destination clock behind the wall clock). */
export const SPONSORSHIP_HOLD_GRACE_SECONDS = 3600;

/** The solver without its loops: `tick()` runs one pass (tests drive it directly). */
export function createSolver(options: SolverOptions): Solver {
  const settings = settingsOf(options);
  const ctx = createSolverContext(options);
  const owner = options.owner ?? randomUUID();
  const batch = options.batchSize ?? settings.concurrency * 2;
  const indexOptions = options.index ?? DEFAULT_INDEX_OPTIONS;
  const metrics = ctx.metrics;
  const allocatorWatch = createAllocatorWatch(ctx);
  const allocatorInterval = options.allocatorCheckIntervalMs ?? DEFAULT_ALLOCATOR_CHECK_MS;
  let allocatorCheckedAt = -Infinity;
  const checkAllocators = async () => {
    if (Date.now() - allocatorCheckedAt < allocatorInterval) return;
    allocatorCheckedAt = Date.now();
    await allocatorWatch.check();
  };
  const inFlight = new Map<string, Promise<void>>();
  /** Requests whose lease a step kept across their wait for a block: given back when the solver stops. */
  const kept = new Set<Bytes32>();
  // Requests waiting for a block, left out of the loop's pool until their chain's head moves (./blockWait.ts).
  const waits = createBlockWaits({
    maxMs: options.blockWaitMaxMs ?? DEFAULT_BLOCK_WAIT_MAX_MS,
    head: (chainId) => (ctx.clients.has(chainId) ? ctx.clients.get(chainId).head.known()?.number : undefined),
  });
  const chainLimits = new Map<number, LimitFunction>();
  const chainLimit = (chainId: number) => {
    let limit = chainLimits.get(chainId);
    if (!limit) chainLimits.set(chainId, (limit = pLimit(settings.concurrencyPerChain)));
    return limit;
  };

  /**
   * One request's step under its lease (../worker/leasedRun.ts): claimed, renewed while it runs, aborted
   * when in doubt, released. Resolves the block the request now waits for (none when the lease was not
   * had or the step failed: stepped again as before).
   */
  const stepUnderLease = async (item: ClaimedWork, keepWhileWaiting: boolean): Promise<BlockWait | null> => {
    // The listing took the lease (`store.claimSolverWork`): fresh enough (a third of it gone at most, as
    // a renewal would be), it is not written again — the step's first claim costs nothing — and nobody
    // else can have stepped the request since, so the step starts from the row the listing read.
    let listedAt: number | undefined = item.claimedAt;
    let listed: (() => StepRead) | undefined;
    const claim = (leaseMs: number) => {
      const fresh = listedAt !== undefined && Date.now() - listedAt < leaseMs / 3;
      listedAt = undefined;
      if (fresh) listed = item.read;
      return fresh ? Promise.resolve(true) : ctx.store.claimRequest(item.id, owner, leaseMs);
    };
    const done = await runUnderLease({
      lease: { claim, release: () => ctx.store.releaseRequest(item.id, owner) },
      leaseMs: settings.leaseMs,
      timeoutMs: settings.stepTimeoutMs,
      // Waiting for a block: the loop's pool steps it again once the block comes (./blockWait.ts), renewing
      // the lease it kept; nobody else would find anything but the same transaction not final meanwhile.
      // `tick()` (tests, embedders) waits for no block: it gives those leases back, as before. Done (no
      // longer solver work): nothing lists the request again, so its lease is left to lapse rather than
      // deleted by a statement of its own (the work list's statement deletes lapsed leases).
      keep: ({ wait, done }: { wait: BlockWait | null; done: boolean }) => done || (keepWhileWaiting && wait !== null),
      onAbort: (elapsedMs) => ctx.log.warn({ requestId: item.id, elapsedMs }, "solver step took too long or lost its lease: no new transaction from it"),
      run: async (signal) => {
        const started = Date.now();
        metrics.stepStarted(item);
        try {
          const step = await withRpcDeadline(settings.stepTimeoutMs, `solver step of ${item.id}`, () => solverStep({ ...ctx, signal }, item.id, listed));
          return { wait: step.wait, done: step.request !== null && !isSolverWork(step.request) };
        } catch (error) {
          await onStepError(item.id, item.status, error);
          return { wait: null, done: false };
        } finally {
          metrics.stepEnded(item, Date.now() - started);
        }
      },
    });
    const wait = done.ran ? done.value.wait : null;
    if (keepWhileWaiting && wait) kept.add(item.id);
    else kept.delete(item.id);
    return wait;
  };

  /** The work list, its leases taken by this loop as it is read. */
  const claimWork = async (limit: number, exclude: readonly string[]): Promise<ClaimedWork[]> => {
    const claimedAt = Date.now();
    const work = await ctx.store.claimSolverWork(limit, exclude, owner, settings.leaseMs);
    return work.map((item) => ({ ...item, claimedAt }));
  };

  /** `onSettled`: stepped by the loop's pool (`fillPool`), which keeps the lease of a request left waiting for a block. */
  const start = (item: ClaimedWork, onSettled?: () => void) => {
    const running = chainLimit(item.chainId)(() => stepUnderLease(item, onSettled !== undefined))
      // Recorded before the request leaves `inFlight`: a pool filled meanwhile sees it in one or the other.
      .then((wait) => waits.record(item.id, wait))
      .finally(() => {
        inFlight.delete(item.id);
        onSettled?.();
      });
    inFlight.set(item.id, running);
    return running;
  };

  const fillPool = async (onSettled: () => void): Promise<number> => {
    const free = settings.concurrency - inFlight.size;
    if (free <= 0) return 0;
    // Left out in the query, not after it: the requests waiting for a block would otherwise fill the batch (least recently updated first).
    const waiting = new Set(waits.waiting(Date.now()));
    const work = await claimWork(Math.min(batch, free), [...inFlight.keys(), ...waiting]);
    let started = 0;
    for (const item of work) {
      // Already this loop's (a step runs, or it waits for a block under the lease it kept): as it was.
      if (inFlight.has(item.id) || waiting.has(item.id)) continue;
      if (inFlight.size >= settings.concurrency) {
        // Taken by the listing, not stepped by this loop now: another loop may have it at once.
        void ctx.store.releaseRequest(item.id, owner).catch(() => {});
        continue;
      }
      void start(item, onSettled);
      started += 1;
    }
    return started;
  };

  const onStepError = async (requestId: Bytes32, status: string, error: unknown) => {
    countAlert(error);
    if (isRetryable(error)) {
      ctx.log.warn({ requestId, status, err: errorFields(error) }, "solver step failed; retrying");
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
      if (!(await ctx.store.claimStrayDeposit(key, owner, settings.leaseMs).catch(() => false))) continue;
      try {
        await withRpcDeadline(settings.stepTimeoutMs, `stray refund ${key.chainId}:${key.txHash}:${key.logIndex}`, () => refundStrayDeposit(ctx, key));
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

  const payAppWithdrawals = async () => {
    let withdrawals;
    try {
      withdrawals = await ctx.store.listPendingAppWithdrawals(batch);
    } catch (error) {
      ctx.log.warn({ err: errorFields(error) }, "reading the app withdrawals failed; retrying next tick");
      return;
    }
    for (const withdrawal of withdrawals) {
      if (!(await ctx.store.claimAppWithdrawal(withdrawal.id, owner, settings.leaseMs).catch(() => false))) continue;
      try {
        await withRpcDeadline(settings.stepTimeoutMs, `app withdrawal ${withdrawal.id}`, () => stepAppWithdrawal(ctx, withdrawal.id));
      } catch (error) {
        countAlert(error);
        // Retried next tick whatever it was: the hold stays until the payout is mined or reverts.
        ctx.log.warn({ withdrawal: withdrawal.id, err: errorFields(error) }, "app withdrawal step failed; retrying next tick");
      } finally {
        await ctx.store.releaseAppWithdrawal(withdrawal.id, owner).catch(() => {});
      }
    }
  };

  const followPermitDeposits = async () => {
    let pending;
    try {
      // Deposit-address forwardings and refunds have no request step either: followed here alike.
      pending = [
        ...(await ctx.store.listPendingSolverTransactions("permit-deposit", batch)),
        ...(await ctx.store.listPendingSolverTransactions("deposit-address-forward", batch)),
        ...(await ctx.store.listPendingSolverTransactions("deposit-address-refund", batch)),
      ];
    } catch (error) {
      ctx.log.warn({ err: errorFields(error) }, "reading the pending permit deposits failed; retrying next tick");
      return;
    }
    for (const tx of pending) {
      if (!ctx.clients.has(tx.chainId) || ctx.clients.get(tx.chainId).solverWallet?.account.address !== tx.address) continue;
      try {
        await withRpcDeadline(settings.stepTimeoutMs, `permit deposit ${tx.subject}`, () => ctx.transactions.follow({ chainId: tx.chainId, txNonce: tx.nonce }, { requestId: tx.subject }));
      } catch (error) {
        ctx.log.warn({ requestId: tx.subject, chainId: tx.chainId, txNonce: tx.nonce, err: errorFields(error) }, "following a permit deposit failed; retrying next tick");
      }
    }
  };

  // Final payments into deposit addresses, forwarded into the Depository (./depositAddress/). What these
  // passes find is chain state at the final block: a pass at the head the last clean pass ran at finds
  // nothing new, and is skipped (the deposit-address tables' reads were ~4 store queries per intent at 200
  // users, with no deposit address in use) — at most DEPOSIT_ADDRESS_PASS_MAX_SKIP_MS in a row, so a row
  // written meanwhile (a new quote's address, an operator's change) is still seen on a chain that stalls.
  const depositAddressPasses = new Map<number, { headHash: string; at: number }>();
  const forwardDepositPayments = async () => {
    for (const client of ctx.clients.all()) {
      if (!client.config.contracts.depositAddressFactory) continue;
      const head = client.head.known();
      const last = depositAddressPasses.get(client.config.id);
      if (head && last && last.headHash === head.hash && ctx.now().getTime() - last.at < DEPOSIT_ADDRESS_PASS_MAX_SKIP_MS) continue;
      let clean = true;
      try {
        await withRpcDeadline(settings.stepTimeoutMs, `deposit addresses on chain ${client.config.id}`, () => forwardDepositAddresses(ctx, client));
      } catch (error) {
        clean = false;
        ctx.log.warn({ chainId: client.config.id, err: errorFields(error) }, "forwarding deposit-address payments failed; retrying next tick");
      }
      // Payments after an address's decision (a second payment, one after its refund): refunds planned.
      try {
        await withRpcDeadline(settings.stepTimeoutMs, `deposit address later payments on chain ${client.config.id}`, () => refundLaterPayments(ctx, client));
      } catch (error) {
        clean = false;
        ctx.log.warn({ chainId: client.config.id, err: errorFields(error) }, "reading deposit addresses for later payments failed; retrying next tick");
      }
      // Addresses handed out on other chains, paid here by mistake: refunds planned on this chain.
      try {
        await withRpcDeadline(settings.stepTimeoutMs, `deposit addresses of other chains on chain ${client.config.id}`, () => refundOtherChainPayments(ctx, client));
      } catch (error) {
        clean = false;
        ctx.log.warn({ chainId: client.config.id, err: errorFields(error) }, "reading deposit addresses of other chains failed; retrying next tick");
      }
      // Mis-routed payments (too little, late, another currency, another chain): their refunds sent and confirmed.
      try {
        await withRpcDeadline(settings.stepTimeoutMs, `deposit address refunds on chain ${client.config.id}`, () => refundDepositAddresses(ctx, client));
      } catch (error) {
        clean = false;
        ctx.log.warn({ chainId: client.config.id, err: errorFields(error) }, "refunding deposit-address payments failed; retrying next tick");
      }
      // Open addresses: each payment found, re-quoted and forwarded (or refunded when it cannot be quoted).
      try {
        await withRpcDeadline(settings.stepTimeoutMs, `open deposit addresses on chain ${client.config.id}`, () => forwardOpenDepositAddresses(ctx, client));
        await withRpcDeadline(settings.stepTimeoutMs, `open deposit address refunds on chain ${client.config.id}`, () => refundOpenPayments(ctx, client));
      } catch (error) {
        clean = false;
        ctx.log.warn({ chainId: client.config.id, err: errorFields(error) }, "open deposit-address payments failed; retrying next tick");
      }
      if (clean && head) depositAddressPasses.set(client.config.id, { headHash: head.hash, at: ctx.now().getTime() });
    }
  };

  // Sponsorship holds of quotes never deposited for end here (../store/sponsorshipHolds.ts).
  const releaseUnusedSponsorships = async () => {
    try {
      for (const holdId of await ctx.store.listExpiredSponsorshipHolds(SPONSORSHIP_HOLD_GRACE_SECONDS, batch)) {
        await ctx.store.appBalances.release(holdId);
        ctx.log.info({ holdId }, "sponsorship hold of an unused quote released");
      }
    } catch (error) {
      ctx.log.warn({ err: errorFields(error) }, "releasing unused sponsorship holds failed; retrying next tick");
    }
  };

  // Every pass that follows no request's step, in one place: `tick()` and the running loops both run these.
  const backgroundPasses = async () => {
    await refundStrays();
    await payAppWithdrawals();
    await followPermitDeposits();
    await forwardDepositPayments();
    await releaseUnusedSponsorships();
  };

  let running: Promise<void> | null = null;
  const pass = async () => {
    const started = Date.now();
    await checkAllocators();
    await Promise.all(
      ctx.clients.all().map((client) =>
        withRpcDeadline(settings.stepTimeoutMs, `indexing chain ${client.config.id}`, () =>
          indexDeposits({ store: ctx.store, client, chains: ctx.chains, log: ctx.log }, indexOptions),
        ).catch((error: unknown) => {
          ctx.log.warn({ chainId: client.config.id, err: errorFields(error) }, "deposit indexing failed; retrying next tick");
        }),
      ),
    );
    let work: ClaimedWork[];
    try {
      work = await claimWork(batch, [...inFlight.keys()]);
    } catch (error) {
      ctx.log.warn({ err: errorFields(error) }, "reading the solver's work failed; retrying next tick");
      return;
    }
    const indexed = Date.now();
    // Every listed request, at most `concurrency` at once.
    const pool = pLimit(settings.concurrency);
    await Promise.all(work.filter((item) => !inFlight.has(item.id)).map((item) => pool(() => start(item))));
    await backgroundPasses();
    if (work.length > 0) ctx.log.debug({ indexMs: indexed - started, workMs: Date.now() - indexed, requests: work.length }, "solver tick");
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
  return {
    ctx,
    owner,
    tick,
    fillPool,
    waitsOn: (chainId) => waits.waitsOn(chainId),
    refundStrays,
    payAppWithdrawals,
    followPermitDeposits,
    forwardDepositPayments,
    backgroundPasses,
    checkAllocators,
    drain: async () => {
      await running;
      await Promise.allSettled([...inFlight.values()]);
      // Another replica takes these at once instead of after their leases lapse.
      await Promise.allSettled([...kept].map((id) => ctx.store.releaseRequest(id, owner)));
      kept.clear();
    },
  };
}

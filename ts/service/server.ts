/**
 * The service process: loads the configuration, builds the HTTP app and listens (127.0.0.1 unless
 * FERRY_HOST / server.host say otherwise). Owns shutdown: SIGINT/SIGTERM close the server (in-flight
 * requests finish, new ones get 503), a second signal or a 10 s timeout forces the exit.
 *
 * Operators run it with `ferry serve --config ferry.json` (ts/cli/commands/serve.ts: checks the chains,
 * contracts and database first and reports each stage); running this file directly still works:
 *   FERRY_CONFIG=ferry.json node ts/service/server.ts
 */
import { pathToFileURL } from "node:url";
import type { FastifyServerOptions } from "fastify";
import { Registry } from "prom-client";
import type { FerryConfig } from "./config/configSchema.ts";
import { loadConfig } from "./config/loadConfig.ts";
import { redactConfig } from "./config/redactConfig.ts";
import { buildApp, type AppDeps } from "./http/app.ts";
import { checkPriceSources } from "./prices/priceSourceCheck.ts";
import type { FerryApp } from "./http/ferryApp.ts";
import type { ReadinessCheck } from "./http/routes/ready.ts";
import { rpcReadinessCheck } from "./http/rpcReadinessCheck.ts";
import { createChainClients, type ChainClients } from "./chains/chainClients.ts";
import { createChainMetrics } from "./chains/chainMetrics.ts";
import { resolveAccounts, type ServiceAccounts } from "./chains/serviceAccounts.ts";
import { createTransactionIndexer } from "./solver/indexer/indexTransaction.ts";
import { createFastFiller } from "./solver/fill/fastFill.ts";
import { createPermitDepositSubmitter } from "./solver/fill/submitPermitDeposit.ts";
import { createRelayExecutor } from "./relay/relayExecution.ts";
import { createRelayer, startRelayFollower } from "./relay/relayer.ts";
import type { WorkerLoop } from "./worker/workerLoop.ts";
import { configuredStoreOptions } from "./store/configuredStore.ts";
import { createStore, type Store } from "./store/createStore.ts";
import { BACKGROUND_MIN_INTERVAL_MS, createSolverNonceManager, solverKeysConfigured, startSolver, type RunningSolver } from "./solver/startSolver.ts";
import type { NonceManager } from "./transactions/nonceManager.ts";
import { SILENT_LOG, type Logger } from "./logging/logger.ts";
import { configuredWebhookSecretKeys, requireReadableWebhookSecrets, type WebhookSecretAudit, type WebhookSecretKeys } from "./store/webhooks/webhookSecrets.ts";
import { startWebhookWorker, type RunningWebhookWorker, type WebhookWorkerSettings } from "./webhooks/webhookWorker.ts";

export const SHUTDOWN_TIMEOUT_MS = 10_000;
/** The chain watch ticks with the solver's poll, at most once a second. */
export const CHAIN_WATCH_MIN_INTERVAL_MS = 1_000;

/**
 * `store` is the service's store (opened here unless the caller passed one in `deps`); `solver` the
 * running solver and `webhooks` the webhook delivery worker, if started; `webhookSecrets` how the
 * stored webhook secrets stand against FERRY_WEBHOOK_SECRET_KEY (and _PREVIOUS), when it is set.
 */
export type RunningServer = {
  app: FerryApp;
  url: string;
  store: Store;
  solver?: RunningSolver;
  webhooks?: RunningWebhookWorker;
  webhookSecrets?: WebhookSecretAudit;
  close: () => Promise<void>;
};

/**
 * The solver runs in the service when `config.solver.enabled` (FERRY_SOLVER) and the solver, attester
 * and allocator keys are all configured, every `config.solver.pollIntervalMs` (FERRY_SOLVER_POLL_MS).
 * `false` or `{pollIntervalMs}` override the config for this call (tests, benches).
 */
export type ServerSolverOptions = false | { pollIntervalMs?: number };

/**
 * The webhook worker runs in the service when `config.webhooks.enabled` (FERRY_WEBHOOKS) and
 * FERRY_WEBHOOK_SECRET_KEY (`config.webhooks.secretKey`) is set. Its settings: `config.webhooks`;
 * `false` or a partial override it for this call (tests).
 */
export type ServerWebhookOptions = false | Partial<WebhookWorkerSettings>;

/**
 * Opens the store (PostgreSQL when `database.url` / DATABASE_URL is set, else PGlite under
 * `database.dataDir`; migrations applied), builds the app and listens on `config.server`. `deps`
 * default to RPC readiness checks per chain plus a database check; a `deps.store` given by the caller
 * is used as is and left open on close, the one opened here is closed after the server.
 */
export async function startServer(options: {
  config: FerryConfig;
  deps?: AppDeps;
  logger?: FastifyServerOptions["logger"];
  solver?: ServerSolverOptions;
  webhooks?: ServerWebhookOptions;
}): Promise<RunningServer> {
  const { config } = options;
  const ownStore = options.deps?.store === undefined;
  const store = options.deps?.store ?? (await createStore(configuredStoreOptions(config)));
  try {
    // A key that cannot read the stored webhook secrets would fail every delivery: refused before listening.
    const secretKeys = configuredWebhookSecretKeys(config.webhooks);
    const webhookSecrets = secretKeys ? await requireReadableWebhookSecrets(store.engine, secretKeys) : undefined;
    // Resolved and created once for the process: the app and the solver share them.
    const accounts = options.deps?.accounts ?? resolveAccounts(config);
    const solverPollMs = (options.solver ? options.solver.pollIntervalMs : undefined) ?? config.solver.pollIntervalMs;
    // One registry for the process: HTTP, store, RPC-per-URL and indexer metrics all on GET /metrics.
    const metricsRegistry = options.deps?.metricsRegistry ?? new Registry();
    const processLog = lateBoundLogger();
    const clients =
      options.deps?.chainClients ??
      createChainClients(config.chains, {
        ...(accounts.solver && { solver: accounts.solver }),
        ...(accounts.attester && { attester: accounts.attester }),
        pollingIntervalMs: Math.min(solverPollMs, 1000),
        metrics: createChainMetrics(metricsRegistry),
        // A polled head is shared for at most one solver poll: the indexer, the steps, the fee oracle and the chain watch read it.
        headMaxAgeMs: Math.min(solverPollMs, 1000),
        onHeadMode: (chainId, mode, reason) => processLog.info({ chainId, mode, reason }, "chain head followed by " + mode),
      });
    // One nonce manager of the solver's key for the process: the solver and the permit-deposit
    // submitter share it (its log is the app's, bound once the app exists).
    const transactions = createSolverNonceManager({ config, store, clients, log: processLog });
    // POST /execute: the relayer's own nonce manager (its key, its nonces), when the relayer key is set.
    const relayer = accounts.relayer ? createRelayer({ config, store, clients, relayer: accounts.relayer, log: processLog }) : undefined;
    const deps: AppDeps = {
      checks: [...clients.all().map(rpcReadinessCheck), databaseReadinessCheck(store)],
      // Each chain's health (GET /chains, /ready, the quote's refusals): one observation per chain per tick.
      chainWatchIntervalMs: Math.max(CHAIN_WATCH_MIN_INTERVAL_MS, solverPollMs),
      metricsRegistry,
      accounts,
      chainClients: clients,
      transactionIndexer: createTransactionIndexer({ store, clients, chains: config.chains }),
      fastFiller: createFastFiller({ store, clients, chains: config.chains }),
      permitSubmitter: createPermitDepositSubmitter({
        store,
        clients,
        chains: config.chains,
        allocator: accounts.allocator,
        attester: accounts.attester,
        transactions,
        maxGas: BigInt(config.solver.maxGasPerTransaction),
        failuresPerUserPerHour: config.rateLimits.failedPermitsPerUserPerHour,
      }),
      ...(relayer && {
        executor: createRelayExecutor({
          store,
          clients,
          chains: config.chains,
          relayer: accounts.relayer,
          transactions: relayer.transactions,
          fees: relayer.fees,
          maxTransactionFee: relayer.maxTransactionFee,
          maxGas: BigInt(config.solver.maxGasPerTransaction),
        }),
      }),
      ...options.deps,
      store,
    };
    // Price sources read onchain and checked against the config (pair tokens, decimals, feeds): a
    // mismatch is CONFIG_INVALID and the service does not start.
    await checkPriceSources(config.chains, config.quotes.priceSources, { get: (chainId) => (clients.has(chainId) ? clients.get(chainId).publicClient : undefined) });
    const app = await buildApp({ config, deps, logger: options.logger ?? false });
    if (ownStore) app.addHook("onClose", async () => store.close());
    let url: string;
    try {
      url = await app.listen({ host: config.server.host, port: config.server.port });
    } catch (error) {
      // The app was made ready before the listen failed (a port in use): what its ready hooks started
      // (the chain watch) stops, or the process would not exit.
      await app.close().catch(() => {});
      throw error;
    }
    app.log.info({ config: redactConfig(config), database: store.engine.kind }, "ferry service listening");
    const log = serviceLogger(app);
    processLog.bind(log);
    const solver = maybeStartSolver({ config, store, log, accounts, clients, metricsRegistry, transactions }, options.solver);
    const relayFollower: WorkerLoop | undefined =
      relayer && accounts.relayer
        ? // A background pass like the solver's (at most once a second): it settles holds and ends execution requests after their transactions.
          startRelayFollower({ store, clients, transactions: relayer.transactions, relayer: accounts.relayer, intervalMs: Math.max(solverPollMs, BACKGROUND_MIN_INTERVAL_MS), log })
        : undefined;
    if (webhookSecrets && webhookSecrets.previous > 0) {
      log.warn({ previous: webhookSecrets.previous }, "webhook secrets still under FERRY_WEBHOOK_SECRET_KEY_PREVIOUS: run ferry webhooks rotate-secret-key");
    }
    const webhooks = secretKeys ? maybeStartWebhooks(config, store, log, secretKeys, options.webhooks) : logWebhooksOff(config, log, options.webhooks);
    // The solver and the webhook worker stop (in-flight work finishes or is left under its lease) before
    // the app closes, and so before the store does.
    const close = async () => {
      await Promise.all([solver?.stop(), webhooks?.stop(), relayFollower?.stop()]);
      await app.close();
      if (!options.deps?.chainClients) clients.close();
    };
    return { app, url, store, ...(solver ? { solver } : {}), ...(webhooks ? { webhooks } : {}), ...(webhookSecrets ? { webhookSecrets } : {}), close };
  } catch (error) {
    if (ownStore) await store.close().catch(() => {});
    throw error;
  }
}

/** The app's pino logger in the service's one Logger shape (logging/logger.ts). */
/** A logger whose target is set later (what is logged before `bind` is dropped). */
function lateBoundLogger(): Logger & { bind(target: Logger): void } {
  let target: Logger = SILENT_LOG;
  return {
    bind: (next) => void (target = next),
    debug: (obj, msg) => target.debug(obj, msg),
    info: (obj, msg) => target.info(obj, msg),
    warn: (obj, msg) => target.warn(obj, msg),
    error: (obj, msg) => target.error(obj, msg),
  };
}

function serviceLogger(app: FerryApp): Logger {
  const log: Logger = app.log;
  return log;
}

function maybeStartSolver(
  {
    config,
    store,
    log,
    accounts,
    clients,
    metricsRegistry,
    transactions,
  }: { config: FerryConfig; store: Store; log: Logger; accounts: ServiceAccounts; clients: ChainClients; metricsRegistry: Registry; transactions: NonceManager },
  options: ServerSolverOptions | undefined,
): RunningSolver | undefined {
  if (options === false || !config.solver.enabled) return undefined;
  if (!solverKeysConfigured(config)) {
    log.info({}, "solver not started: the solver, attester and allocator keys are not all configured");
    return undefined;
  }
  const pollIntervalMs = options?.pollIntervalMs ?? config.solver.pollIntervalMs;
  log.info({ solver: config.accounts.solver, pollIntervalMs, concurrency: config.solver.concurrency }, "solver started");
  return startSolver({ config, store, log, pollIntervalMs, accounts, clients, metricsRegistry, transactions });
}

function maybeStartWebhooks(config: FerryConfig, store: Store, log: Logger, keys: WebhookSecretKeys, options: ServerWebhookOptions | undefined): RunningWebhookWorker | undefined {
  if (options === false || !config.webhooks.enabled) return undefined;
  const { secretKey: _secretKey, previousSecretKey: _previousSecretKey, enabled: _enabled, ...configured } = config.webhooks;
  const overrides = Object.fromEntries(Object.entries(options ?? {}).filter(([, value]) => value !== undefined));
  const settings: WebhookWorkerSettings = { ...configured, ...overrides };
  log.info({ webhooks: settings }, "webhook worker started");
  return startWebhookWorker({ store, settings, secretKey: keys.current, ...(keys.previous ? { previousSecretKey: keys.previous } : {}), log });
}

/** Without FERRY_WEBHOOK_SECRET_KEY no worker runs; said once, at info, when it would have. */
function logWebhooksOff(config: FerryConfig, log: Logger, options: ServerWebhookOptions | undefined): undefined {
  if (options !== false && config.webhooks.enabled) log.info({}, "webhook worker not started: FERRY_WEBHOOK_SECRET_KEY is not set");
  return undefined;
}

/** Readiness: the database answers a trivial query. */
export function databaseReadinessCheck(store: Store): ReadinessCheck {
  return { name: "database", check: async () => void (await store.engine.query("SELECT 1")) };
}

/**
 * One Ctrl-C can arrive more than once: the terminal signals the whole foreground process group, and
 * `npm start`, `npx` and the `ferry` bin also forward the signal to their child. A repeat within this
 * window is that same Ctrl-C; only a signal after it is a second one (which exits at once).
 */
export const SAME_SIGNAL_WINDOW_MS = 1_000;

/** Whether a signal at `now` is a second one after a first at `firstAt` (ms), not a repeat of it. */
export function isSecondSignal(firstAt: number, now: number): boolean {
  return now - firstAt >= SAME_SIGNAL_WINDOW_MS;
}

/** What delivers the signals (the process; an EventEmitter in tests). */
export type SignalSource = Pick<NodeJS.Process, "on" | "off">;

/** Closes `server` on SIGINT/SIGTERM; returns a function that removes the handlers. */
export function closeOnSignals(
  server: RunningServer,
  exit: (code: number) => void = process.exit,
  signals: SignalSource = process,
): () => void {
  let closingSince: number | undefined;
  const onSignal = (signal: NodeJS.Signals) => {
    if (closingSince !== undefined) {
      if (!isSecondSignal(closingSince, Date.now())) return;
      server.app.log.warn({ signal }, "second signal: exiting now");
      exit(1);
      return;
    }
    closingSince = Date.now();
    server.app.log.info({ signal }, "shutting down");
    const force = setTimeout(() => {
      server.app.log.error("shutdown timed out: exiting");
      exit(1);
    }, SHUTDOWN_TIMEOUT_MS);
    force.unref();
    server.close().then(
      () => {
        clearTimeout(force);
        exit(0);
      },
      (error: unknown) => {
        clearTimeout(force);
        server.app.log.error({ err: { message: (error as Error).message } }, "shutdown failed");
        exit(1);
      },
    );
  };
  signals.on("SIGINT", onSignal);
  signals.on("SIGTERM", onSignal);
  return () => {
    signals.off("SIGINT", onSignal);
    signals.off("SIGTERM", onSignal);
  };
}

async function main(): Promise<void> {
  let config: FerryConfig;
  try {
    config = await loadConfig();
  } catch (error) {
    // ConfigInvalidError messages name the field, never the value.
    process.stderr.write(`ferry: ${(error as Error).message}\n`);
    process.exit(1);
  }
  const server = await startServer({ config, logger: { level: config.log.level } });
  closeOnSignals(server);
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  await main();
}

/**
 * `buildApp({config, deps})`: the HTTP API as a Fastify instance, routes registered, not listening
 * (`server.ts` listens and owns shutdown; tests listen on an ephemeral loopback port). Everything with
 * I/O beyond the config — API keys, readiness checks — is injected through `deps`.
 */
import swagger from "@fastify/swagger";
import swaggerUi from "@fastify/swagger-ui";
import { registerAjvFormats } from "@fastify/type-provider-typebox";
import Fastify, { type FastifyServerOptions } from "fastify";
import { Counter, type Registry } from "prom-client";
import type { FerryConfig } from "../config/configSchema.ts";
import { secretValues } from "../config/redactConfig.ts";
import { cachedApiKeyVerifier } from "./apiKeyCache.ts";
import { installApiKeyRateLimit, NO_API_KEYS } from "./apiKeyRateLimit.ts";
import { clientErrorHandler, formatValidationErrors, frameworkErrorHandler, installErrorHandlers, notFoundBody } from "./errorHandler.ts";
import type { FerryApp, FerryTypeProvider } from "./ferryApp.ts";
import { installHttpMetrics } from "./metrics/httpMetrics.ts";
import { installStoreMetrics } from "./metrics/storeMetrics.ts";
import { installSloMetrics } from "./metrics/sloMetrics.ts";
import { installAppBalanceMetrics } from "./metrics/appBalanceMetrics.ts";
import { installStrictQueryIntegers } from "./strictQueryIntegers.ts";
import { installWellFormedText } from "./wellFormedText.ts";
import { boundedValidatorCompiler } from "./validatorCompiler.ts";
import { createStatusRecordCache } from "./statusRecordCache.ts";
import { installCors } from "./cors.ts";
import type { Store } from "../store/createStore.ts";
import { apiKeyStore, type ApiKeyVerifier } from "../store/apiKeys.ts";
import { registerChainsRoute } from "./routes/chains.ts";
import { registerAppFeeBalancesRoute } from "./routes/appFeeBalances.ts";
import { registerAppFeeClaimRoute } from "./routes/appFeeClaim.ts";
import { registerAppBalanceRoute } from "./routes/appBalance.ts";
import { registerAppBalanceDepositsRoute } from "./routes/appBalanceDeposits.ts";
import { registerAppBalanceWithdrawalsRoute } from "./routes/appBalanceWithdrawals.ts";
import { registerExecutePermitsRoute, type PermitDepositSubmitter } from "./routes/executePermits.ts";
import { registerExecuteRoute, type Executor } from "./routes/execute.ts";
import { registerIntentStatusRoutes } from "./routes/intentStatus.ts";
import { registerRequestReceiptRoute } from "./routes/requestReceipt.ts";
import { registerRequestWebhookDeliveriesRoute } from "./routes/requestWebhookDeliveries.ts";
import { registerExplorerPageRoutes } from "./routes/explorerPage.ts";
import { registerExplorerAssetRoutes } from "./routes/explorerAssets.ts";
import { explorerFiles } from "./explorerAssets.ts";
import { registerRequestSignatureRoute } from "./routes/requestSignature.ts";
import { registerRequestsRoute } from "./routes/requests.ts";
import { registerTransactionsIndexRoute, type TransactionIndexer } from "./routes/transactionsIndex.ts";
import { registerFastFillRoute, type FastFiller } from "./routes/fastFill.ts";
import { registerQuoteRoute } from "./routes/quote.ts";
import { registerTransactionsSingleRoute } from "./routes/transactionsSingle.ts";
import { createChainClients, type ChainClients } from "../chains/chainClients.ts";
import { resolveAccounts, type ServiceAccounts } from "../chains/serviceAccounts.ts";
import { createQuoteService } from "../quote/quoteService.ts";
import { createSolverInventory, type SolverInventory } from "../chains/solverInventory.ts";
import { installInventoryMetrics } from "./metrics/inventoryMetrics.ts";
import { registerHealthRoute } from "./routes/health.ts";
import { registerMetricsRoute } from "./routes/metrics.ts";
import { openApiOptions, registerOpenApiRoute } from "./routes/openapi.ts";
import { registerLlmsTxtRoute } from "./routes/llmsTxt.ts";
import { registerReadyRoute, type ReadinessCheck } from "./routes/ready.ts";
import { createChainWatch, type ChainWatch } from "../chains/chainWatch.ts";
import { requestLogSerializer } from "./requestLogSerializer.ts";
import { registerWebsocketRoute } from "../websocket/websocketRoute.ts";
import { adminOperations } from "../admin/adminOperations.ts";
import { registerAdminRoutes } from "./admin/adminRoutes.ts";

export const API_VERSION = "1.0.0";

// String formats (`uri`, `date-time`, …) for TypeBox's global format registry.
registerAjvFormats();

export type AppDeps = {
  /**
   * The store (../store/createStore.ts). With it, the request routes (status, requests, signature)
   * and the websocket (../websocket/README.md; unless `websocket.enabled` is false) are registered
   * and API keys default to the store's. Without it (tests of the other routes) they are absent.
   */
  store?: Store;
  /** Verifies `x-api-key` headers. Default: the store's keys with a store, else none (every key is 401). */
  apiKeys?: ApiKeyVerifier;
  /** Readiness checks behind GET /ready (database, RPC reachability, …). */
  checks?: readonly ReadinessCheck[];
  /** Per-check timeout of GET /ready. Default READINESS_TIMEOUT_MS (2 s). */
  readinessTimeoutMs?: number;
  /** Registry for the HTTP metrics (and whatever else the caller registers). Default: a new one. */
  metricsRegistry?: Registry;
  /** The process's chain clients (the quote route's gas prices, allowances). Default: created from the config. */
  chainClients?: ChainClients;
  /** The signing accounts (solver: orderSignature; attester: the signature route). Default: resolved from the config. */
  accounts?: ServiceAccounts;
  /** The deposit indexer behind POST /transactions/index; the route is registered only with it (and a store). */
  transactionIndexer?: TransactionIndexer;
  /** The solver's fast fill behind POST /fast-fill; the route is registered only with it (and a store). */
  fastFiller?: FastFiller;
  /**
   * The solver's inventory (capacity in GET /chains, the quote's capacity check, inventory metrics).
   * Default: read from the chain clients and the store when both and the solver key are there.
   */
  inventory?: SolverInventory;
  /** Submits the deposits of usePermit quotes (POST /execute/permits, registered only with it and a store). */
  permitSubmitter?: PermitDepositSubmitter;
  /** Relays POST /execute's calls (registered only with it and a store). */
  executor?: Executor;
  /**
   * Watches each chain's health (../chains/chainWatch.ts) every this many ms, from the app's start to
   * its close: GET /chains, GET /ready and the quote show it. server.ts sets it; absent (and no
   * `chainWatch`): the operator's switches alone.
   */
  chainWatchIntervalMs?: number;
  /** A chain watch built by the caller, who starts and stops it (tests tick it by hand). */
  chainWatch?: ChainWatch;
};

export type BuildAppOptions = {
  config: FerryConfig;
  deps?: AppDeps;
  /** Fastify's `logger` option (pino options, e.g. `{level, stream}`); default off. */
  logger?: FastifyServerOptions["logger"];
};

/** Headers that may carry credentials never reach the log. */
const LOG_REDACT = ['req.headers["x-api-key"]', "req.headers.authorization", "req.headers.cookie"];

export async function buildApp({ config, deps = {}, logger = false }: BuildAppOptions): Promise<FerryApp> {
  const secrets = secretValues(config);
  const apiKeys = cachedApiKeyVerifier(deps.apiKeys ?? (deps.store ? apiKeyStore(deps.store) : NO_API_KEYS), {
    ttlMs: config.server.apiKeyCacheSeconds * 1000,
  });
  const app = Fastify({
    // The request serializer blanks an `apiKey` query parameter (the websocket's) out of logged URLs.
    logger: typeof logger === "object" && logger !== null ? { redact: LOG_REDACT, serializers: { req: requestLogSerializer }, ...logger } : logger,
    bodyLimit: config.server.bodyLimitBytes,
    schemaErrorFormatter: formatValidationErrors,
    clientErrorHandler,
    // The router's own errors (bad URL encoding, an overlong path parameter) get the service's error body too.
    frameworkErrors: frameworkErrorHandler,
    return503OnClosing: true,
    // Long path params reach the route's schema (a 400 naming the param) instead of the router's 414.
    routerOptions: { maxParamLength: 8_192 },
  }).withTypeProvider<FerryTypeProvider>();
  // TypeBox validates: query strings and path params are converted to the schema's types, bodies are
  // taken as sent (no coercion of "5" into 5), and unknown fields are a 400 naming them, never
  // silently dropped (schemas say additionalProperties: false). A failing value's error report is
  // built from a bounded copy of it (./validatorCompiler.ts), so a body of 90,000 unknown keys costs
  // its parse, not 30× that.
  app.setValidatorCompiler(boundedValidatorCompiler);

  installErrorHandlers(app, secrets);
  // First of the onRequest hooks: every answer, errors included, carries the CORS headers.
  await installCors(app, config.server.corsOrigins);
  installStrictQueryIntegers(app);
  installWellFormedText(app);

  await app.register(swagger, openApiOptions(config, API_VERSION));

  await installApiKeyRateLimit(app, {
    apiKeys,
    anonymousPerMinute: config.rateLimits.anonymousPerMinute,
    apiKeyPerMinute: config.rateLimits.apiKeyPerMinute,
  });
  const { registry } = installHttpMetrics(app, deps.metricsRegistry);

  app.setNotFoundHandler({ preHandler: app.rateLimit() }, async (request, reply) => reply.code(404).send(notFoundBody(request)));

  // The docs page is served from @fastify/swagger-ui's bundled assets (no CDN).
  await app.register(swaggerUi, { routePrefix: "/docs" });

  registerHealthRoute(app);
  const chainClients = deps.chainClients ?? createChainClients(config.chains);
  // Clients the app made itself: their head subscriptions (../chains/chainHead.ts) end with it.
  if (!deps.chainClients) app.addHook("onClose", async () => chainClients.close());
  const solverAddress = config.accounts.solver;
  const inventory =
    deps.inventory ?? (deps.store && solverAddress ? createSolverInventory({ chains: config.chains, clients: chainClients, store: deps.store, solver: solverAddress }) : undefined);
  const watch = deps.chainWatch ?? (deps.chainWatchIntervalMs === undefined ? undefined : ownChainWatch(app, { config, clients: chainClients, store: deps.store, inventory, intervalMs: deps.chainWatchIntervalMs }));
  registerReadyRoute(app, {
    checks: deps.checks ?? [],
    secrets,
    ...(deps.readinessTimeoutMs ? { timeoutMs: deps.readinessTimeoutMs } : {}),
    ...(watch && { watch: { chains: config.chains, health: watch.health } }),
  });
  registerMetricsRoute(app, registry);
  registerChainsRoute(app, {
    chains: config.chains,
    solverAddress,
    attesterAddress: config.accounts.attester,
    strayRefundMinimumUsd: config.solver.strayRefundMinimumUsd,
    ...(inventory && { inventory }),
    ...(watch && { watch }),
  });
  if (inventory) installInventoryMetrics(registry, { chains: config.chains, inventory });
  if (deps.store) {
    installStoreMetrics(registry, deps.store);
    const slo = installSloMetrics(app, registry, {
      store: deps.store,
      expectedFillSeconds: config.quotes.timeEstimateSeconds,
      reclaimAlertSeconds: Math.floor(config.quotes.reclaimWindowSeconds / 2),
      publicClientOf: (chainId) => (chainClients.has(chainId) ? chainClients.get(chainId).publicClient : undefined),
      headOf: (chainId) => (chainClients.has(chainId) ? chainClients.get(chainId).head : undefined),
      onError: (error) => app.log.debug({ err: error }, "fill latency in blocks not measured"),
    });
    app.addHook("onClose", async () => slo.stop());
    installAppBalanceMetrics(registry, deps.store);
    const accounts = deps.accounts ?? resolveAccounts(config);
    // What the status route's polls cost the store (bench:intent-cost takes exactly these off an intent's queries).
    const statusStoreReads = new Counter({ name: "ferry_status_store_reads_total", help: "Store statements issued by status reads the status cache did not answer", registers: [registry] });
    const statusRecords = createStatusRecordCache({ store: deps.store, refreshMs: config.server.statusCacheRefreshMs, log: app.log, onStoreRead: () => statusStoreReads.inc() });
    app.addHook("onReady", async () => statusRecords.start());
    // preClose: the refresh must stop before server.ts's onClose hook closes the store.
    app.addHook("preClose", async () => statusRecords.stop());
    registerIntentStatusRoutes(app, { statusRecords, ...(watch && { watch: { chainIds: config.chains.map((chain) => chain.id), health: watch.health } }) });
    registerRequestsRoute(app, { store: deps.store });
    registerRequestSignatureRoute(app, { store: deps.store, chains: config.chains, attester: accounts.attester });
    registerRequestReceiptRoute(app, { store: deps.store, chains: config.chains, clients: chainClients });
    registerRequestWebhookDeliveriesRoute(app, { store: deps.store });
    // The explorer page (../../explorer) reads the request routes above, so it is served with them.
    const explorer = explorerFiles();
    registerExplorerPageRoutes(app, { files: explorer });
    registerExplorerAssetRoutes(app, { files: explorer });
    if (deps.transactionIndexer) {
      registerTransactionsIndexRoute(app, { indexer: deps.transactionIndexer });
      registerTransactionsSingleRoute(app, { indexer: deps.transactionIndexer });
    }
    if (deps.fastFiller) registerFastFillRoute(app, { filler: deps.fastFiller });
    if (deps.permitSubmitter) registerExecutePermitsRoute(app, { submitter: deps.permitSubmitter });
    if (deps.executor) registerExecuteRoute(app, { executor: deps.executor });
    const quotes = createQuoteService({
      chains: config.chains,
      settings: config.quotes,
      clients: { get: (chainId) => (chainClients.has(chainId) ? chainClients.get(chainId).publicClient : undefined) },
      solver: accounts.solver,
      store: deps.store,
      ...(inventory && { inventory }),
      ...(accounts.attester && { attester: accounts.attester }),
      // The chain reads are cached per head the watch has seen (../chains/blockReadCache.ts).
      ...(watch && { chainHealth: watch.health, heads: watch.head }),
    });
    // Sponsorship spends an app's balance: its key is verified again, uncached (routes/quote.ts).
    registerQuoteRoute(app, { quotes, referrers: apiKeyStore(deps.store), sponsorKeys: deps.apiKeys ?? apiKeyStore(deps.store) });
    registerAppFeeBalancesRoute(app, { chains: config.chains, clients: chainClients });
    registerAppFeeClaimRoute(app, { chains: config.chains, clients: chainClients });
    registerAppBalanceRoute(app, { ledger: deps.store.appBalances });
    registerAppBalanceDepositsRoute(app, { chains: config.chains, store: deps.store, ...(config.appBalances && { settings: config.appBalances }) });
    registerAppBalanceWithdrawalsRoute(app, { chains: config.chains, store: deps.store, ...(config.appBalances && { settings: config.appBalances }) });
    if (config.websocket.enabled) await registerWebsocketRoute(app, { store: deps.store, settings: config.websocket, registry, secrets });
    // The operator's admin API (./admin/adminRoutes.ts): only with FERRY_ADMIN_TOKEN.
    if (config.admin.token) await registerAdminRoutes(app, { admin: adminOperations(deps.store, config), token: config.admin.token });
  }
  registerOpenApiRoute(app);
  registerLlmsTxtRoute(app, deps.store && config.websocket.enabled ? { websocketPath: config.websocket.path } : {});
  return app;
}

/** A chain watch the app owns: started when the app is ready, stopped before it closes (before the store). */
function ownChainWatch(
  app: FerryApp,
  options: { config: FerryConfig; clients: ChainClients; store: Store | undefined; inventory: SolverInventory | undefined; intervalMs: number },
): ChainWatch {
  const watch = createChainWatch({
    chains: options.config.chains,
    clients: options.clients,
    ...(options.store && { store: options.store }),
    ...(options.inventory && { inventory: options.inventory }),
    intervalMs: options.intervalMs,
    log: app.log,
  });
  app.addHook("onReady", async () => watch.start());
  app.addHook("preClose", async () => watch.stop());
  return watch;
}

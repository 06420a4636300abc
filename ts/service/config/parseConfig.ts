/**
 * Pure configuration parsing: the parsed config file (JSON value) plus an environment map in, a
 * validated configuration out. No file or process access here (see `loadConfig.ts`), so every rule
 * is testable with plain objects.
 *
 * Environment overrides: FERRY_HOST, FERRY_PORT, DATABASE_URL, FERRY_DATA_DIR, FERRY_DEPLOYMENTS_DIR,
 * FERRY_SOLVER (on|off), FERRY_SOLVER_POLL_MS, FERRY_SOLVER_CONCURRENCY, FERRY_SOLVER_MAX_GAS,
 * FERRY_SOLVER_FILL_DEADLINE_MARGIN_SECONDS, FERRY_STRAY_REFUND_MINIMUM_USD, FERRY_STRAY_REFUND_GAS_FACTOR, FERRY_PRICE_BAND_BPS, FERRY_TOPUP_GAS_MAX_USD,
 * FERRY_FAILED_PERMITS_PER_USER_PER_HOUR, FERRY_WEBHOOKS (on|off), FERRY_LOG_LEVEL,
 * FERRY_ADMIN_TOKEN, FERRY_RPC_URLS_<chainId> (comma-separated, that chain's rpcUrls), FERRY_RPC_TIMEOUT_MS and
 * FERRY_RPC_RETRY_COUNT (every chain), FERRY_DB_POOL_SIZE, FERRY_DB_CONNECT_TIMEOUT_MS, FERRY_DB_STATEMENT_TIMEOUT_MS,
 * FERRY_DB_IDLE_IN_TRANSACTION_TIMEOUT_MS; an empty
 * variable counts as unset, a malformed one is CONFIG_INVALID naming it. Private keys only from the env names in `keyEnv` (default FERRY_ALLOCATOR_KEY, FERRY_ATTESTER_KEY,
 * FERRY_SOLVER_KEY, FERRY_RELAYER_KEY); the webhook secret key only from FERRY_WEBHOOK_SECRET_KEY (and,
 * during a rotation, the previous one from FERRY_WEBHOOK_SECRET_KEY_PREVIOUS).
 */
import { isAbsolute, resolve } from "node:path";
import { Value } from "typebox/value";
import { isEip55Address } from "../../core/inputParsers.ts";
import { privateKeyToAddress } from "viem/accounts";
import type { DeploymentRecord } from "../../deploy/deploymentRecord.ts";
import { ConfigInvalidError } from "./configErrors.ts";
import { addressFilter } from "./addressFilter.ts";
import { canonicalAddress, type Address } from "../model/values.ts";
import { BUDGETED_PURPOSES, type ExposureLimits } from "../balances/exposureBudget.ts";
import {
  ADMIN_TOKEN_LENGTH,
  CONFIG_DEFAULTS,
  ConfigFileSchema,
  DATABASE_POOL_SIZE_RANGE,
  DATABASE_TIMEOUT_MS_RANGE,
  DEFAULT_MAX_RESERVE_BPS,
  DEFAULT_PRICE_REFERENCE,
  PRICE_BAND_BPS_RANGE,
  type AdminSettings,
  type AppBalanceSettings,
  KEY_ROLES,
  LOG_LEVELS,
  RPC_RETRY_COUNT_RANGE,
  RPC_TIMEOUT_MS_RANGE,
  SOLVER_POLL_MS_RANGE,
  SOLVER_MAX_GAS_RANGE,
  REPAYMENT_BATCH_MAX_SIZE,
  REPAYMENT_BATCH_GAS,
  SOLVER_DEADLINE_MARGIN_RANGE,
  type ChainConfig,
  type ConfigFile,
  type DatabaseSettings,
  type FerryConfig,
  type KeyRole,
  type LogLevel,
  type LogSettings,
  type QuoteSettings,
  type RpcSettings,
  type SolverSettings,
  type UnresolvedChainConfig,
  type UnresolvedFerryConfig,
  type WebhookSettings,
} from "./configSchema.ts";
import { Secret } from "./secret.ts";

export type Env = Readonly<Record<string, string | undefined>>;

/** `/chains/0/rpcUrl` → `chains[0].rpcUrl`. */
export function fieldName(instancePath: string): string {
  return instancePath
    .split("/")
    .slice(1)
    .map((part) => part.replace(/~1/g, "/").replace(/~0/g, "~"))
    .reduce((name, part) => (/^\d+$/.test(part) ? `${name}[${part}]` : name ? `${name}.${part}` : part), "");
}

/** Validates the file against ConfigFileSchema; the first error becomes CONFIG_INVALID naming its field. */
export function validateConfigFile(json: unknown): ConfigFile {
  if (typeof json !== "object" || json === null || Array.isArray(json)) {
    throw new ConfigInvalidError("(root)", "the config must be a JSON object");
  }
  const errors = Value.Errors(ConfigFileSchema, json);
  // The additionalProperties error names the unknown key; prefer it over the schema-false error on the same path.
  const error = errors.find((e) => e.keyword !== "boolean") ?? errors[0];
  if (error) {
    const params = error.params as { additionalProperties?: string[] };
    const base = fieldName(error.instancePath);
    if (error.keyword === "additionalProperties" && params.additionalProperties?.length) {
      const unknown = params.additionalProperties[0]!;
      throw new ConfigInvalidError(base ? `${base}.${unknown}` : unknown, "unknown field");
    }
    throw new ConfigInvalidError(base || "(root)", error.message);
  }
  return json as ConfigFile;
}

function envPort(env: Env): number | undefined {
  const raw = env.FERRY_PORT;
  if (raw === undefined || raw === "") return undefined;
  if (!/^\d{1,5}$/.test(raw) || Number(raw) > 65_535) {
    throw new ConfigInvalidError("FERRY_PORT", "must be an integer between 0 and 65535");
  }
  return Number(raw);
}

/** An on|off switch from the environment; undefined when unset or empty. */
function envSwitch(env: Env, name: string): boolean | undefined {
  const raw = env[name];
  if (raw === undefined || raw === "") return undefined;
  if (raw === "on") return true;
  if (raw === "off") return false;
  throw new ConfigInvalidError(name, 'must be "on" or "off"');
}

/** A decimal integer from the environment within [minimum, maximum]; undefined when unset or empty. */
function envInteger(env: Env, name: string, range: { minimum: number; maximum: number }): number | undefined {
  const raw = env[name];
  if (raw === undefined || raw === "") return undefined;
  const value = /^\d{1,15}$/.test(raw) ? Number(raw) : NaN;
  if (!(value >= range.minimum && value <= range.maximum)) {
    throw new ConfigInvalidError(name, `must be an integer between ${range.minimum} and ${range.maximum}`);
  }
  return value;
}

/** A USD amount from the environment (as the file's UsdAmount); undefined when unset or empty. */
function envUsd(env: Env, name: string): string | undefined {
  const raw = env[name];
  if (raw === undefined || raw === "") return undefined;
  if (!/^(0|[1-9][0-9]{0,14})(\.[0-9]{1,8})?$/.test(raw)) throw new ConfigInvalidError(name, "must be a USD amount with at most 8 decimals");
  return raw;
}

/** A multiplier from the environment: 1 to 1000 with at most 2 decimals; undefined when unset or empty. */
function envFactor(env: Env, name: string): number | undefined {
  const raw = env[name];
  if (raw === undefined || raw === "") return undefined;
  const value = Number(raw);
  if (!/^[0-9]{1,4}(\.[0-9]{1,2})?$/.test(raw) || value < 1 || value > 1000) throw new ConfigInvalidError(name, "must be a number from 1 to 1000 with at most 2 decimals");
  return value;
}

function solverSettings(file: ConfigFile["solver"], env: Env): SolverSettings {
  const defaults = CONFIG_DEFAULTS.solver;
  const settings: SolverSettings = {
    enabled: envSwitch(env, "FERRY_SOLVER") ?? file?.enabled ?? defaults.enabled,
    pollIntervalMs: envInteger(env, "FERRY_SOLVER_POLL_MS", SOLVER_POLL_MS_RANGE) ?? file?.pollIntervalMs ?? defaults.pollIntervalMs,
    concurrency: envInteger(env, "FERRY_SOLVER_CONCURRENCY", { minimum: 1, maximum: 10_000 }) ?? file?.concurrency ?? defaults.concurrency,
    concurrencyPerChain: file?.concurrencyPerChain ?? defaults.concurrencyPerChain,
    leaseMs: file?.leaseMs ?? defaults.leaseMs,
    stepTimeoutMs: file?.stepTimeoutMs ?? defaults.stepTimeoutMs,
    replaceAfterMs: file?.replaceAfterMs ?? defaults.replaceAfterMs,
    maxGasPerTransaction: envInteger(env, "FERRY_SOLVER_MAX_GAS", SOLVER_MAX_GAS_RANGE) ?? file?.maxGasPerTransaction ?? defaults.maxGasPerTransaction,
    fillDeadlineMarginSeconds:
      envInteger(env, "FERRY_SOLVER_FILL_DEADLINE_MARGIN_SECONDS", SOLVER_DEADLINE_MARGIN_RANGE) ?? file?.fillDeadlineMarginSeconds ?? defaults.fillDeadlineMarginSeconds,
    strayRefundMinimumUsd: envUsd(env, "FERRY_STRAY_REFUND_MINIMUM_USD") ?? file?.strayRefundMinimumUsd ?? defaults.strayRefundMinimumUsd,
    strayRefundGasFactor: envFactor(env, "FERRY_STRAY_REFUND_GAS_FACTOR") ?? file?.strayRefundGasFactor ?? defaults.strayRefundGasFactor,
    repaymentBatch: {
      maxSize: envInteger(env, "FERRY_REPAYMENT_BATCH_MAX_SIZE", { minimum: 1, maximum: REPAYMENT_BATCH_MAX_SIZE }) ?? file?.repaymentBatch?.maxSize ?? defaults.repaymentBatch.maxSize,
      maxWaitMs: file?.repaymentBatch?.maxWaitMs ?? defaults.repaymentBatch.maxWaitMs,
    },
  };
  // A step must stop starting transactions while its lease certainly still runs.
  if (settings.stepTimeoutMs >= settings.leaseMs) throw new ConfigInvalidError("solver.stepTimeoutMs", "must be less than solver.leaseMs");
  const batchGas = REPAYMENT_BATCH_GAS.base + REPAYMENT_BATCH_GAS.perMember * settings.repaymentBatch.maxSize;
  if (settings.repaymentBatch.maxSize > 1 && batchGas > settings.maxGasPerTransaction) {
    throw new ConfigInvalidError("solver.repaymentBatch.maxSize", `a batch of ${settings.repaymentBatch.maxSize} is budgeted ${batchGas} gas, above solver.maxGasPerTransaction`);
  }
  return settings;
}

function databasePoolSettings(file: ConfigFile["database"], env: Env): Omit<DatabaseSettings, "url" | "dataDir"> {
  const defaults = CONFIG_DEFAULTS.database;
  const timeout = (name: string) => envInteger(env, name, DATABASE_TIMEOUT_MS_RANGE);
  return {
    poolSize: envInteger(env, "FERRY_DB_POOL_SIZE", DATABASE_POOL_SIZE_RANGE) ?? file?.poolSize ?? defaults.poolSize,
    connectTimeoutMs: timeout("FERRY_DB_CONNECT_TIMEOUT_MS") ?? file?.connectTimeoutMs ?? defaults.connectTimeoutMs,
    statementTimeoutMs: timeout("FERRY_DB_STATEMENT_TIMEOUT_MS") ?? file?.statementTimeoutMs ?? defaults.statementTimeoutMs,
    idleInTransactionTimeoutMs: timeout("FERRY_DB_IDLE_IN_TRANSACTION_TIMEOUT_MS") ?? file?.idleInTransactionTimeoutMs ?? defaults.idleInTransactionTimeoutMs,
    preparedStatements: envSwitch(env, "FERRY_DB_PREPARED_STATEMENTS") ?? file?.preparedStatements ?? defaults.preparedStatements,
  };
}

function logSettings(file: ConfigFile["log"], env: Env): LogSettings {
  const raw = env.FERRY_LOG_LEVEL;
  if (raw !== undefined && raw !== "" && !(LOG_LEVELS as readonly string[]).includes(raw)) {
    throw new ConfigInvalidError("FERRY_LOG_LEVEL", `must be one of ${LOG_LEVELS.join(", ")}`);
  }
  return { level: (raw || undefined) as LogLevel | undefined ?? file?.level ?? CONFIG_DEFAULTS.log.level };
}

function readKeys(env: Env, keyEnv: ConfigFile["keyEnv"]): Pick<FerryConfig, "keys" | "accounts"> {
  const keys: Partial<Record<KeyRole, Secret>> = {};
  const accounts: Partial<Record<KeyRole, Address>> = {};
  for (const role of KEY_ROLES) {
    const name = keyEnv?.[role] ?? CONFIG_DEFAULTS.keyEnv[role];
    const raw = env[name];
    if (raw === undefined || raw === "") continue;
    const value = raw.startsWith("0x") ? raw : `0x${raw}`;
    // The message never includes the value.
    if (!/^0x[0-9a-fA-F]{64}$/.test(value)) throw new ConfigInvalidError(name, "must be a 32-byte hex private key");
    let address: Address;
    try {
      address = configAddress(privateKeyToAddress(value as `0x${string}`), name);
    } catch {
      throw new ConfigInvalidError(name, "is not a valid secp256k1 private key");
    }
    keys[role] = new Secret(value);
    accounts[role] = address;
  }
  return { keys, accounts };
}

/**
 * A configured address by ts/core's one rule (one case, or mixed case that is its EIP-55 checksum),
 * decoded to its canonical (lowercase) form: the one place the config's addresses are normalised.
 */
function configAddress(address: string, path: string): Address {
  if (!isEip55Address(address)) throw new ConfigInvalidError(path, "has a mixed-case EIP-55 checksum that does not match: check it for a typo");
  return canonicalAddress(address);
}

/**
 * FERRY_RPC_URLS_<chainId>: the chain's rpcUrls, comma-separated — the place for URLs that carry an API
 * key (the file may be shared; the public `rpcUrl` stays the file's). Undefined when unset or empty.
 */
function envRpcUrls(env: Env, chainId: number): string[] | undefined {
  const name = `FERRY_RPC_URLS_${chainId}`;
  const raw = env[name];
  if (raw === undefined || raw === "") return undefined;
  const urls = raw.split(",").map((url) => url.trim()).filter((url) => url !== "");
  // The message never includes the value: a URL may hold an API key.
  if (urls.length === 0 || urls.length > 8 || !urls.every((url) => /^https?:\/\/[^\s]+$/.test(url) && url.length <= 2048)) {
    throw new ConfigInvalidError(name, "must be 1 to 8 comma-separated http(s) URLs");
  }
  return urls;
}

function rpcSettings(file: NonNullable<ConfigFile["chains"]>[number]["rpc"], env: Env): RpcSettings {
  const defaults = CONFIG_DEFAULTS.rpc;
  return {
    timeoutMs: envInteger(env, "FERRY_RPC_TIMEOUT_MS", RPC_TIMEOUT_MS_RANGE) ?? file?.timeoutMs ?? defaults.timeoutMs,
    retryCount: envInteger(env, "FERRY_RPC_RETRY_COUNT", RPC_RETRY_COUNT_RANGE) ?? file?.retryCount ?? defaults.retryCount,
    retryDelayMs: file?.retryDelayMs ?? defaults.retryDelayMs,
    maxHeadLagBlocks: file?.maxHeadLagBlocks ?? defaults.maxHeadLagBlocks,
  };
}

function chainDefaults(chain: NonNullable<ConfigFile["chains"]>[number], env: Env): UnresolvedChainConfig {
  return {
    id: chain.id,
    name: chain.name,
    displayName: chain.displayName,
    rpcUrl: chain.rpcUrl,
    rpcUrls: envRpcUrls(env, chain.id) ?? chain.rpcUrls ?? [chain.rpcUrl],
    rpc: rpcSettings(chain.rpc, env),
    ...(chain.wsRpcUrl !== undefined ? { wsRpcUrl: chain.wsRpcUrl } : {}),
    ...(chain.explorerUrl !== undefined ? { explorerUrl: chain.explorerUrl } : {}),
    ...(chain.explorerName !== undefined ? { explorerName: chain.explorerName } : {}),
    ...(chain.iconUrl !== undefined ? { iconUrl: chain.iconUrl } : {}),
    confirmations: chain.confirmations ?? CONFIG_DEFAULTS.confirmations,
    maxTransactionFee: chain.maxTransactionFee ?? CONFIG_DEFAULTS.maxTransactionFee,
    finalityTag: chain.finalityTag ?? null,
    maxLogRange: chain.maxLogRange ?? CONFIG_DEFAULTS.maxLogRange,
    nativeCurrency: { ...chain.nativeCurrency, logoURI: chain.nativeCurrency.logoURI ?? "" },
    erc20Currencies: (chain.erc20Currencies ?? []).map((currency) => ({
      ...currency,
      address: configAddress(currency.address, `chains[${chain.id}].erc20Currencies.address`),
      logoURI: currency.logoURI ?? "",
    })),
    contracts: Object.fromEntries(
      Object.entries(chain.contracts ?? {}).map(([name, address]) => [name, address === undefined ? undefined : configAddress(address, `chains[${chain.id}].contracts.${name}`)]),
    ) as UnresolvedChainConfig["contracts"],
    depositEnabled: chain.depositEnabled ?? true,
    disabled: chain.disabled ?? false,
    ...(chain.expectedBlockTimeSeconds !== undefined ? { expectedBlockTimeSeconds: chain.expectedBlockTimeSeconds } : {}),
    baseChainId: chain.baseChainId ?? chain.id,
    tags: chain.tags ?? [],
  };
}

function quoteSettings(file: ConfigFile["quotes"], env: Env): QuoteSettings {
  const defaults = CONFIG_DEFAULTS.quotes;
  return {
    ttlSeconds: file?.ttlSeconds ?? defaults.ttlSeconds,
    fillWindowSeconds: file?.fillWindowSeconds ?? defaults.fillWindowSeconds,
    reclaimWindowSeconds: file?.reclaimWindowSeconds ?? defaults.reclaimWindowSeconds,
    serviceFeeBps: file?.serviceFeeBps ?? defaults.serviceFeeBps,
    fixedFeeUsd: file?.fixedFeeUsd ?? defaults.fixedFeeUsd,
    timeEstimateSeconds: file?.timeEstimateSeconds ?? defaults.timeEstimateSeconds,
    gas: { ...defaults.gas, ...file?.gas },
    priceSources: (file?.priceSources ?? []).map((source) => {
      if (source.type !== "uniswapV2") return source;
      // Canonical like every configured address (the schema checked the shape; no EIP-55 check here, as before).
      const reference = source.reference ?? DEFAULT_PRICE_REFERENCE;
      return {
        ...source,
        ...{ pair: canonicalAddress(source.pair), baseToken: canonicalAddress(source.baseToken), quoteToken: canonicalAddress(source.quoteToken) },
        feeBps: source.feeBps ?? 30,
        reference: reference.type === "chainlink" ? { ...reference, feed: canonicalAddress(reference.feed) } : reference,
        maxReserveBps: source.maxReserveBps ?? DEFAULT_MAX_RESERVE_BPS,
      };
    }),
    swapSlippageBps: file?.swapSlippageBps ?? defaults.swapSlippageBps,
    topupGasUsd: file?.topupGasUsd ?? defaults.topupGasUsd,
    topupGasMaxUsd: envUsd(env, "FERRY_TOPUP_GAS_MAX_USD") ?? file?.topupGasMaxUsd ?? defaults.topupGasMaxUsd,
    priceBandBps: envInteger(env, "FERRY_PRICE_BAND_BPS", PRICE_BAND_BPS_RANGE) ?? file?.priceBandBps ?? defaults.priceBandBps,
  };
}

function webhookSettings(file: ConfigFile["webhooks"], env: Env): WebhookSettings {
  const defaults = CONFIG_DEFAULTS.webhooks;
  const settings: WebhookSettings = { ...defaults, ...file, enabled: envSwitch(env, "FERRY_WEBHOOKS") ?? file?.enabled ?? defaults.enabled };
  if (settings.maxDelayMs < settings.baseDelayMs) throw new ConfigInvalidError("webhooks.maxDelayMs", "must be at least webhooks.baseDelayMs");
  if (settings.leaseMs <= settings.timeoutMs) throw new ConfigInvalidError("webhooks.leaseMs", "must be greater than webhooks.timeoutMs");
  // Checked here, so a bad range is a CONFIG_INVALID at start rather than at the first delivery.
  addressFilter(settings.denyNetworks);
  const secretKey = webhookSecretKey(env, "FERRY_WEBHOOK_SECRET_KEY");
  const previousSecretKey = webhookSecretKey(env, "FERRY_WEBHOOK_SECRET_KEY_PREVIOUS");
  if (secretKey) settings.secretKey = secretKey;
  if (previousSecretKey) {
    if (!secretKey) throw new ConfigInvalidError("FERRY_WEBHOOK_SECRET_KEY_PREVIOUS", "is only read during a rotation: set FERRY_WEBHOOK_SECRET_KEY to the new key");
    settings.previousSecretKey = previousSecretKey;
  }
  return settings;
}

/** A webhook secret key from the environment: 64 hex characters (optional 0x); the message never includes the value. */
function webhookSecretKey(env: Env, name: "FERRY_WEBHOOK_SECRET_KEY" | "FERRY_WEBHOOK_SECRET_KEY_PREVIOUS"): Secret | undefined {
  const raw = env[name];
  if (raw === undefined || raw === "") return undefined;
  if (!/^(0x)?[0-9a-fA-F]{64}$/.test(raw)) throw new ConfigInvalidError(name, "must be 32 bytes as 64 hex characters");
  return new Secret(raw);
}

/** FERRY_ADMIN_TOKEN: visible ASCII without spaces, 32–512 characters; absent → no admin API. */
function adminSettings(env: Env): AdminSettings {
  const raw = env.FERRY_ADMIN_TOKEN;
  if (raw === undefined || raw === "") return {};
  // The message never includes the value.
  if (!/^[\x21-\x7e]+$/.test(raw) || raw.length < ADMIN_TOKEN_LENGTH.minimum || raw.length > ADMIN_TOKEN_LENGTH.maximum) {
    throw new ConfigInvalidError(
      "FERRY_ADMIN_TOKEN",
      `must be ${ADMIN_TOKEN_LENGTH.minimum} to ${ADMIN_TOKEN_LENGTH.maximum} visible characters without spaces (e.g. openssl rand -hex 32)`,
    );
  }
  return { token: new Secret(raw) };
}

const usdMicros = (value: string | undefined): bigint | undefined => (value === undefined ? undefined : BigInt(value));

function exposureLimits(file: { execute?: string; sponsorship?: string; fastFill?: string }): ExposureLimits {
  const limits: ExposureLimits = {};
  for (const purpose of BUDGETED_PURPOSES) {
    const limit = usdMicros(file[purpose]);
    if (limit !== undefined) limits[purpose] = limit;
  }
  return limits;
}

function appBalanceSettings(file: ConfigFile["appBalances"]): AppBalanceSettings {
  const fundingCurrencies: Record<number, Address[]> = {};
  (file?.fundingCurrencies ?? []).forEach((entry, i) => {
    if (fundingCurrencies[entry.chainId]) throw new ConfigInvalidError(`appBalances.fundingCurrencies[${i}].chainId`, `chain ${entry.chainId} is listed twice`);
    fundingCurrencies[entry.chainId] = entry.currencies.map((c, j) => configAddress(c, `appBalances.fundingCurrencies[${i}].currencies[${j}]`));
  });
  const exposure = file?.exposure;
  return {
    fundingCurrencies,
    exposure: {
      perApp: exposureLimits(exposure?.perApp ?? {}),
      apps: Object.fromEntries((exposure?.apps ?? []).map(({ apiKeyId, ...limits }) => [apiKeyId, exposureLimits(limits)])),
      perCurrency: (exposure?.perCurrency ?? []).map(({ chainId, currency, ...limits }, i) => ({
        chainId,
        currency: configAddress(currency, `appBalances.exposure.perCurrency[${i}].currency`),
        limits: exposureLimits(limits),
      })),
    },
  };
}

function checkUnique(chains: UnresolvedChainConfig[]): void {
  const ids = new Set<number>();
  const names = new Set<string>();
  chains.forEach((chain, i) => {
    if (ids.has(chain.id)) throw new ConfigInvalidError(`chains[${i}].id`, "duplicate chain id");
    if (names.has(chain.name)) throw new ConfigInvalidError(`chains[${i}].name`, "duplicate chain name");
    ids.add(chain.id);
    names.add(chain.name);
    const symbols = new Set<string>();
    chain.erc20Currencies.forEach((currency, j) => {
      if (symbols.has(currency.address)) throw new ConfigInvalidError(`chains[${i}].erc20Currencies[${j}].address`, "duplicate currency");
      symbols.add(currency.address);
    });
  });
}

/**
 * The file (already JSON-parsed; `{}` when there is none) and the environment → the configuration,
 * with contracts not yet filled from deployment records. `baseDir` anchors relative paths (the config
 * file's folder, or the working directory).
 */
export function parseConfig(json: unknown, env: Env, baseDir: string): UnresolvedFerryConfig {
  const file = validateConfigFile(json);
  const port = envPort(env);
  const databaseUrl = env.DATABASE_URL || file.database?.url;
  if (databaseUrl !== undefined && !/^postgres(ql)?:\/\//.test(databaseUrl)) {
    throw new ConfigInvalidError(env.DATABASE_URL ? "DATABASE_URL" : "database.url", "must be a postgres:// or postgresql:// URL");
  }
  const path = (value: string) => (isAbsolute(value) ? value : resolve(baseDir, value));
  const chains = (file.chains ?? []).map((chain) => chainDefaults(chain, env));
  checkUnique(chains);
  return {
    server: {
      host: env.FERRY_HOST || file.server?.host || CONFIG_DEFAULTS.host,
      port: port ?? file.server?.port ?? CONFIG_DEFAULTS.port,
      bodyLimitBytes: file.server?.bodyLimitBytes ?? CONFIG_DEFAULTS.bodyLimitBytes,
      apiKeyCacheSeconds: file.server?.apiKeyCacheSeconds ?? CONFIG_DEFAULTS.apiKeyCacheSeconds,
      statusCacheRefreshMs: file.server?.statusCacheRefreshMs ?? CONFIG_DEFAULTS.statusCacheRefreshMs,
      corsOrigins: [...(file.server?.corsOrigins ?? CONFIG_DEFAULTS.corsOrigins)],
    },
    chains,
    database: {
      ...(databaseUrl ? { url: new Secret(databaseUrl) } : {}),
      dataDir: path(env.FERRY_DATA_DIR || file.database?.dataDir || CONFIG_DEFAULTS.dataDir),
      ...databasePoolSettings(file.database, env),
    },
    rateLimits: {
      anonymousPerMinute: file.rateLimits?.anonymousPerMinute ?? CONFIG_DEFAULTS.anonymousPerMinute,
      apiKeyPerMinute: file.rateLimits?.apiKeyPerMinute ?? CONFIG_DEFAULTS.apiKeyPerMinute,
      failedPermitsPerUserPerHour:
        envInteger(env, "FERRY_FAILED_PERMITS_PER_USER_PER_HOUR", { minimum: 1, maximum: 1_000_000 }) ?? file.rateLimits?.failedPermitsPerUserPerHour ?? CONFIG_DEFAULTS.failedPermitsPerUserPerHour,
    },
    deploymentsDir: path(env.FERRY_DEPLOYMENTS_DIR || file.deploymentsDir || CONFIG_DEFAULTS.deploymentsDir),
    quotes: quoteSettings(file.quotes, env),
    websocket: { ...CONFIG_DEFAULTS.websocket, ...file.websocket },
    webhooks: webhookSettings(file.webhooks, env),
    solver: solverSettings(file.solver, env),
    log: logSettings(file.log, env),
    admin: adminSettings(env),
    appBalances: appBalanceSettings(file.appBalances),
    ...readKeys(env, file.keyEnv),
  };
}

/**
 * Fills each chain's missing contract addresses from its deployment record (`records` by chain id);
 * addresses in the file win. A chain left without a Depository, AttestedReceiver or Multicaller is
 * CONFIG_INVALID naming the field.
 */
export function resolveChainContracts(
  config: UnresolvedFerryConfig,
  records: ReadonlyMap<number, DeploymentRecord | undefined>,
): FerryConfig {
  const chains = config.chains.map((chain, i): ChainConfig => {
    const record = records.get(chain.id);
    const recorded = Object.entries(record?.addresses ?? {}).map(([name, address]) => [name, configAddress(address, `${chain.id}.json addresses.${name}`)] as const);
    // The record's Multicall3 (where `ferry deploy` found or put it) unless the file names one.
    const multicall3 = record?.multicall3 ? { multicall3: configAddress(record.multicall3, `${chain.id}.json multicall3`) } : {};
    const contracts = { ...Object.fromEntries(recorded), ...multicall3, ...chain.contracts };
    for (const name of ["depository", "attestedReceiver", "multicaller"] as const) {
      if (!contracts[name]) {
        throw new ConfigInvalidError(
          `chains[${i}].contracts.${name}`,
          `missing: not in the config file and no deployment record ${chain.id}.json in ${config.deploymentsDir} (ferry deploy --config <file> writes it)`,
        );
      }
    }
    return {
      ...chain,
      contracts: contracts as ChainConfig["contracts"],
      ...(record ? { deploymentBlock: record.blockNumber } : {}),
    };
  });
  return { ...config, chains };
}

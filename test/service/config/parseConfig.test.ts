/** ts/service/config/parseConfig.ts and redactConfig.ts: pure parsing, env overrides, CONFIG_INVALID, redaction. */
import { expect } from "chai";
import { inspect } from "node:util";
import { isFerryError } from "../../../ts/core/errors.ts";
import type { DeploymentRecord } from "../../../ts/deploy/deploymentRecord.ts";
import { ConfigErrorCode, type ConfigInvalidError } from "../../../ts/service/config/configErrors.ts";
import { parseConfig, resolveChainContracts, type Env } from "../../../ts/service/config/parseConfig.ts";
import { redactConfig, scrubSecrets, secretValues } from "../../../ts/service/config/redactConfig.ts";

const KEY = "0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d"; // Hardhat #1
const KEY_ADDRESS = "0x70997970C51812dc3A010C7d01b50e0d17dc79C8";
const A = "0x1111111111111111111111111111111111111111";

const chain = (overrides: Record<string, unknown> = {}) => ({
  id: 31337,
  name: "origin",
  displayName: "Origin",
  rpcUrl: "http://127.0.0.1:8545",
  nativeCurrency: { symbol: "ETH", name: "Ether", decimals: 18 },
  contracts: { depository: A, attestedReceiver: A, multicaller: A },
  ...overrides,
});

function invalid(json: unknown, env: Env = {}): ConfigInvalidError {
  try {
    resolveChainContracts(parseConfig(json, env, "/srv/ferry"), new Map());
  } catch (error) {
    expect(isFerryError(error, ConfigErrorCode.CONFIG_INVALID), String(error)).to.equal(true);
    return error as ConfigInvalidError;
  }
  return expect.fail("expected CONFIG_INVALID");
}

describe("parseConfig", function () {
  it("appBalances_fundingCurrenciesAndExposureBudgets_parsedToMicroUnits", () => {
    const config = parseConfig(
      {
        appBalances: {
          fundingCurrencies: [{ chainId: 1, currencies: ["0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48"] }],
          exposure: { perApp: { sponsorship: "20000000" }, apps: [{ apiKeyId: "key_0123456789abcdef", execute: "7" }], perCurrency: [{ chainId: 1, currency: "0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48", fastFill: "9" }] },
        },
      },
      {},
      "/srv/ferry",
    );
    expect(config.appBalances).to.deep.equal({
      fundingCurrencies: { 1: ["0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48"] },
      exposure: {
        perApp: { sponsorship: 20_000_000n },
        apps: { key_0123456789abcdef: { execute: 7n } },
        perCurrency: [{ chainId: 1, currency: "0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48", limits: { fastFill: 9n } }],
      },
    });
    expect(parseConfig({}, {}, "/").appBalances).to.deep.equal({ fundingCurrencies: {}, exposure: { perApp: {}, apps: {}, perCurrency: [] } });
    expect(() => parseConfig({ appBalances: { exposure: { perApp: { sponsorship: "1.5" } } } }, {}, "/")).to.throw(/appBalances/);
    expect(() => parseConfig({ appBalances: { fundingCurrencies: [{ chainId: 1, currencies: [] }, { chainId: 1, currencies: [] }] } }, {}, "/")).to.throw(/listed twice/);
  });

  it("applies defaults: 127.0.0.1, rate limits, data dir and deployments dir under the base dir", function () {
    const config = parseConfig({}, {}, "/srv/ferry");
    expect(config.server).to.deep.equal({ host: "127.0.0.1", port: 8080, bodyLimitBytes: 1024 * 1024, apiKeyCacheSeconds: 5, statusCacheRefreshMs: 250, corsOrigins: ["*"] });
    expect(config.rateLimits).to.deep.equal({ anonymousPerMinute: 120, apiKeyPerMinute: 1200, failedPermitsPerUserPerHour: 5 });
    expect(config.database).to.deep.equal({ dataDir: "/srv/ferry/.ferry/data", poolSize: 20, connectTimeoutMs: 5000, statementTimeoutMs: 30_000, idleInTransactionTimeoutMs: 60_000, preparedStatements: true });
    expect(config.deploymentsDir).to.equal("/srv/ferry/deployments");
    expect(config.chains).to.deep.equal([]);
    expect(config.keys).to.deep.equal({});
    expect(config.webhooks).to.deep.equal({
      enabled: true,
      timeoutMs: 10_000,
      maxRetries: 10,
      baseDelayMs: 10_000,
      maxDelayMs: 3_600_000,
      pollIntervalMs: 500,
      batchSize: 20,
      leaseMs: 60_000,
      allowHttp: false,
      maxInFlightPerEndpoint: 4,
      denyNetworks: ["169.254.0.0/16", "fe80::/10"],
    });
    expect(config.solver).to.deep.equal({
      enabled: true,
      pollIntervalMs: 1000,
      concurrency: 64,
      concurrencyPerChain: 48,
      leaseMs: 15_000,
      stepTimeoutMs: 10_000,
      replaceAfterMs: 30_000,
      maxGasPerTransaction: 500_000,
      fillDeadlineMarginSeconds: 30,
      strayRefundMinimumUsd: "1",
      strayRefundGasFactor: 2,
      repaymentBatch: { maxSize: 1, maxWaitMs: 2000 },
    });
    expect(config.log).to.deep.equal({ level: "info" });
  });

  it("reads webhook settings from the file and the webhook secret key from FERRY_WEBHOOK_SECRET_KEY only", function () {
    const secret = "ab".repeat(32);
    const config = parseConfig(
      {
        webhooks: {
          timeoutMs: 500, maxRetries: 3, baseDelayMs: 5, maxDelayMs: 50, pollIntervalMs: 10, batchSize: 4, leaseMs: 2000, allowHttp: true,
          maxInFlightPerEndpoint: 2, denyNetworks: ["10.0.0.0/8", "fc00::/7"],
        },
      },
      { FERRY_WEBHOOK_SECRET_KEY: secret },
      "/",
    );
    const { secretKey, ...settings } = config.webhooks;
    expect(settings).to.deep.equal({
      enabled: true, timeoutMs: 500, maxRetries: 3, baseDelayMs: 5, maxDelayMs: 50, pollIntervalMs: 10, batchSize: 4, leaseMs: 2000, allowHttp: true,
      maxInFlightPerEndpoint: 2, denyNetworks: ["10.0.0.0/8", "fc00::/7"],
    });
    expect(() => parseConfig({ webhooks: { denyNetworks: ["10.0.0.0/33"] } }, {}, "/")).to.throw(/webhooks\.denyNetworks\[0\]/);
    expect(secretKey?.reveal()).to.equal(secret);
    expect(parseConfig({}, {}, "/").webhooks.secretKey).to.equal(undefined);
    // During a rotation the previous key is read too; alone, or malformed, it is refused naming the variable only.
    const previous = "cd".repeat(32);
    expect(parseConfig({}, { FERRY_WEBHOOK_SECRET_KEY: secret, FERRY_WEBHOOK_SECRET_KEY_PREVIOUS: previous }, "/").webhooks.previousSecretKey?.reveal()).to.equal(previous);
    expect(() => parseConfig({}, { FERRY_WEBHOOK_SECRET_KEY_PREVIOUS: previous }, "/")).to.throw(/FERRY_WEBHOOK_SECRET_KEY_PREVIOUS.*set FERRY_WEBHOOK_SECRET_KEY/);
    expect(() => parseConfig({}, { FERRY_WEBHOOK_SECRET_KEY: secret, FERRY_WEBHOOK_SECRET_KEY_PREVIOUS: "abcd" }, "/")).to.throw(/FERRY_WEBHOOK_SECRET_KEY_PREVIOUS/);
  });

  it("rejects invalid webhook settings, naming the field and never the secret key", function () {
    const cases: Array<[unknown, Record<string, string>, string]> = [
      [{ webhooks: { maxRetries: 11 } }, {}, "webhooks.maxRetries"],
      [{ webhooks: { timeoutMs: 0 } }, {}, "webhooks.timeoutMs"],
      [{ webhooks: { secretKey: "ab".repeat(32) } }, {}, "webhooks.secretKey"],
      [{ webhooks: { baseDelayMs: 100, maxDelayMs: 10 } }, {}, "webhooks.maxDelayMs"],
      [{ webhooks: { timeoutMs: 5000, leaseMs: 5000 } }, {}, "webhooks.leaseMs"],
      [{}, { FERRY_WEBHOOK_SECRET_KEY: "zz".repeat(32) }, "FERRY_WEBHOOK_SECRET_KEY"],
      [{}, { FERRY_WEBHOOK_SECRET_KEY: "ab".repeat(31) }, "FERRY_WEBHOOK_SECRET_KEY"],
    ];
    for (const [json, env, field] of cases) {
      const error = invalid(json, env);
      expect(error.field).to.equal(field);
      expect(error.message).not.to.contain("abababab");
    }
  });

  it("parseConfig_adminToken_fromFerryAdminTokenOnly_32to512VisibleCharacters_neverEchoed", function () {
    const token = "t0k3n-".repeat(8);
    const config = parseConfig({}, { FERRY_ADMIN_TOKEN: token }, "/");
    expect(config.admin.token?.reveal()).to.equal(token);
    expect(JSON.stringify(redactConfig(resolveChainContracts(config, new Map())))).to.not.include(token);
    expect(secretValues(config)).to.include(token);
    expect(parseConfig({}, {}, "/").admin).to.deep.equal({});
    expect(parseConfig({}, { FERRY_ADMIN_TOKEN: "" }, "/").admin).to.deep.equal({});
    for (const bad of ["short-token", `${"x".repeat(20)} ${"y".repeat(20)}`, "z".repeat(513), `${"é".repeat(40)}`]) {
      const error = invalid({}, { FERRY_ADMIN_TOKEN: bad });
      expect(error.field).to.equal("FERRY_ADMIN_TOKEN");
      expect(error.message).not.to.contain(bad);
    }
    expect(invalid({ admin: { token: token } }).field).to.equal("admin");
  });

  it("parses a chain with defaults and canonical (lowercase) addresses", function () {
    const config = resolveChainContracts(
      parseConfig({ chains: [chain({ erc20Currencies: [{ address: "0x5FbDB2315678afecb367f032d93F642f64180aa3", symbol: "USDC", name: "USD Coin", decimals: 6 }] })] }, {}, "/"),
      new Map(),
    );
    expect(config.chains[0]).to.deep.include({ confirmations: 12, finalityTag: null, maxLogRange: 2000, depositEnabled: true, disabled: false, baseChainId: 31337, tags: [] });
    expect(config.chains[0]!.rpcUrls).to.deep.equal(["http://127.0.0.1:8545"]);
    expect(config.chains[0]!.rpc).to.deep.equal({ timeoutMs: 4000, retryCount: 2, retryDelayMs: 250, maxHeadLagBlocks: 10 });
    expect(config.chains[0]!.erc20Currencies[0]!.address).to.equal("0x5fbdb2315678afecb367f032d93f642f64180aa3");
  });

  it("parseConfig_chainReading_fromTheFileThenTheEnvironment", function () {
    const file = {
      chains: [
        chain({ rpcUrls: ["http://a.example", "http://b.example"], confirmations: 3, finalityTag: "safe", maxLogRange: 500, rpc: { timeoutMs: 900, retryDelayMs: 10 } }),
        chain({ id: 10, name: "other", rpcUrl: "https://public.example" }),
      ],
    };
    const fromFile = parseConfig(file, {}, "/");
    expect(fromFile.chains[0]).to.deep.include({ rpcUrl: "http://127.0.0.1:8545", confirmations: 3, finalityTag: "safe", maxLogRange: 500 });
    expect(fromFile.chains[0]!.rpcUrls).to.deep.equal(["http://a.example", "http://b.example"]);
    expect(fromFile.chains[0]!.rpc).to.deep.equal({ timeoutMs: 900, retryCount: 2, retryDelayMs: 10, maxHeadLagBlocks: 10 });
    const fromEnv = parseConfig(file, { FERRY_RPC_URLS_10: "https://k.example/v2/secretkey123, https://l.example", FERRY_RPC_TIMEOUT_MS: "1500", FERRY_RPC_RETRY_COUNT: "0" }, "/");
    // The public rpcUrl stays the file's: the env's URLs may carry API keys.
    expect(fromEnv.chains[1]).to.deep.include({ rpcUrl: "https://public.example" });
    expect(fromEnv.chains[1]!.rpcUrls).to.deep.equal(["https://k.example/v2/secretkey123", "https://l.example"]);
    expect(fromEnv.chains[0]!.rpcUrls).to.deep.equal(["http://a.example", "http://b.example"]);
    for (const c of fromEnv.chains) expect(c.rpc).to.deep.include({ timeoutMs: 1500, retryCount: 0 });
    expect(invalid({ chains: [chain()] }, { FERRY_RPC_URLS_31337: "ftp://x/secretpath" }).field).to.equal("FERRY_RPC_URLS_31337");
    expect(invalid({ chains: [chain()] }, { FERRY_RPC_URLS_31337: "ftp://x/secretpath" }).message).not.to.contain("secretpath");
    expect(invalid({ chains: [chain()] }, { FERRY_RPC_TIMEOUT_MS: "5" }).field).to.equal("FERRY_RPC_TIMEOUT_MS");
    expect(invalid({ chains: [chain({ finalityTag: "latest" })] }).field).to.equal("chains[0].finalityTag");
    expect(invalid({ chains: [chain({ rpcUrls: [] })] }).field).to.equal("chains[0].rpcUrls");
    expect(invalid({ chains: [chain({ maxLogRange: 0 })] }).field).to.equal("chains[0].maxLogRange");
    expect(invalid({ chains: [chain({ rpc: { retries: 1 } })] }).field).to.equal("chains[0].rpc.retries");
  });

  it("lets the environment override the file", function () {
    const config = parseConfig(
      { server: { host: "0.0.0.0", port: 1 }, database: { dataDir: "data" } },
      { FERRY_HOST: "::1", FERRY_PORT: "9999", DATABASE_URL: "postgres://u:p@db/ferry", FERRY_DATA_DIR: "/var/ferry" },
      "/srv",
    );
    expect(config.server.host).to.equal("::1");
    expect(config.server.port).to.equal(9999);
    expect(config.database.url?.reveal()).to.equal("postgres://u:p@db/ferry");
    expect(config.database.dataDir).to.equal("/var/ferry");
  });

  it("parseConfig_processSwitches_fromTheFileThenTheEnvironment", function () {
    const file = { solver: { enabled: false, pollIntervalMs: 250 }, webhooks: { enabled: false }, log: { level: "debug" } };
    const fromFile = parseConfig(file, {}, "/");
    const safety = {
      concurrency: 64,
      concurrencyPerChain: 48,
      leaseMs: 15_000,
      stepTimeoutMs: 10_000,
      replaceAfterMs: 30_000,
      maxGasPerTransaction: 500_000,
      fillDeadlineMarginSeconds: 30,
      strayRefundMinimumUsd: "1",
      strayRefundGasFactor: 2,
      repaymentBatch: { maxSize: 1, maxWaitMs: 2000 },
    };
    expect(fromFile.solver).to.deep.equal({ enabled: false, pollIntervalMs: 250, ...safety });
    expect(fromFile.webhooks.enabled).to.equal(false);
    expect(fromFile.log.level).to.equal("debug");

    const env = { FERRY_SOLVER: "on", FERRY_SOLVER_POLL_MS: "100", FERRY_WEBHOOKS: "on", FERRY_LOG_LEVEL: "warn" };
    const fromEnv = parseConfig(file, env, "/");
    expect(fromEnv.solver).to.deep.equal({ enabled: true, pollIntervalMs: 100, ...safety });
    expect(fromEnv.webhooks.enabled).to.equal(true);
    expect(fromEnv.log.level).to.equal("warn");

    const off = parseConfig({}, { FERRY_SOLVER: "off", FERRY_WEBHOOKS: "off" }, "/");
    expect(off.solver.enabled).to.equal(false);
    expect(off.webhooks.enabled).to.equal(false);
    // An empty variable is unset.
    const empty = parseConfig(file, { FERRY_SOLVER: "", FERRY_SOLVER_POLL_MS: "", FERRY_WEBHOOKS: "", FERRY_LOG_LEVEL: "" }, "/");
    expect(empty.solver).to.deep.equal({ enabled: false, pollIntervalMs: 250, ...safety });
    expect(empty.log.level).to.equal("debug");
  });

  it("parseConfig_databasePoolAndTimeouts_defaultsThenTheFileThenTheEnvironment", function () {
    const defaults = parseConfig({}, {}, "/").database;
    expect({ ...defaults, dataDir: undefined }).to.deep.equal({ dataDir: undefined, poolSize: 20, connectTimeoutMs: 5000, statementTimeoutMs: 30_000, idleInTransactionTimeoutMs: 60_000, preparedStatements: true });
    const file = { database: { poolSize: 5, connectTimeoutMs: 1000, statementTimeoutMs: 2000, idleInTransactionTimeoutMs: 3000, preparedStatements: false } };
    expect(parseConfig(file, {}, "/").database).to.include(file.database);
    const env = { FERRY_DB_POOL_SIZE: "7", FERRY_DB_CONNECT_TIMEOUT_MS: "1500", FERRY_DB_STATEMENT_TIMEOUT_MS: "2500", FERRY_DB_IDLE_IN_TRANSACTION_TIMEOUT_MS: "3500", FERRY_DB_PREPARED_STATEMENTS: "on" };
    expect(parseConfig(file, env, "/").database).to.include({ poolSize: 7, connectTimeoutMs: 1500, statementTimeoutMs: 2500, idleInTransactionTimeoutMs: 3500, preparedStatements: true });
    expect(() => parseConfig(file, { FERRY_DB_PREPARED_STATEMENTS: "yes" }, "/")).to.throw(/FERRY_DB_PREPARED_STATEMENTS/);
  });

  it("parseConfig_solverSafetySettings_fromTheFileThenTheEnvironment", function () {
    const file = { solver: { maxGasPerTransaction: 400_000, fillDeadlineMarginSeconds: 60, strayRefundMinimumUsd: "2.5", strayRefundGasFactor: 3 } };
    expect(parseConfig(file, {}, "/").solver).to.include({ maxGasPerTransaction: 400_000, fillDeadlineMarginSeconds: 60, strayRefundMinimumUsd: "2.5", strayRefundGasFactor: 3 });
    const env = { FERRY_SOLVER_MAX_GAS: "300000", FERRY_SOLVER_FILL_DEADLINE_MARGIN_SECONDS: "0", FERRY_STRAY_REFUND_MINIMUM_USD: "0.25", FERRY_STRAY_REFUND_GAS_FACTOR: "1.5" };
    expect(parseConfig(file, env, "/").solver).to.include({ maxGasPerTransaction: 300_000, fillDeadlineMarginSeconds: 0, strayRefundMinimumUsd: "0.25", strayRefundGasFactor: 1.5 });
    expect(() => parseConfig(file, { FERRY_STRAY_REFUND_GAS_FACTOR: "0.5" }, "/")).to.throw(/FERRY_STRAY_REFUND_GAS_FACTOR/);
  });

  it("parseConfig_repaymentBatch_offByDefault_fromTheFileThenTheEnvironment_withinTheGasCap", function () {
    expect(parseConfig({}, {}, "/").solver.repaymentBatch).to.deep.equal({ maxSize: 1, maxWaitMs: 2000 });
    const file = { solver: { repaymentBatch: { maxSize: 8, maxWaitMs: 500 } } };
    expect(parseConfig(file, {}, "/").solver.repaymentBatch).to.deep.equal({ maxSize: 8, maxWaitMs: 500 });
    expect(parseConfig(file, { FERRY_REPAYMENT_BATCH_MAX_SIZE: "4" }, "/").solver.repaymentBatch).to.deep.equal({ maxSize: 4, maxWaitMs: 500 });
    expect(() => parseConfig({ solver: { repaymentBatch: { maxSize: 11 } } }, {}, "/")).to.throw(/maxSize/);
    expect(() => parseConfig(file, { FERRY_REPAYMENT_BATCH_MAX_SIZE: "0" }, "/")).to.throw(/FERRY_REPAYMENT_BATCH_MAX_SIZE/);
    // A batch that could never fit the gas cap is refused, not signed.
    expect(() => parseConfig({ solver: { maxGasPerTransaction: 200_000, repaymentBatch: { maxSize: 8 } } }, {}, "/")).to.throw(/repaymentBatch/);
  });

  it("reads private keys from the env names in keyEnv only, and derives their addresses", function () {
    const config = parseConfig({ keyEnv: { solver: "MY_SOLVER" } }, { MY_SOLVER: KEY, FERRY_SOLVER_KEY: "0xdead" }, "/");
    expect(config.keys.solver?.reveal()).to.equal(KEY);
    expect(config.accounts.solver).to.equal(KEY_ADDRESS.toLowerCase());
    expect(config.keys.allocator).to.equal(undefined);
  });

  it("rejects invalid values with CONFIG_INVALID naming the field", function () {
    const cases: [unknown, Env, string][] = [
      [{ server: { port: 70000 } }, {}, "server.port"],
      [{ server: { port: "80" } }, {}, "server.port"],
      [{}, { FERRY_PORT: "http" }, "FERRY_PORT"],
      [{ chains: [chain({ rpcUrl: "ftp://x" })] }, {}, "chains[0].rpcUrl"],
      [{ chains: [chain(), chain({ id: 5, nativeCurrency: { symbol: "ETH", name: "Ether", decimals: -1 } })] }, {}, "chains[1].nativeCurrency.decimals"],
      [{ chains: [chain({ contracts: { depository: "0x1234" } })] }, {}, "chains[0].contracts.depository"],
      [{ chains: [chain(), chain()] }, {}, "chains[1].id"],
      [{ chains: [chain(), chain({ id: 5 })] }, {}, "chains[1].name"],
      [{ chains: [chain({ contracts: { depository: A } })] }, {}, "chains[0].contracts.attestedReceiver"],
      [{ rateLimits: { anonymousPerMinute: 0 } }, {}, "rateLimits.anonymousPerMinute"],
      [{ surprise: true }, {}, "surprise"],
      [{ chains: [chain({ privateKey: KEY })] }, {}, "chains[0].privateKey"],
      [{ keys: { solver: KEY } }, {}, "keys"],
      [{}, { FERRY_SOLVER_KEY: "0x1234" }, "FERRY_SOLVER_KEY"],
      [{}, { DATABASE_URL: "mysql://u:p@db/x" }, "DATABASE_URL"],
      [[], {}, "(root)"],
      [{ chains: [chain({ nativeCurrency: { symbol: "ETH", name: "Ether", decimals: 18, usdPrice: "3,000" } })] }, {}, "chains[0].nativeCurrency.usdPrice"],
      [{ chains: [chain({ erc20Currencies: [{ address: A, symbol: "U", name: "U", decimals: 6, usdPrice: 1 }] })] }, {}, "chains[0].erc20Currencies[0].usdPrice"],
      [{ quotes: { serviceFeeBps: 5000 } }, {}, "quotes.serviceFeeBps"],
      [{ quotes: { ttlSeconds: 0 } }, {}, "quotes.ttlSeconds"],
      [{ quotes: { fixedFeeUsd: "0.123456789" } }, {}, "quotes.fixedFeeUsd"],
      [{ quotes: { gas: { fillNative: -1 } } }, {}, "quotes.gas.fillNative"],
      [{ quotes: { gas: { approve: 1 } } }, {}, "quotes.gas.approve"],
      [{}, { FERRY_SOLVER: "false" }, "FERRY_SOLVER"],
      [{}, { FERRY_SOLVER: "OFF" }, "FERRY_SOLVER"],
      [{}, { FERRY_SOLVER_POLL_MS: "fast" }, "FERRY_SOLVER_POLL_MS"],
      [{}, { FERRY_SOLVER_POLL_MS: "1.5" }, "FERRY_SOLVER_POLL_MS"],
      [{}, { FERRY_SOLVER_POLL_MS: "0" }, "FERRY_SOLVER_POLL_MS"],
      [{}, { FERRY_SOLVER_POLL_MS: "-100" }, "FERRY_SOLVER_POLL_MS"],
      [{}, { FERRY_WEBHOOKS: "no" }, "FERRY_WEBHOOKS"],
      [{}, { FERRY_LOG_LEVEL: "verbose" }, "FERRY_LOG_LEVEL"],
      [{ solver: { pollIntervalMs: 5 } }, {}, "solver.pollIntervalMs"],
      [{ solver: { maxGasPerTransaction: 20_000 } }, {}, "solver.maxGasPerTransaction"],
      [{ solver: { fillDeadlineMarginSeconds: -1 } }, {}, "solver.fillDeadlineMarginSeconds"],
      [{ solver: { strayRefundMinimumUsd: "1e3" } }, {}, "solver.strayRefundMinimumUsd"],
      [{}, { FERRY_SOLVER_MAX_GAS: "1000" }, "FERRY_SOLVER_MAX_GAS"],
      [{}, { FERRY_SOLVER_FILL_DEADLINE_MARGIN_SECONDS: "soon" }, "FERRY_SOLVER_FILL_DEADLINE_MARGIN_SECONDS"],
      [{}, { FERRY_STRAY_REFUND_MINIMUM_USD: "-1" }, "FERRY_STRAY_REFUND_MINIMUM_USD"],
      [{ solver: { enabled: "off" } }, {}, "solver.enabled"],
      [{ solver: { keys: 1 } }, {}, "solver.keys"],
      [{ webhooks: { enabled: 0 } }, {}, "webhooks.enabled"],
      [{ log: { level: "loud" } }, {}, "log.level"],
      [{ database: { poolSize: 0 } }, {}, "database.poolSize"],
      [{ database: { statementTimeoutMs: 10 } }, {}, "database.statementTimeoutMs"],
      [{}, { FERRY_DB_POOL_SIZE: "many" }, "FERRY_DB_POOL_SIZE"],
      [{}, { FERRY_DB_STATEMENT_TIMEOUT_MS: "0" }, "FERRY_DB_STATEMENT_TIMEOUT_MS"],
    ];
    for (const [json, env, field] of cases) {
      const error = invalid(json, env);
      expect(error.field, JSON.stringify(json)).to.equal(field);
      expect(error.message).to.contain(field);
    }
  });

  it("resolves a uniswapV2 source's reference and depth cap, and reads the price band and top-up cap from the environment", function () {
    const pair = { type: "uniswapV2", chainId: 1, base: "ETH", quote: "USDC", pair: A, baseToken: A, quoteToken: A };
    const parsed = parseConfig({ quotes: { priceSources: [pair] } }, {}, "/").quotes;
    expect(parsed.priceSources[0]).to.deep.include({ feeBps: 30, reference: { type: "twap", windowSeconds: 1_800 }, maxReserveBps: 500 });
    const feed = { type: "chainlink", feed: A, maxStalenessSeconds: 4_500 };
    expect(parseConfig({ quotes: { priceSources: [{ ...pair, reference: feed, maxReserveBps: 100 }] } }, {}, "/").quotes.priceSources[0]).to.deep.include({ reference: feed, maxReserveBps: 100 });
    const env = parseConfig({ quotes: { priceBandBps: 100, topupGasMaxUsd: "10" } }, { FERRY_PRICE_BAND_BPS: "250", FERRY_TOPUP_GAS_MAX_USD: "20.5" }, "/").quotes;
    expect([env.priceBandBps, env.topupGasMaxUsd]).to.deep.equal([250, "20.5"]);
    expect(() => parseConfig({}, { FERRY_PRICE_BAND_BPS: "0" }, "/")).to.throw(/FERRY_PRICE_BAND_BPS/);
    expect(() => parseConfig({}, { FERRY_TOPUP_GAS_MAX_USD: "1e3" }, "/")).to.throw(/FERRY_TOPUP_GAS_MAX_USD/);
    expect(() => parseConfig({ quotes: { priceSources: [{ ...pair, reference: { type: "twap", windowSeconds: 1 } }] } }, {}, "/")).to.throw(/quotes\.priceSources\[0\]/);
  });

  it("applies the quote defaults, lets the file override each, and keeps operator-configured USD prices", function () {
    expect(parseConfig({}, {}, "/").quotes).to.deep.equal({
      ttlSeconds: 300,
      fillWindowSeconds: 600,
      reclaimWindowSeconds: 3600,
      serviceFeeBps: 10,
      fixedFeeUsd: "0",
      timeEstimateSeconds: 30,
      gas: { depositNative: 35_000, depositErc20: 75_000, depositNativeReclaimable: 60_000, depositErc20Reclaimable: 100_000, fillNative: 80_000, fillErc20: 110_000, fillWithCalls: 150_000, callDefault: 150_000, topupCall: 40_000 },
      priceSources: [],
      swapSlippageBps: 50,
      topupGasUsd: "2",
      topupGasMaxUsd: "50",
      priceBandBps: 300,
    });
    const config = parseConfig(
      {
        quotes: { ttlSeconds: 60, fillWindowSeconds: 120, reclaimWindowSeconds: 7200, serviceFeeBps: 0, fixedFeeUsd: "0.25", timeEstimateSeconds: 5, gas: { fillErc20: 1, depositNativeReclaimable: 50_000 } },
        chains: [
          chain({
            nativeCurrency: { symbol: "ETH", name: "Ether", decimals: 18, usdPrice: "3000.5" },
            erc20Currencies: [{ address: A, symbol: "USDC", name: "USD Coin", decimals: 6, usdPrice: "0.9998" }],
          }),
        ],
      },
      {},
      "/",
    );
    expect(config.quotes).to.deep.equal({
      ttlSeconds: 60,
      fillWindowSeconds: 120,
      reclaimWindowSeconds: 7200,
      serviceFeeBps: 0,
      fixedFeeUsd: "0.25",
      timeEstimateSeconds: 5,
      gas: { depositNative: 35_000, depositErc20: 75_000, depositNativeReclaimable: 50_000, depositErc20Reclaimable: 100_000, fillNative: 80_000, fillErc20: 1, fillWithCalls: 150_000, callDefault: 150_000, topupCall: 40_000 },
      swapSlippageBps: 50,
      topupGasUsd: "2",
      topupGasMaxUsd: "50",
      priceBandBps: 300,
      priceSources: [],
    });
    expect(config.chains[0]!.nativeCurrency.usdPrice).to.equal("3000.5");
    expect(config.chains[0]!.erc20Currencies[0]!.usdPrice).to.equal("0.9998");
    expect(parseConfig({ chains: [chain()] }, {}, "/").chains[0]!.nativeCurrency).to.not.have.property("usdPrice");
  });

  it("never echoes a secret value in a CONFIG_INVALID message", function () {
    const badKey = `${KEY.slice(0, -2)}zz`;
    expect(invalid({}, { FERRY_RELAYER_KEY: badKey }).message).not.to.contain(badKey.slice(2, 20));
    expect(invalid({ keys: { solver: KEY } }).message).not.to.contain(KEY.slice(2, 20));
    expect(invalid({}, { DATABASE_URL: "mysql://u:topsecret@db/x" }).message).not.to.contain("topsecret");
  });

  it("fills missing contracts from the deployment record; the file wins", function () {
    const record = {
      chainId: 31337,
      blockNumber: 7,
      addresses: {
        depository: "0x2222222222222222222222222222222222222222",
        attestedReceiver: "0x3333333333333333333333333333333333333333",
        multicaller: "0x4444444444444444444444444444444444444444",
        depositAddressFactory: "0x5555555555555555555555555555555555555555",
      },
    } as unknown as DeploymentRecord;
    const config = resolveChainContracts(parseConfig({ chains: [chain({ contracts: { depository: A } })] }, {}, "/"), new Map([[31337, record]]));
    expect(config.chains[0]!.contracts).to.deep.equal({ ...record.addresses, depository: A });
    expect(config.chains[0]!.deploymentBlock).to.equal(7);
  });
});

describe("redactConfig", function () {
  const env = {
    FERRY_ALLOCATOR_KEY: "0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80",
    FERRY_ATTESTER_KEY: "5de4111afa1a4b94908f83103eb1f1706367c2e68ca870fc3fb9a804cdab365a",
    FERRY_SOLVER_KEY: KEY,
    FERRY_RELAYER_KEY: "0x7c852118294e51e653712a81e05800f419141751be58f605c371e15141b007a6",
    DATABASE_URL: "postgres://ferry:db-pass-987@db.internal:5432/ferry",
    FERRY_WEBHOOK_SECRET_KEY: "c0ffee".repeat(10) + "beef",
    FERRY_WEBHOOK_SECRET_KEY_PREVIOUS: "0xdecade".repeat(1) + "f00d".repeat(14) + "aa",
  };
  const material = [...Object.values(env).slice(0, 4).map((key) => key.replace(/^0x/, "")), "db-pass-987", env.FERRY_WEBHOOK_SECRET_KEY, env.FERRY_WEBHOOK_SECRET_KEY_PREVIOUS.slice(2)];
  const config = resolveChainContracts(parseConfig({ chains: [chain()] }, env, "/"), new Map());

  it("shows no key material or database password in the redacted view", function () {
    const redacted = redactConfig(config);
    const text = JSON.stringify(redacted);
    for (const secret of material) expect(text).not.to.contain(secret);
    expect(redacted.keys).to.deep.equal({ allocator: "[redacted]", attester: "[redacted]", solver: "[redacted]", relayer: "[redacted]" });
    expect(redacted.database.url).to.equal("postgres://ferry:[redacted]@db.internal:5432/ferry");
    expect(redacted.accounts.solver).to.equal(KEY_ADDRESS.toLowerCase());
    expect(redacted.webhooks.secretKey).to.equal("[redacted]");
    expect(redacted.webhooks.previousSecretKey).to.equal("[redacted]");
  });

  it("keeps secrets out of every accidental rendering of the config itself", function () {
    for (const text of [JSON.stringify(config), inspect(config, { depth: 10 }), String(config.keys.solver), `${config.database.url}`]) {
      for (const secret of material) expect(text).not.to.contain(secret);
    }
  });

  it("redactConfig_rpcUrls_showOnlySchemeAndHost_andTheirKeysAreScrubbed", function () {
    const withUrls = resolveChainContracts(
      parseConfig({ chains: [chain({ rpcUrls: ["https://eth.example/v2/k3yk3yk3yk3y", "https://user:pa55word@rpc.example", "http://127.0.0.1:8545"] })] }, {}, "/"),
      new Map(),
    );
    const redacted = redactConfig(withUrls);
    expect(redacted.chains[0]!.rpcUrls).to.deep.equal(["https://eth.example/[redacted]", "https://rpc.example/[redacted]", "http://127.0.0.1:8545"]);
    expect(JSON.stringify(redacted)).not.to.contain("k3yk3yk3yk3y");
    const secrets = secretValues(withUrls);
    expect(scrubSecrets("fetch https://eth.example/v2/k3yk3yk3yk3y failed", secrets)).not.to.contain("k3yk3yk3yk3y");
    expect(scrubSecrets("auth pa55word", secrets)).not.to.contain("pa55word");
  });

  it("scrubs secret values out of free text", function () {
    const text = `failed with ${env.FERRY_SOLVER_KEY} at ${env.DATABASE_URL} (pw db-pass-987) key ${env.FERRY_WEBHOOK_SECRET_KEY} old ${env.FERRY_WEBHOOK_SECRET_KEY_PREVIOUS}`;
    const scrubbed = scrubSecrets(text, secretValues(config));
    for (const secret of material) expect(scrubbed).not.to.contain(secret);
  });
});

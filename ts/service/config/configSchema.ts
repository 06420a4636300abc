/**
 * The service configuration file (`FERRY_CONFIG`, JSON) as a TypeBox schema, and the resolved
 * configuration type the service runs with. The file never holds private keys: they come from the
 * environment only (see `parseConfig.ts`), and any unknown field — a `keys` object included — is
 * rejected.
 */
import { Type, type Static } from "typebox";
import type { Address } from "../model/values.ts";
import type { Secret } from "./secret.ts";
import { NO_EXPOSURE_BUDGETS, type ExposureBudgets } from "../balances/exposureBudget.ts";

const AddressString = Type.String({ pattern: "^0x[0-9a-fA-F]{40}$", description: "EVM address" });
const Name = Type.String({ minLength: 1, maxLength: 100 });
const HttpUrl = Type.String({ pattern: "^https?://", maxLength: 2048 });
const WsUrl = Type.String({ pattern: "^wss?://", maxLength: 2048 });
const Decimals = Type.Integer({ minimum: 0, maximum: 255 });
/**
 * A USD amount as a decimal string ("3000", "0.9998"; at most 8 decimals). Prices are operator-configured:
 * Ferry asks no price oracle, so the operator keeps them current (they only convert the destination gas
 * cost and the fixed fee into the input currency, and fill the `amountUsd` fields).
 */
const UsdAmount = Type.String({ pattern: "^(0|[1-9][0-9]{0,14})(\\.[0-9]{1,8})?$", description: "USD, decimal string" });
const GasUnits = Type.Integer({ minimum: 0, maximum: 30_000_000 });
/** An amount in a currency's smallest units (wei), as a decimal string. */
const UnitsAmount = Type.String({ pattern: "^(0|[1-9][0-9]{0,77})$", description: "Smallest units, decimal string" });
const UsdMicros = Type.String({ pattern: "^(0|[1-9][0-9]{0,30})$", description: "USD micro-units (6 decimals), decimal string" });
/** An exposure budget per purpose (ts/service/balances/exposureBudget.ts). */
const ExposureLimitsFile = Type.Object(
  { execute: Type.Optional(UsdMicros), sponsorship: Type.Optional(UsdMicros), fastFill: Type.Optional(UsdMicros) },
  { additionalProperties: false },
);
const SymbolName = Type.String({ minLength: 1, maxLength: 100 });

/**
 * A swap price source (ts/service/prices/priceSources.ts): prices the pair `base`/`quote` (currency
 * symbols, either direction) for routes whose destination is `chainId`.
 * - `fixed`: `price` units of `quote` per whole `base`, set by the operator (the devnet's, labelled
 *   "fixed" in quotes; not a market).
 * - `uniswapV2`: a Uniswap V2 pair on `chainId` (`pair`), whose tokens `baseToken`/`quoteToken` stand
 *   for the symbols (the native currency as its wrapped token); reserves read onchain at every quote
 *   and fill, fee `feeBps` (default 30). Its spot price is used only within `quotes.priceBandBps` of
 *   its `reference` — the pair's own TWAP over `windowSeconds` (default 1800) or a Chainlink-style
 *   feed of `base` in `quote` — and a quote takes at most `maxReserveBps` (default 500) of the pool's
 *   input reserve.
 */
export const PriceReferenceFileSchema = Type.Union([
  Type.Object(
    {
      type: Type.Literal("twap"),
      /** The averaging window: the RPC must serve the pair's state this far back (eth_call at a past block). */
      windowSeconds: Type.Integer({ minimum: 10, maximum: 86_400 }),
    },
    { additionalProperties: false },
  ),
  Type.Object(
    {
      type: Type.Literal("chainlink"),
      /** An AggregatorV3Interface feed on the source's chain giving one `base` in `quote` (e.g. ETH / USD for ETH/USDC). */
      feed: AddressString,
      /** An answer older than this (chain time − updatedAt) is refused: the feed's heartbeat plus a margin. */
      maxStalenessSeconds: Type.Integer({ minimum: 1, maximum: 7 * 86_400 }),
    },
    { additionalProperties: false },
  ),
]);
type PriceReferenceFile = Static<typeof PriceReferenceFileSchema>;
/** A uniswapV2 source's reference, its Chainlink feed (if any) decoded to a canonical `Address`. */
export type PriceSourceReference = Exclude<PriceReferenceFile, { type: "chainlink" }> | (Omit<Extract<PriceReferenceFile, { type: "chainlink" }>, "feed"> & { feed: Address });

/** A uniswapV2 source's reference when the file names none: the pair's 30-minute TWAP. */
export const DEFAULT_PRICE_REFERENCE: PriceSourceReference = { type: "twap", windowSeconds: 1_800 };
/** Bounds of the price band (bps), for the file and FERRY_PRICE_BAND_BPS alike. */
export const PRICE_BAND_BPS_RANGE = { minimum: 1, maximum: 5_000 } as const;
export const PriceSourceFileSchema = Type.Union([
  Type.Object(
    {
      type: Type.Literal("fixed"),
      chainId: Type.Integer({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER }),
      base: SymbolName,
      quote: SymbolName,
      price: Type.String({ pattern: "^(0|[1-9][0-9]{0,29})(\\.[0-9]{1,18})?$", description: "quote per whole base" }),
    },
    { additionalProperties: false },
  ),
  Type.Object(
    {
      type: Type.Literal("uniswapV2"),
      chainId: Type.Integer({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER }),
      base: SymbolName,
      quote: SymbolName,
      pair: AddressString,
      baseToken: AddressString,
      quoteToken: AddressString,
      feeBps: Type.Optional(Type.Integer({ minimum: 0, maximum: 1_000 })),
      reference: Type.Optional(PriceReferenceFileSchema),
      maxReserveBps: Type.Optional(Type.Integer({ minimum: 1, maximum: 10_000 })),
    },
    { additionalProperties: false },
  ),
]);

/** pino's levels; `silent` writes nothing. */
export const LOG_LEVELS = ["fatal", "error", "warn", "info", "debug", "trace", "silent"] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

/** PostgreSQL pool size and timeout bounds, for the file and the FERRY_DB_* variables alike. */
export const DATABASE_POOL_SIZE_RANGE = { minimum: 1, maximum: 1000 } as const;
export const DATABASE_TIMEOUT_MS_RANGE = { minimum: 100, maximum: 3_600_000 } as const;

/** The solver's poll interval bounds (ms), for the file and FERRY_SOLVER_POLL_MS alike. */
export const SOLVER_POLL_MS_RANGE = { minimum: 10, maximum: 600_000 } as const;
/** Bounds of the solver's per-transaction gas cap (FERRY_SOLVER_MAX_GAS). */
export const SOLVER_MAX_GAS_RANGE = { minimum: 21_000, maximum: 30_000_000 } as const;
/** The most repayments one batch pays (its calls and credits stay well within one transaction's gas cap). */
export const REPAYMENT_BATCH_MAX_SIZE = 10;
/**
 * Gas a batch is budgeted for: the Depository's request (signature, nonce, first transfer) and each
 * member (a transfer to the solver, at most an excess transfer and its app-fee credits). A batch whose
 * budget exceeds `solver.maxGasPerTransaction` is refused at config time: a signed batch that can never
 * be sent would hold its members' repayments until it expires.
 */
export const REPAYMENT_BATCH_GAS = { base: 80_000, perMember: 40_000 } as const;
/** Bounds of the fill deadline margin in seconds (FERRY_SOLVER_FILL_DEADLINE_MARGIN_SECONDS). */
export const SOLVER_DEADLINE_MARGIN_RANGE = { minimum: 0, maximum: 3_600 } as const;

/** A uniswapV2 source's default cap on one quote: 5% of the pool's input reserve. */
export const DEFAULT_MAX_RESERVE_BPS = 500;

/** The longest a quote may wait for its deposit (`quotes.ttlSeconds`): no fill of a request precedes its quote by more. */
export const QUOTE_TTL_MAX_SECONDS = 86_400;

/** Bounds of the per-chain RPC settings, for the file and the FERRY_RPC_* variables alike. */
export const RPC_TIMEOUT_MS_RANGE = { minimum: 100, maximum: 120_000 } as const;
export const RPC_RETRY_COUNT_RANGE = { minimum: 0, maximum: 10 } as const;

/** Block tags a chain may name as final (`eth_getBlockByNumber("finalized" | "safe")`). */
export const FINALITY_TAGS = ["finalized", "safe"] as const;
export type FinalityTag = (typeof FINALITY_TAGS)[number];

/** How the service reads one chain's RPC URLs (ts/service/chains/rpcTransport.ts). */
export const RpcFileSchema = Type.Object(
  {
    /** One attempt at one URL. */
    timeoutMs: Type.Optional(Type.Integer(RPC_TIMEOUT_MS_RANGE)),
    /** Rounds over the URLs after the first one failed. */
    retryCount: Type.Optional(Type.Integer(RPC_RETRY_COUNT_RANGE)),
    /** Backoff before round n: retryDelayMs · 2^(n−1), jittered into [½, 1], at most 5 s. */
    retryDelayMs: Type.Optional(Type.Integer({ minimum: 0, maximum: 60_000 })),
    /** A URL whose head is more than this many blocks behind the best URL's is stale: demoted. */
    maxHeadLagBlocks: Type.Optional(Type.Integer({ minimum: 1, maximum: 1_000_000 })),
  },
  { additionalProperties: false },
);

export const CurrencyFileSchema = Type.Object(
  {
    address: AddressString,
    symbol: Name,
    name: Name,
    decimals: Decimals,
    logoURI: Type.Optional(Type.String({ maxLength: 2048 })),
    /** USD price of one whole unit (operator-configured; no oracle). */
    usdPrice: Type.Optional(UsdAmount),
    /** Stray deposits below this (smallest units) are not refunded automatically; default from solver.strayRefundMinimumUsd. */
    strayRefundMinimum: Type.Optional(UnitsAmount),
  },
  { additionalProperties: false },
);

export const ChainFileSchema = Type.Object(
  {
    id: Type.Integer({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER }),
    /** Protocol chain name: `protocol.v2.chainId` in /chains and the chain ids inside orderData. */
    name: Type.String({ pattern: "^[a-z0-9][a-z0-9-]*$", maxLength: 64 }),
    displayName: Name,
    /** The public RPC URL (served in /chains); also what the service reads when `rpcUrls` is absent. */
    rpcUrl: HttpUrl,
    /** The URLs the service reads and sends through (failover, health scoring); default [rpcUrl]. FERRY_RPC_URLS_<id>. */
    rpcUrls: Type.Optional(Type.Array(HttpUrl, { minItems: 1, maxItems: 8 })),
    /** How RPC calls are bounded and retried. */
    rpc: Type.Optional(RpcFileSchema),
    wsRpcUrl: Type.Optional(WsUrl),
    explorerUrl: Type.Optional(HttpUrl),
    explorerName: Type.Optional(Type.String({ maxLength: 100 })),
    iconUrl: Type.Optional(Type.String({ maxLength: 2048 })),
    /**
     * Blocks on top of a block, itself included, before the service treats it as final: deposits are
     * credited, fills and payouts confirmed only then (1 = the head, which a reorg can still drop; 0 counts as 1).
     */
    confirmations: Type.Optional(Type.Integer({ minimum: 0, maximum: 10_000 })),
    /** The most one solver transaction may cost on this chain, max fee × gas limit, in wei (decimal string). Default 0.05 native. */
    maxTransactionFee: Type.Optional(Type.String({ pattern: "^[1-9][0-9]{0,40}$" })),
    /** Where the chain has it: a block is final only once at or below this tag's block too. */
    finalityTag: Type.Optional(Type.Union(FINALITY_TAGS.map((tag) => Type.Literal(tag)))),
    /** At most this many blocks per eth_getLogs call (halved on a provider's range/limit error). */
    maxLogRange: Type.Optional(Type.Integer({ minimum: 1, maximum: 1_000_000 })),
    nativeCurrency: Type.Object(
      {
        symbol: Name,
        name: Name,
        decimals: Decimals,
        logoURI: Type.Optional(Type.String({ maxLength: 2048 })),
        usdPrice: Type.Optional(UsdAmount),
        /** Stray deposits below this (wei) are not refunded automatically; default from solver.strayRefundMinimumUsd. */
        strayRefundMinimum: Type.Optional(UnitsAmount),
      },
      { additionalProperties: false },
    ),
    erc20Currencies: Type.Optional(Type.Array(CurrencyFileSchema)),
    /** Absent contracts are read from `<deploymentsDir>/<id>.json`. */
    contracts: Type.Optional(
      Type.Object(
        {
          depository: Type.Optional(AddressString),
          attestedReceiver: Type.Optional(AddressString),
          multicaller: Type.Optional(AddressString),
          /** Deposit addresses (POST /quote/v2 `useDepositAddress`); absent: the chain serves none. */
          depositAddressFactory: Type.Optional(AddressString),
          /** The canonical Multicall3 when the chain has it; "" in /chains otherwise. */
          multicall3: Type.Optional(AddressString),
        },
        { additionalProperties: false },
      ),
    ),
    depositEnabled: Type.Optional(Type.Boolean()),
    /** The operator's switch: the chain is shown disabled in /chains and quotes on it are refused. */
    disabled: Type.Optional(Type.Boolean()),
    /**
     * Seconds between blocks the chain normally produces: a head that does not advance for 3 of them
     * shows `blockProductionLagging` in /chains and closes deposits. Absent: not judged (a chain that
     * mines on demand, like the devnet's).
     */
    expectedBlockTimeSeconds: Type.Optional(Type.Number({ exclusiveMinimum: 0, maximum: 3600 })),
    baseChainId: Type.Optional(Type.Integer({ minimum: 1 })),
    tags: Type.Optional(Type.Array(Type.String({ maxLength: 64 }))),
  },
  { additionalProperties: false },
);

export const ConfigFileSchema = Type.Object(
  {
    server: Type.Optional(
      Type.Object(
        {
          host: Type.Optional(Type.String({ minLength: 1, maxLength: 255 })),
          port: Type.Optional(Type.Integer({ minimum: 0, maximum: 65_535 })),
          bodyLimitBytes: Type.Optional(Type.Integer({ minimum: 1024, maximum: 100 * 1024 * 1024 })),
          /** How long a verified (or unknown) API key is remembered per process; 0 = look up every request. */
          apiKeyCacheSeconds: Type.Optional(Type.Integer({ minimum: 0, maximum: 300 })),
          /**
           * How often each process asks the database which requests other processes wrote (the status
           * cache's staleness bound for them); 0 = no status cache (every status read queries the database).
           */
          statusCacheRefreshMs: Type.Optional(Type.Integer({ minimum: 0, maximum: 60_000 })),
          /**
           * Origins browser pages may call the API from (CORS): `["*"]` (default) any, a list of exact
           * origins (`https://app.example`) only those, `[]` none (no CORS headers).
           */
          corsOrigins: Type.Optional(
            Type.Array(Type.String({ pattern: "^(\\*|https?://[^/?#\\s]+)$", maxLength: 255 }), { maxItems: 100 }),
          ),
        },
        { additionalProperties: false },
      ),
    ),
    chains: Type.Optional(Type.Array(ChainFileSchema)),
    database: Type.Optional(
      Type.Object(
        {
          /** Prefer DATABASE_URL: it may carry a password. */
          url: Type.Optional(Type.String({ pattern: "^postgres(ql)?://" })),
          dataDir: Type.Optional(Type.String({ minLength: 1 })),
          /** PostgreSQL only: connections in the pool (per process). FERRY_DB_POOL_SIZE. */
          poolSize: Type.Optional(Type.Integer({ minimum: DATABASE_POOL_SIZE_RANGE.minimum, maximum: DATABASE_POOL_SIZE_RANGE.maximum })),
          /** PostgreSQL only: how long to wait for a connection (new or from the pool) before DATABASE_UNAVAILABLE. FERRY_DB_CONNECT_TIMEOUT_MS. */
          connectTimeoutMs: Type.Optional(Type.Integer({ minimum: DATABASE_TIMEOUT_MS_RANGE.minimum, maximum: DATABASE_TIMEOUT_MS_RANGE.maximum })),
          /** PostgreSQL only: `statement_timeout` of every session (the server cancels a longer statement). FERRY_DB_STATEMENT_TIMEOUT_MS. */
          statementTimeoutMs: Type.Optional(Type.Integer({ minimum: DATABASE_TIMEOUT_MS_RANGE.minimum, maximum: DATABASE_TIMEOUT_MS_RANGE.maximum })),
          /** PostgreSQL only: `idle_in_transaction_session_timeout` (a transaction left open by a stuck caller is ended). FERRY_DB_IDLE_IN_TRANSACTION_TIMEOUT_MS. */
          idleInTransactionTimeoutMs: Type.Optional(Type.Integer({ minimum: DATABASE_TIMEOUT_MS_RANGE.minimum, maximum: DATABASE_TIMEOUT_MS_RANGE.maximum })),
          /** PostgreSQL only: data statements prepared once per connection under a name (off behind a pooler in transaction mode that cannot keep them). FERRY_DB_PREPARED_STATEMENTS. */
          preparedStatements: Type.Optional(Type.Boolean()),
        },
        { additionalProperties: false },
      ),
    ),
    rateLimits: Type.Optional(
      Type.Object(
        {
          anonymousPerMinute: Type.Optional(Type.Integer({ minimum: 1 })),
          apiKeyPerMinute: Type.Optional(Type.Integer({ minimum: 1 })),
          /** POST /execute/permits: failed permit requests (the fill or the deposit would revert) one user may make per hour (counted in the store, shared by replicas). */
          failedPermitsPerUserPerHour: Type.Optional(Type.Integer({ minimum: 1, maximum: 1_000_000 })),
        },
        { additionalProperties: false },
      ),
    ),
    /** Quote pricing and timing (POST /quote/v2); see ts/service/quote/README.md. */
    quotes: Type.Optional(
      Type.Object(
        {
          /** Seconds from the quote to its `expiresAt`: a deposit mined later is refunded (ORDER_EXPIRED). */
          ttlSeconds: Type.Optional(Type.Integer({ minimum: 10, maximum: QUOTE_TTL_MAX_SECONDS })),
          /** Seconds from `expiresAt` to the fill deadline (the attestation's and orderData.output's deadline). */
          fillWindowSeconds: Type.Optional(Type.Integer({ minimum: 10, maximum: 86_400 })),
          /**
           * A reclaimable quote (`reclaimable: true`): seconds from the fill deadline to the deposit's
           * `reclaimAt` — the time the service has to confirm the fill and release the deposit before its
           * depositor may take it back (the solver alerts from half of it on).
           */
          reclaimWindowSeconds: Type.Optional(Type.Integer({ minimum: 600, maximum: 30 * 86_400 })),
          /** The `relayerService` fee in basis points of the amount. */
          serviceFeeBps: Type.Optional(Type.Integer({ minimum: 0, maximum: 1_000 })),
          /** A fixed part of the `relayerService` fee, in USD, converted into the input currency. */
          fixedFeeUsd: Type.Optional(UsdAmount),
          /** `details.timeEstimate` in seconds. */
          timeEstimateSeconds: Type.Optional(Type.Integer({ minimum: 0, maximum: 86_400 })),
          /** Swap price sources; a route between two symbols without one is UNSUPPORTED_ROUTE. */
          priceSources: Type.Optional(Type.Array(PriceSourceFileSchema, { maxItems: 1000 })),
          /** A swap's slippage tolerance when the body gives none (bps). */
          swapSlippageBps: Type.Optional(Type.Integer({ minimum: 0, maximum: 5_000 })),
          /** The gas top-up (`topupGas` without `topupGasAmount`), in USD of the destination's native currency. */
          topupGasUsd: Type.Optional(UsdAmount),
          /** The most a gas top-up may be worth (a larger `topupGasAmount` is refused TOPUP_GAS_TOO_HIGH). FERRY_TOPUP_GAS_MAX_USD. */
          topupGasMaxUsd: Type.Optional(UsdAmount),
          /**
           * The price band (bps): a market's spot is used only within this of its reference (else
           * PRICE_OUT_OF_BAND), and no quote pays out more than its net input is worth at the reference
           * plus this. FERRY_PRICE_BAND_BPS.
           */
          priceBandBps: Type.Optional(Type.Integer(PRICE_BAND_BPS_RANGE)),
          /** Gas estimates: deposits on the origin chain (the `gas` fee) and fills on the destination (`relayerGas`). */
          gas: Type.Optional(
            Type.Object(
              {
                depositNative: Type.Optional(GasUnits),
                depositErc20: Type.Optional(GasUnits),
                /** The reclaimable deposit forms (`reclaimable: true`): the plain ones plus the commitment's slot and event data. */
                depositNativeReclaimable: Type.Optional(GasUnits),
                depositErc20Reclaimable: Type.Optional(GasUnits),
                fillNative: Type.Optional(GasUnits),
                fillErc20: Type.Optional(GasUnits),
                /** A fill through fillWithCalls, before the calls themselves. */
                fillWithCalls: Type.Optional(GasUnits),
                /** Gas allowed per destination call when the body gives no `txsGasLimit`. */
                callDefault: Type.Optional(GasUnits),
                /** The gas top-up's transfer to the recipient. */
                topupCall: Type.Optional(GasUnits),
              },
              { additionalProperties: false },
            ),
          ),
        },
        { additionalProperties: false },
      ),
    ),
    /**
     * Webhook delivery (ts/service/webhooks/README.md). The encryption key of the stored API keys is
     * never in the file: FERRY_WEBHOOK_SECRET_KEY (64 hex chars) in the environment.
     */
    webhooks: Type.Optional(
      Type.Object(
        {
          /** Off: no webhook worker in this process (deliveries wait for a process that has one). FERRY_WEBHOOKS=on|off. */
          enabled: Type.Optional(Type.Boolean()),
          /** One attempt's HTTP timeout. */
          timeoutMs: Type.Optional(Type.Integer({ minimum: 1, maximum: 120_000 })),
          /** Retries after the first attempt (so at most maxRetries + 1 attempts). */
          maxRetries: Type.Optional(Type.Integer({ minimum: 0, maximum: 10 })),
          /** Backoff before retry n: min(maxDelayMs, baseDelayMs · 2^(n−1)), then jittered into [½, 1] of that. */
          baseDelayMs: Type.Optional(Type.Integer({ minimum: 1, maximum: 86_400_000 })),
          maxDelayMs: Type.Optional(Type.Integer({ minimum: 1, maximum: 86_400_000 })),
          /** Pause between claims when there was nothing (more) to do. */
          pollIntervalMs: Type.Optional(Type.Integer({ minimum: 1, maximum: 60_000 })),
          /** Events claimed and posted at once per worker. */
          batchSize: Type.Optional(Type.Integer({ minimum: 1, maximum: 500 })),
          /** How long a claimed attempt is reserved for its worker; must exceed timeoutMs. */
          leaseMs: Type.Optional(Type.Integer({ minimum: 1, maximum: 3_600_000 })),
          /** Allow http:// endpoints to non-loopback hosts (off: https only, http only to loopback). */
          allowHttp: Type.Optional(Type.Boolean()),
          /** Attempts in flight to one endpoint (one API key's webhook) at once, across replicas; the other slots stay for other endpoints. */
          maxInFlightPerEndpoint: Type.Optional(Type.Integer({ minimum: 1, maximum: 500 })),
          /**
           * Address ranges (CIDR) no webhook may reach, checked on the address actually connected to
           * (every DNS answer) and on IP-literal URLs when set. Default: link-local (cloud metadata).
           */
          denyNetworks: Type.Optional(Type.Array(Type.String({ minLength: 3, maxLength: 64 }), { maxItems: 100 })),
        },
        { additionalProperties: false },
      ),
    ),
    /** The solver loop (ts/service/solver/README.md); it runs only when its keys are configured too. */
    solver: Type.Optional(
      Type.Object(
        {
          /** Off: no solver in this process (another replica, or none, fills). FERRY_SOLVER=on|off. */
          enabled: Type.Optional(Type.Boolean()),
          /** Pause between solver ticks. FERRY_SOLVER_POLL_MS. */
          pollIntervalMs: Type.Optional(Type.Integer({ minimum: SOLVER_POLL_MS_RANGE.minimum, maximum: SOLVER_POLL_MS_RANGE.maximum })),
          /** Requests stepped at once by this process (fills, payouts in flight). FERRY_SOLVER_CONCURRENCY. */
          concurrency: Type.Optional(Type.Integer({ minimum: 1, maximum: 10_000 })),
          /** Of those, at most this many acting on one chain at once. */
          concurrencyPerChain: Type.Optional(Type.Integer({ minimum: 1, maximum: 10_000 })),
          /** A request's lease: renewed while its step runs; a dead holder's lapses after this long. */
          leaseMs: Type.Optional(Type.Integer({ minimum: 1000, maximum: 3_600_000 })),
          /** A step starts no new transaction after this long (it finishes the calls in flight, bounded by the RPC timeouts). */
          stepTimeoutMs: Type.Optional(Type.Integer({ minimum: 1000, maximum: 3_600_000 })),
          /** A transaction not mined after this long is re-sent at the same nonce with fees bumped ≥ 12.5% (up to the chain's maxTransactionFee). */
          replaceAfterMs: Type.Optional(Type.Integer({ minimum: 100, maximum: 86_400_000 })),
          /**
           * The most gas any transaction the solver sends (fill, repayment, refund, stray refund, cancel) may
           * be given: a larger estimate is not sent (GAS_CAP_EXCEEDED, parked). FERRY_SOLVER_MAX_GAS.
           */
          maxGasPerTransaction: Type.Optional(Type.Integer({ minimum: SOLVER_MAX_GAS_RANGE.minimum, maximum: SOLVER_MAX_GAS_RANGE.maximum })),
          /**
           * A fill is sent only while destination time + this margin is before the fill deadline (the receiver
           * rejects time > deadline; the margin covers the blocks until it lands). FERRY_SOLVER_FILL_DEADLINE_MARGIN_SECONDS.
           */
          fillDeadlineMarginSeconds: Type.Optional(Type.Integer({ minimum: SOLVER_DEADLINE_MARGIN_RANGE.minimum, maximum: SOLVER_DEADLINE_MARGIN_RANGE.maximum })),
          /**
           * The default dust threshold of stray-deposit refunds, in USD, for a currency with a usdPrice and no
           * strayRefundMinimum of its own. FERRY_STRAY_REFUND_MINIMUM_USD.
           */
          strayRefundMinimumUsd: Type.Optional(UsdAmount),
          /**
           * A stray deposit is refunded automatically only when it is worth at least this many times its
           * refund's gas cost at the current gas price (and at least the USD threshold above), so that a
           * stray always costs its sender more than its refund costs the operator. FERRY_STRAY_REFUND_GAS_FACTOR.
           */
          strayRefundGasFactor: Type.Optional(Type.Number({ minimum: 1, maximum: 1000, multipleOf: 0.01 })),
          /**
           * Batched repayment (ts/service/solver/payout/README.md): the repayments of verified fills on one
           * origin Depository paid by one allocator-signed request. `maxSize` 1 (the default) is off: each
           * repayment its own transaction. A batch forms once `maxSize` repayments wait, or the oldest has
           * waited `maxWaitMs`.
           */
          repaymentBatch: Type.Optional(
            Type.Object(
              {
                maxSize: Type.Optional(Type.Integer({ minimum: 1, maximum: REPAYMENT_BATCH_MAX_SIZE })),
                maxWaitMs: Type.Optional(Type.Integer({ minimum: 0, maximum: 600_000 })),
              },
              { additionalProperties: false },
            ),
          ),
        },
        { additionalProperties: false },
      ),
    ),
    /** App balances (ts/service/balances/README.md): what funds them, and the hourly exposure budgets. */
    appBalances: Type.Optional(
      Type.Object(
        {
          /**
           * Per chain, the currencies an app may fund its balance with (each needs a usdPrice). A chain
           * left out takes its native currency and its ERC-20s priced at exactly 1 USD (stablecoins), when priced.
           */
          fundingCurrencies: Type.Optional(
            Type.Array(Type.Object({ chainId: Type.Integer({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER }), currencies: Type.Array(AddressString, { maxItems: 32 }) }, { additionalProperties: false }), {
              maxItems: 256,
            }),
          ),
          /** USD micro-units (decimal strings) per store-clock hour; a purpose left out is unlimited. */
          exposure: Type.Optional(
            Type.Object(
              {
                perApp: Type.Optional(ExposureLimitsFile),
                apps: Type.Optional(Type.Array(Type.Object({ apiKeyId: Type.String({ pattern: "^key_[0-9a-f]{16}$" }), ...ExposureLimitsFile.properties }, { additionalProperties: false }), { maxItems: 10_000 })),
                perCurrency: Type.Optional(
                  Type.Array(Type.Object({ chainId: Type.Integer({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER }), currency: AddressString, ...ExposureLimitsFile.properties }, { additionalProperties: false }), {
                    maxItems: 1000,
                  }),
                ),
              },
              { additionalProperties: false },
            ),
          ),
        },
        { additionalProperties: false },
      ),
    ),
    /** The service's log (pino through Fastify). */
    log: Type.Optional(
      Type.Object(
        {
          /** The lowest level written. FERRY_LOG_LEVEL. */
          level: Type.Optional(Type.Union(LOG_LEVELS.map((level) => Type.Literal(level)))),
        },
        { additionalProperties: false },
      ),
    ),
    /** The websocket status stream (ts/service/websocket/README.md). */
    websocket: Type.Optional(
      Type.Object(
        {
          /** Off: no websocket route, no outbox polling. */
          enabled: Type.Optional(Type.Boolean()),
          /** The route the websocket is served on (an upgrade elsewhere is a 404). */
          path: Type.Optional(Type.String({ pattern: "^/[A-Za-z0-9._~/-]*$", maxLength: 200 })),
          /** How often the outbox is read for new status changes (every replica's). */
          pollIntervalMs: Type.Optional(Type.Integer({ minimum: 10, maximum: 60_000 })),
          /** Ping interval; a connection that has not answered the previous ping is terminated. */
          heartbeatMs: Type.Optional(Type.Integer({ minimum: 50, maximum: 600_000 })),
          /** Bytes that may wait to be sent to one client; beyond, it is closed as a slow consumer (1008). */
          maxBufferedBytes: Type.Optional(Type.Integer({ minimum: 1024, maximum: 256 * 1024 * 1024 })),
          maxSubscriptionsPerConnection: Type.Optional(Type.Integer({ minimum: 1, maximum: 10_000 })),
        },
        { additionalProperties: false },
      ),
    ),
    /** Where `<chainId>.json` deployment records are; relative to the config file's folder. */
    deploymentsDir: Type.Optional(Type.String({ minLength: 1 })),
    /** Names of the env variables holding each private key (the keys themselves are never in the file). */
    keyEnv: Type.Optional(
      Type.Object(
        {
          allocator: Type.Optional(Type.String({ pattern: "^[A-Z_][A-Z0-9_]*$" })),
          attester: Type.Optional(Type.String({ pattern: "^[A-Z_][A-Z0-9_]*$" })),
          solver: Type.Optional(Type.String({ pattern: "^[A-Z_][A-Z0-9_]*$" })),
          relayer: Type.Optional(Type.String({ pattern: "^[A-Z_][A-Z0-9_]*$" })),
        },
        { additionalProperties: false },
      ),
    ),
  },
  { additionalProperties: false },
);

export type ConfigFile = Static<typeof ConfigFileSchema>;
/** A price source as configured, defaults applied (a uniswapV2 source's fee, reference and depth cap). */
export type PriceSourceConfig =
  | Extract<Static<typeof PriceSourceFileSchema>, { type: "fixed" }>
  | (Omit<Extract<Static<typeof PriceSourceFileSchema>, { type: "uniswapV2" }>, "feeBps" | "reference" | "maxReserveBps" | "pair" | "baseToken" | "quoteToken"> & {
      pair: Address;
      baseToken: Address;
      quoteToken: Address;
      feeBps: number;
      reference: PriceSourceReference;
      maxReserveBps: number;
    });
export type ChainFile = Static<typeof ChainFileSchema>;

export type KeyRole = "allocator" | "attester" | "solver" | "relayer";
export const KEY_ROLES: readonly KeyRole[] = ["allocator", "attester", "solver", "relayer"];

/** `usdPrice`: USD per whole unit, decimal string, operator-configured; absent when not configured. */
export type CurrencyConfig = { address: Address; symbol: string; name: string; decimals: number; logoURI: string; usdPrice?: string; strayRefundMinimum?: string };

/** How one chain's RPC calls are bounded and retried, defaults applied (CONFIG_DEFAULTS.rpc). */
export type RpcSettings = { timeoutMs: number; retryCount: number; retryDelayMs: number; maxHeadLagBlocks: number };

export type ChainConfig = {
  id: number;
  name: string;
  displayName: string;
  /** The public RPC URL (/chains). */
  rpcUrl: string;
  /** What the service reads and sends through, in the operator's order of preference (may hold API keys: never served, redacted in logs and metrics). */
  rpcUrls: string[];
  rpc: RpcSettings;
  wsRpcUrl?: string;
  explorerUrl?: string;
  explorerName?: string;
  iconUrl?: string;
  confirmations: number;
  /**
   * The cap of one solver transaction's max fee × gas limit, in wei as a decimal string (the schema's
   * pattern: a positive integer). A string, like every amount in the config, so the config stays plain
   * JSON (it is logged and served redacted); the nonce manager reads it with BigInt.
   */
  maxTransactionFee: string;
  /** A block is final only once at or below this tag's block as well; null: `confirmations` alone. */
  finalityTag: FinalityTag | null;
  /** Blocks per eth_getLogs call, at most. */
  maxLogRange: number;
  nativeCurrency: { symbol: string; name: string; decimals: number; logoURI: string; usdPrice?: string; strayRefundMinimum?: string };
  erc20Currencies: CurrencyConfig[];
  /** `depositAddressFactory` absent: no deposit addresses on this chain (an older deployment record). */
  contracts: { depository: Address; attestedReceiver: Address; multicaller: Address; depositAddressFactory?: Address; multicall3?: Address };
  /** First block of the deployment (where an indexer starts), when a deployment record was read. */
  deploymentBlock?: number;
  depositEnabled: boolean;
  disabled: boolean;
  /** Block production is judged against it (../chains/chainHealth.ts); absent: not judged. */
  expectedBlockTimeSeconds?: number;
  baseChainId: number;
  tags: string[];
};

/** The chain as written in the file after defaults, before contracts are resolved from records. */
export type UnresolvedChainConfig = Omit<ChainConfig, "contracts"> & { contracts: Partial<ChainConfig["contracts"]> };

export type FerryConfig = {
  server: { host: string; port: number; bodyLimitBytes: number; apiKeyCacheSeconds: number; statusCacheRefreshMs: number; corsOrigins: string[] };
  chains: ChainConfig[];
  database: DatabaseSettings;
  rateLimits: { anonymousPerMinute: number; apiKeyPerMinute: number; failedPermitsPerUserPerHour: number };
  deploymentsDir: string;
  quotes: QuoteSettings;
  /** Private keys from the environment; `Secret` prints as `[redacted]`. */
  keys: Partial<Record<KeyRole, Secret>>;
  /** The public address of each configured key (safe to log and to publish, e.g. solverAddresses). */
  accounts: Partial<Record<KeyRole, Address>>;
  websocket: WebsocketSettings;
  webhooks: WebhookSettings;
  solver: SolverSettings;
  log: LogSettings;
  admin: AdminSettings;
  /** App balances; absent (tests' hand-built configs): defaults (DEFAULT_APP_BALANCES). */
  appBalances?: AppBalanceSettings;
};

/**
 * App balances, defaults applied: `fundingCurrencies` per chain id as the operator listed them (a chain
 * not listed: ts/service/balances/fundingCurrency.ts's default), the exposure budgets.
 */
export type AppBalanceSettings = { fundingCurrencies: Readonly<Record<number, readonly Address[]>>; exposure: ExposureBudgets };
export const DEFAULT_APP_BALANCES: AppBalanceSettings = { fundingCurrencies: {}, exposure: NO_EXPOSURE_BUDGETS };

/** The database, defaults applied (CONFIG_DEFAULTS.database); the pool and timeouts apply to PostgreSQL only. */
export type DatabaseSettings = {
  url?: Secret;
  dataDir: string;
  poolSize: number;
  connectTimeoutMs: number;
  statementTimeoutMs: number;
  idleInTransactionTimeoutMs: number;
  preparedStatements: boolean;
};
/**
 * The operator's admin API (/admin/…, ts/service/http/routes/admin*.ts): on only when FERRY_ADMIN_TOKEN
 * is set (at least 32 characters); callers send it as `authorization: Bearer <token>`. Never in the file.
 */
export type AdminSettings = { token?: Secret };

/** The admin token's length bounds: long enough not to be guessed, short enough for a header. */
export const ADMIN_TOKEN_LENGTH = { minimum: 32, maximum: 512 } as const;

/** The solver loop, defaults applied (CONFIG_DEFAULTS.solver). `enabled` alone does not start it: its keys must be configured. */
export type SolverSettings = {
  enabled: boolean;
  pollIntervalMs: number;
  concurrency: number;
  concurrencyPerChain: number;
  leaseMs: number;
  stepTimeoutMs: number;
  replaceAfterMs: number;
  /** Gas cap of every transaction the solver sends. */
  maxGasPerTransaction: number;
  /** Seconds before the fill deadline after which no fill is sent. */
  fillDeadlineMarginSeconds: number;
  /** USD below which a stray deposit is not refunded automatically (currencies with a usdPrice and no strayRefundMinimum). */
  strayRefundMinimumUsd: string;
  /** A stray deposit worth less than this many times its refund's gas cost (at the current gas price) is not refunded automatically. */
  strayRefundGasFactor: number;
  /** Batched repayment: at most `maxSize` repayments per origin transaction (1: off), formed once the oldest waited `maxWaitMs`. */
  repaymentBatch: { maxSize: number; maxWaitMs: number };
};

/** The service log, defaults applied (CONFIG_DEFAULTS.log). */
export type LogSettings = { level: LogLevel };

/** Webhook delivery settings, defaults applied (CONFIG_DEFAULTS.webhooks). */
export type WebhookSettings = {
  /** Whether this process runs the webhook worker (it also needs `secretKey`). */
  enabled: boolean;
  /** FERRY_WEBHOOK_SECRET_KEY (64 hex chars): encrypts the stored API keys that sign deliveries. Absent → no worker, no setWebhook. */
  secretKey?: Secret;
  /** FERRY_WEBHOOK_SECRET_KEY_PREVIOUS (64 hex chars): the key secrets may still be under during a rotation; read only. Needs `secretKey`. */
  previousSecretKey?: Secret;
  timeoutMs: number;
  maxRetries: number;
  baseDelayMs: number;
  maxDelayMs: number;
  pollIntervalMs: number;
  batchSize: number;
  leaseMs: number;
  allowHttp: boolean;
  maxInFlightPerEndpoint: number;
  /** CIDR ranges (`169.254.0.0/16`, `fe80::/10`) webhooks may not connect to. */
  denyNetworks: string[];
};

/** The websocket status stream, defaults applied (CONFIG_DEFAULTS.websocket). */
export type WebsocketSettings = {
  enabled: boolean;
  path: string;
  pollIntervalMs: number;
  heartbeatMs: number;
  maxBufferedBytes: number;
  maxSubscriptionsPerConnection: number;
};

/** Quote pricing and timing, defaults applied (CONFIG_DEFAULTS.quotes). */
export type QuoteSettings = {
  ttlSeconds: number;
  fillWindowSeconds: number;
  reclaimWindowSeconds: number;
  serviceFeeBps: number;
  fixedFeeUsd: string;
  timeEstimateSeconds: number;
  gas: {
    depositNative: number;
    depositErc20: number;
    depositNativeReclaimable: number;
    depositErc20Reclaimable: number;
    fillNative: number;
    fillErc20: number;
    fillWithCalls: number;
    callDefault: number;
    topupCall: number;
  };
  priceSources: PriceSourceConfig[];
  swapSlippageBps: number;
  topupGasUsd: string;
  /** The most a gas top-up may be worth, USD. */
  topupGasMaxUsd: string;
  /** Spot within this of the reference; output at most this above the net input's reference value (bps). */
  priceBandBps: number;
};

export type UnresolvedFerryConfig = Omit<FerryConfig, "chains"> & { chains: UnresolvedChainConfig[] };

export const CONFIG_DEFAULTS = {
  host: "127.0.0.1",
  port: 8080,
  bodyLimitBytes: 1024 * 1024,
  /** A revoked key may keep working this long in a process that verified it just before. */
  apiKeyCacheSeconds: 5,
  /** Another process's write to a request shows in this one's status route within about this long. */
  statusCacheRefreshMs: 250,
  /** Any page may call the API: it takes no cookies, so a page can do nothing its own server could not. */
  corsOrigins: ["*"] as string[],
  dataDir: ".ferry/data",
  /**
   * PostgreSQL: 20 connections per process; 5 s to get one; a statement may run 30 s; a transaction
   * left idle is ended after 60 s (its locks released). A database that does not answer within these
   * bounds is DATABASE_UNAVAILABLE (503 + Retry-After on the API; the solver and webhook worker back off).
   */
  database: { poolSize: 20, connectTimeoutMs: 5000, statementTimeoutMs: 30_000, idleInTransactionTimeoutMs: 60_000, preparedStatements: true },
  deploymentsDir: "deployments",
  /**
   * The head is not final: a deposit is credited (and a fill or payout confirmed) 12 blocks deep unless
   * a chain says otherwise (about 2.4 minutes on Ethereum, seconds on fast L2s). The devnet's local
   * chains, which cannot reorg, use 1.
   */
  confirmations: 12,
  maxLogRange: 2_000,
  /** 4 s per attempt, 2 more rounds over the URLs after 250 ms and 500 ms (jittered), stale beyond 10 blocks. */
  rpc: { timeoutMs: 4_000, retryCount: 2, retryDelayMs: 250, maxHeadLagBlocks: 10 } satisfies RpcSettings,
  anonymousPerMinute: 120,
  /** Failed permit requests one user may make per hour (each refused before anything is sent). */
  failedPermitsPerUserPerHour: 5,
  apiKeyPerMinute: 1200,
  /**
   * 5 minutes to deposit, 10 more to fill; 10 bps service fee, no fixed fee. Gas: a native deposit
   * measures ~24k (bench:gas), an ERC-20 deposit ~55k; fills through the AttestedReceiver ~60k native /
   * ~85k ERC-20 — the estimates carry headroom.
   */
  quotes: {
    ttlSeconds: 300,
    fillWindowSeconds: 600,
    /** An hour after the fill deadline: the fill's confirmation and the release have that long. */
    reclaimWindowSeconds: 3600,
    serviceFeeBps: 10,
    fixedFeeUsd: "0",
    timeEstimateSeconds: 30,
    gas: {
      depositNative: 35_000,
      depositErc20: 75_000,
      depositNativeReclaimable: 60_000,
      depositErc20Reclaimable: 100_000,
      fillNative: 80_000,
      fillErc20: 110_000,
      fillWithCalls: 150_000,
      callDefault: 150_000,
      topupCall: 40_000,
    },
    priceSources: [],
    swapSlippageBps: 50,
    topupGasUsd: "2",
    /** A top-up is gas money: $2 by default, $50 at most. */
    topupGasMaxUsd: "50",
    /** 3%: a 30-minute average and the spot of a liquid pair stay closer than that outside a crash. */
    priceBandBps: 300,
  } satisfies QuoteSettings,
  /**
   * Webhooks: 10 s per attempt, 10 retries with backoff 10 s, 20 s, 40 s … capped at 1 h (jittered to
   * [½, 1] of each step: the 11th attempt comes ~1.2–2.4 h after the first), up to 20 events in flight
   * per worker, polled every 500 ms, a claimed attempt reserved 60 s.
   */
  webhooks: {
    enabled: true,
    timeoutMs: 10_000,
    maxRetries: 10,
    baseDelayMs: 10_000,
    maxDelayMs: 3_600_000,
    pollIntervalMs: 500,
    batchSize: 20,
    leaseMs: 60_000,
    allowHttp: false,
    /** A dead endpoint holds at most this many of the 20 slots (for one timeout), the rest go on. */
    maxInFlightPerEndpoint: 4,
    /** Link-local, where cloud instance metadata lives (169.254.169.254): never a webhook receiver. */
    denyNetworks: ["169.254.0.0/16", "fe80::/10"],
  } satisfies Omit<WebhookSettings, "secretKey" | "previousSecretKey">,
  /** Websocket: served on /ws, outbox read every 250 ms, ping every 30 s, 1 MiB per slow client, 100 subscriptions per connection. */
  websocket: {
    enabled: true,
    path: "/ws",
    pollIntervalMs: 250,
    heartbeatMs: 30_000,
    maxBufferedBytes: 1024 * 1024,
    maxSubscriptionsPerConnection: 100,
  } satisfies WebsocketSettings,
  /**
   * The solver ticks every second (the devnet: every 100 ms) and is woken at once by status changes
   * (LISTEN/NOTIFY across replicas); 64 requests in flight per process, 48 per chain; a 15 s lease
   * renewed every 5 s while a step runs; a step starts no transaction after 10 s (within its lease);
   * a transaction unmined for 30 s is replaced with higher fees. Gas cap 500,000 per transaction: a
   * fill measures 69–81k, a payout's execute ~66k plus at most ~145k per payee that burns its
   * 50k/100k allowance (bench:gas), an approve ~46k. No fill within 30 s of its deadline. Strays
   * under $1, or under twice their refund's gas cost at the current gas price, are not refunded
   * automatically.
   */
  solver: {
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
  } satisfies SolverSettings,
  /**
   * A solver transaction may cost at most 0.05 of the chain's native unit (max fee × gas limit), unless
   * the chain says otherwise; with the 500,000 gas cap that allows max fees up to 100 gwei.
   */
  maxTransactionFee: "50000000000000000",
  log: { level: "info" } satisfies LogSettings,
  keyEnv: {
    allocator: "FERRY_ALLOCATOR_KEY",
    attester: "FERRY_ATTESTER_KEY",
    solver: "FERRY_SOLVER_KEY",
    relayer: "FERRY_RELAYER_KEY",
  } satisfies Record<KeyRole, string>,
} as const;

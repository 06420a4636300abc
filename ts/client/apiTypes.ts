/**
 * The records of the HTTP API (docs/api.md) as TypeScript types, written from the spec (the client never
 * imports the server). Fields the spec lists are typed; anything else the server adds is still
 * reachable through the index signatures, since a newer server may send more than this client knows.
 * Hex values are plain strings on the wire (0x-prefixed); executeQuote checks what it sends.
 * test/client/apiTypes.test.ts checks at compile time that the server's own records fit these types.
 * The order (`protocol.v2.orderData`) is the one type shared with ts/core, which defines its wire form.
 */
import type { OrderJson } from "../core/orderJson.ts";


/** Request statuses (spec "States and transitions"). `fallback` is reported for a refund by some servers. */
export type RequestStatus = "waiting" | "depositing" | "pending" | "submitted" | "success" | "failure" | "refund" | "fallback";

export type CurrencyMetadata = { logoURI?: string; verified?: boolean; isNative?: boolean; [key: string]: unknown };

export type Currency = {
  chainId: number;
  /** The zero address is the native currency. */
  address: string;
  symbol: string;
  name: string;
  decimals: number;
  metadata?: CurrencyMetadata;
  [key: string]: unknown;
};

export type Amount = {
  currency: Currency;
  /** Integer in smallest units. */
  amount: string;
  amountFormatted: string;
  amountUsd: string;
  minimumAmount: string;
  [key: string]: unknown;
};

/** A transaction to submit: `value` in smallest units; gas fields optional. */
export type TransactionData = {
  from: string;
  to: string;
  data: string;
  value: string;
  chainId: number;
  gas?: string;
  maxFeePerGas?: string;
  maxPriorityFeePerGas?: string;
  [key: string]: unknown;
};

export type StepCheck = { endpoint: string; method: "GET" | string };

/** A `signature` step's item data (a usePermit quote): the EIP-712 message and where to post the signature. */
export type SignatureData = {
  sign: { signatureKind: "eip712" | string; domain: Record<string, unknown>; types: Record<string, unknown>; primaryType: string; value: Record<string, unknown>; message?: Record<string, unknown> };
  post: { endpoint: string; method: string; body: Record<string, unknown> };
  [key: string]: unknown;
};

export type StepItem = {
  /** `incomplete` at quote time. */
  status: "incomplete" | "complete" | string;
  data: TransactionData | SignatureData;
  check?: StepCheck;
  [key: string]: unknown;
};

export type Step = {
  id: string;
  action: string;
  description: string;
  kind: "transaction" | "signature" | string;
  requestId: string;
  items: StepItem[];
  /** "" when no deposit address is used. */
  depositAddress: string;
  [key: string]: unknown;
};

export type FeeBuckets = {
  gas?: Amount;
  relayer?: Amount;
  relayerGas?: Amount;
  relayerService?: Amount;
  app?: Amount;
  subsidized?: Amount;
  [key: string]: Amount | undefined;
};

export type UsdPercent = { usd: string; percent: string };

export type QuoteDetails = {
  operation: string;
  sender: string;
  recipient: string;
  timeEstimate: number;
  currencyIn: Amount;
  currencyOut: Amount;
  refundCurrency?: Amount;
  totalImpact?: UsdPercent;
  swapImpact?: UsdPercent;
  expandedPriceImpact?: Record<string, { usd: string }>;
  rate: string;
  slippageTolerance?: Record<"origin" | "destination", { usd: string; value: string; percent: string }>;
  userBalance?: string;
  isFixedRate?: boolean;
  route?: Record<
    "origin" | "destination",
    {
      inputCurrency: Amount;
      outputCurrency: Amount;
      router: string;
      /** A swap's pricing (destination only): the price source's id, its reference (`twap:<window>s`, `chainlink:<feed>`, `fixed`) and which priced it. */
      pricing?: { source: string; reference: string; pricedBy: "spot" | "reference" };
    }
  >;
  [key: string]: unknown;
};

export type ProtocolV2 = {
  orderId: string;
  /** The order hashed into orderId: ts/core's wire type, the one the server writes (`orderToJson`). */
  orderData: OrderJson;
  paymentDetails: { chainId: string; depository: string; currency: string; amount: string };
};

/** Response of POST /quote/v2. */
export type Quote = {
  steps: Step[];
  fees: FeeBuckets;
  details: QuoteDetails;
  protocol: { v2: ProtocolV2 };
  /** Unix seconds (chain time): the deposit must be mined before; a permit's deadline. */
  expiresAt?: number;
  /** Unix seconds (chain time): no fill after this. */
  fillDeadline?: number;
  /**
   * Ferry: a reclaimable quote's reclaim time (unix seconds, chain time). From then on the depositor
   * alone may take back a deposit the service has not released: `reclaimDeposit`, `ferry reclaim`.
   */
  reclaimAt?: number;
  [key: string]: unknown;
};

export type TradeType = "EXACT_INPUT" | "EXACT_OUTPUT" | "EXPECTED_OUTPUT";

/** A destination call of a quote (`txs`): run from the Multicaller after the output is paid into it. */
export type QuoteCall = { to: string; data?: string; value?: string };

/** Body of POST /quote/v2 (the spec's fields; the server may accept more). */
export type QuoteRequest = {
  user: string;
  originChainId: number;
  destinationChainId: number;
  /** Zero address = native. */
  originCurrency: string;
  destinationCurrency: string;
  recipient?: string;
  /** Integer in smallest units. */
  amount: string;
  tradeType: TradeType | string;
  referrer?: string;
  /** true: a swap is priced from an onchain market (a pool the service configured for the pair) rather than a fixed price, when it has both. */
  useExternalLiquidity?: boolean;
  originGasOverhead?: string;
  refundTo?: string;
  /** Basis points (a swap's tolerance). */
  slippageTolerance?: string;
  txs?: QuoteCall[];
  txsGasLimit?: number;
  topupGas?: boolean;
  topupGasAmount?: string;
  /**
   * Ferry: the deposit step is the Depository's reclaimable form; the quote's `reclaimAt` says from when
   * the depositor may take back a deposit the service has not released (repaid or refunded).
   */
  reclaimable?: boolean;
  [key: string]: unknown;
};

export type DepositAddress = {
  address: string;
  depositAddressType: "strict" | "open";
  depositor: string | null;
  depositTxHash: string | null;
};

/** Response of GET /intents/status/v3. */
export type StatusRecord = {
  status: RequestStatus | string;
  /** Origin-chain transaction hashes. */
  inTxHashes: string[];
  /** Destination-chain transaction hashes. */
  txHashes: string[];
  /** Unix milliseconds. */
  updatedAt: number;
  originChainId: number;
  destinationChainId: number;
  details: Record<string, unknown> | null;
  /** `N/A` on non-failure statuses. */
  failReason: string;
  refundFailReason: string;
  depositAddress: DepositAddress | null;
  [key: string]: unknown;
};

export type RequestTransaction = {
  fee?: string;
  data?: unknown;
  stateChanges?: unknown;
  hash: string;
  block?: number;
  type?: string;
  chainId: number;
  timestamp?: number;
  status?: "success" | "failure" | string;
  [key: string]: unknown;
};

/** Ferry: a request's child record (GET /requests/v2?includeChildRequests=true). */
export type ChildRequest = {
  kind: "duplicateDeposit" | "mismatchedDeposit" | "refund" | string;
  reason: string;
  status: "pending" | "refunded" | "refundFailed" | "ignored" | string;
  chainId: number;
  txHash: string | null;
  block: number | null;
  from: string;
  to: string;
  currency: string;
  amount: string;
  refundTxHash: string | null;
  refundFailReason: string;
};

export type RequestData = {
  slippageTolerance?: string;
  failReason?: string;
  /** `N/A` until a refund fails. */
  refundFailReason?: string;
  /** The fill that reverted onchain; absent when no fill was sent. */
  failedTxHash?: string;
  failedTxBlockNumber?: number;
  fees?: { gas: string; fixed: string; price: string; gateway: string };
  /** `fees` in USD at the price the quote used. */
  feesUsd?: { gas: string; fixed: string; price: string; gateway: string };
  inTxs?: RequestTransaction[];
  outTxs?: RequestTransaction[];
  currency?: string;
  currencyObject?: Currency;
  [key: string]: unknown;
};

/** Element of `requests` in GET /requests/v2. */
export type RequestRecord = {
  id: string;
  status: RequestStatus | string;
  user: string;
  recipient: string;
  depositAddress: DepositAddress | null;
  data: RequestData;
  /** Only with includeChildRequests=true. */
  childRequests?: ChildRequest[];
  orderData?: unknown;
  /** Ferry: a reclaimable quote's reclaim time (unix seconds): from then on the depositor may reclaim a deposit not released. */
  reclaimAt?: number;
  /** ISO 8601. */
  createdAt: string;
  updatedAt: string;
  [key: string]: unknown;
};

/** Response of GET /requests/v2; `continuation` is the next page's cursor, absent on the last page. */
export type RequestsPage = { requests: RequestRecord[]; continuation?: string };

/** Query of GET /requests/v2 (booleans and numbers are sent as strings). */
export type RequestFilters = {
  limit?: number;
  continuation?: string;
  user?: string;
  hash?: string;
  originChainId?: number;
  destinationChainId?: number;
  chainId?: string | number;
  privateChainsToInclude?: string;
  id?: string;
  orderId?: string;
  includeOrderData?: boolean;
  startTimestamp?: number;
  endTimestamp?: number;
  startBlock?: number;
  endBlock?: number;
  referrer?: string;
  depositAddress?: string;
  includeChildRequests?: boolean;
  includeAuthenticatedData?: boolean;
  status?: string;
  apiKey?: string;
  sortBy?: "createdAt" | "updatedAt";
  sortDirection?: "asc" | "desc";
};

export type ChainCurrency = { id: string; symbol: string; name: string; address: string; decimals: number; [key: string]: unknown };

/** Element of `chains` in GET /chains. */
export type ChainRecord = {
  id: number;
  name: string;
  displayName: string;
  httpRpcUrl: string;
  wsRpcUrl: string;
  explorerUrl: string;
  explorerName: string;
  iconUrl: string;
  depositEnabled: boolean;
  tokenSupport: string;
  disabled: boolean;
  partialDisableLimit: number;
  blockProductionLagging: boolean;
  /** Ferry: why the chain is disabled or lagging now (the first cause that applies); null when healthy. */
  incident?: "OPERATOR_DISABLED" | "CHAIN_HALTED" | "RPC_UNREACHABLE" | "SOLVER_INVENTORY_EMPTY" | "BLOCK_PRODUCTION_LAGGING" | null;
  currency: ChainCurrency & { supportsBridging: boolean };
  withdrawalFee: number;
  depositFee: number;
  surgeEnabled: boolean;
  featuredTokens: (ChainCurrency & { metadata?: { logoURI: string } })[];
  erc20Currencies: (ChainCurrency & { withdrawalFee: number; depositFee: number; surgeEnabled: boolean })[];
  solverCurrencies: ChainCurrency[];
  contracts: Record<string, unknown>;
  vmType: string;
  baseChainId: number;
  solverAddresses: string[];
  tags: string[];
  protocol: { v2: { chainId: string; depository: string } };
  [key: string]: unknown;
};

/** Ferry's v2 fill attestation (all fields strings; users and currencies as bytes32 words). */
export type FillAttestationRecord = {
  attestation: {
    requestId: string;
    orderId: string;
    originChainId: string;
    originUser: string;
    originCurrency: string;
    originAmount: string;
    destinationChainId: string;
    destinationUser: string;
    destinationCurrency: string;
    destinationAmount: string;
    deadline: string;
    receiver: string;
  };
  signature: string;
  /** The type the signature is over: CallsFillAttestation for a request with destination calls (fillWithCalls only). */
  type?: "FillAttestation" | "CallsFillAttestation";
};

/** With `?gate=`: the attestations bound to that AttestationGate on the origin chain (the only ones it accepts). */
export type GateAttestationRecord = {
  gate: string;
  chainId: number;
  /** Over ts/core gateDigest(fillDigest(v2), gate, chainId): for `_consumeFill` (GatedCheckout.pay). */
  signature: string;
  /** Over ts/core gateDigest(requestDigest(v1), gate, chainId): for `_consumeRequest`. */
  requestSignature: string;
};

/** Response of GET /requests/{requestId}/signature: the spec's v1 record plus Ferry's v2 `fillAttestation`. */
export type AttestationRecord = {
  requestData: {
    originChainId: number;
    originUser: string;
    originCurrency: string;
    originAmount: string;
    destinationChainId: number;
    destinationUser: string;
  };
  signature: string;
  fillAttestation?: FillAttestationRecord;
  gateAttestation?: GateAttestationRecord;
  [key: string]: unknown;
};

export type HealthRecord = { status: "ok" | string };
export type ReadinessRecord = { ready: boolean; checks: { name: string; ok: boolean }[] };

/** Response of POST /transactions/index (Ferry's nudge to index a transaction now). */
export type IndexTransactionResult = Record<string, unknown>;

/** POST /execute/permits (Ferry): the permit was accepted; `txHash` is the origin deposit (the service's, or the one already onchain). */
export type ExecutePermitResult = { message: string; requestId: string; txHash?: string; [key: string]: unknown };

/** The service's error body. */
export type ErrorBody = { message: string; errorCode: string; [key: string]: unknown };

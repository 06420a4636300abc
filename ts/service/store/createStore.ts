import type { Order } from "../../core/orderJson.ts";
import { getCheckpoint, getIndexerCheckpoint, haltIndexer, listHaltedChains, resumeIndexer, setCheckpoint, type IndexerCheckpoint, type IndexerHalt } from "./solver/checkpoints.ts";
import { engineDb, type Db, type Engine, type StoreContext } from "./engine.ts";
import { listRequests, type RequestFilters, type RequestPage } from "./listRequests.ts";
import { migrate } from "./migrate.ts";
import { markOutboxDelivered, pendingOutboxEvents, requestEvents, type OutboxEvent } from "./outbox.ts";
import { createPgliteEngine } from "./pgliteEngine.ts";
import { createPostgresEngine, type PostgresSettings } from "./postgresEngine.ts";
import { SILENT_LOG, type Logger } from "../logging/logger.ts";
import { getOrderDataByRequestIds, getQuote, getQuoteByOrderId, saveQuote, saveQuotes, type NewQuote, type StoredQuote } from "./quotes.ts";
import {
  countParkedRequests,
  createCreditedRequest,
  createRequest,
  getRequest,
  getStepRequest,
  getRequestByOrderId,
  listRequestsUpdatedSince,
  lockRequest,
  parkRequest,
  patchMayWriteEvent,
  patchRequest,
  transitionRequest,
  type CreditPatch,
} from "./requests.ts";
import { claimWorkerLease, releaseWorkerLease } from "./workerLeases.ts";
import { getDepositOrder, getDepositOrders, type DepositOrder, type DepositOrderRead } from "./solver/depositOrder.ts";
import { claimRequest, claimSolverWork, countSolverWork, listSolverWork, releaseRequest, type ClaimedWorkItem, type SolverWorkItem } from "./solver/solverWork.ts";
import type { NewRequest, RequestPatch, StoredRequest } from "../model/storedRequest.ts";
import {
  claimStrayDeposit,
  getStrayDeposit,
  getStrayTrackingStart,
  startStrayTracking,
  listPendingStrayDeposits,
  listStrayDepositsByOrderId,
  listStrayDepositsByRequestIds,
  patchStrayDeposit,
  recordStrayDeposit,
  releaseStrayDeposit,
  type NewStrayDeposit,
  type StoredStrayDeposit,
  type StrayDepositKey,
  type StrayDepositPatch,
} from "./solver/strayDeposits.ts";
import type { RequestStatus } from "../model/requestStatus.ts";
import type { SolverTransaction, TxAttempt, TxPurpose, TxState } from "../model/solverTransaction.ts";
import { decodeStored } from "../model/storedValue.ts";
import { Address, type Bytes32 } from "../model/values.ts";
import {
  appendSolverTxAttempt,
  findPendingSolverTransaction,
  listPendingSolverTransactions,
  getSolverTransaction,
  insertSolverTransactions,
  allocateNonces,
  settleSolverTransaction,
  solverTransactionStats,
  syncNonce,
  type NewSolverTransaction,
  type SolverTxKey,
} from "./solver/solverTransactions.ts";
import { countPermitFailures, recordPermitFailure } from "./permitFailures.ts";
import {
  advanceDepositAddressRefund,
  getDepositAddress,
  listDepositAddressRefundWork,
  listWatchingDepositAddresses,
  markDepositAddressForwarding,
  markDepositAddressRefunded,
  setDepositAddressNextCheck,
  listSettledDepositAddresses,
  addDepositAddressLaterRefunds,
  listElsewhereDepositAddresses,
  markDepositAddressRefundedElsewhere,
  markDepositAddressRefunding,
  mirrorDepositAddresses,
  recordElsewhereCheck,
  saveDepositAddress,
  type NewDepositAddress,
  type StoredDepositAddress,
} from "./depositAddresses.ts";
import type { DepositAddressRefund } from "../model/depositAddressRefund.ts";
import {
  advanceOpenPaymentRefund,
  getOpenDepositAddress,
  getOpenPaymentByOrderId,
  getSupersedingRequestId,
  listOpenDepositAddresses,
  listOpenPayments,
  listOpenPaymentWork,
  markOpenPaymentForwarding,
  markOpenPaymentRefunding,
  recordOpenPayments,
  saveOpenDepositAddress,
  type NewOpenDepositAddress,
  type StoredOpenDepositAddress,
  type StoredOpenPayment,
} from "./openDepositAddresses.ts";
import type { DepositAddressPayment } from "../model/depositAddressPayment.ts";
import { listReorgAffectedRequests, listReorgAffectedStrays } from "./solver/reorgAffected.ts";
import {
  claimRepaymentBatch,
  dropBatchedRepayment,
  getRepaymentBatch,
  insertRepaymentBatch,
  listQueuedRepayments,
  lockRepaymentBatch,
  lockRepaymentBatchForming,
  releaseRepaymentBatch,
  updateRepaymentBatch,
  type RepaymentBatch,
  type RepaymentBatchMember,
  type RepaymentBatchState,
} from "./solver/repaymentBatches.ts";
import {
  claimAppWithdrawal,
  createAppWithdrawal,
  getAppWithdrawal,
  listPendingAppWithdrawals,
  patchAppWithdrawal,
  releaseAppWithdrawal,
  type AppWithdrawal,
  type NewAppWithdrawal,
} from "./appWithdrawals.ts";
import type { Payout } from "../model/payout.ts";
import { getAppFundingOrder, saveAppFundingOrder, type AppFundingOrder } from "./appFundingOrders.ts";
import { appBalanceStore, type AppBalanceOptions, type AppBalanceStore, type HoldState, type LedgerObservation } from "./appBalances.ts";
import { reservedAmounts, reserveFill, type FillReservation, type ReservationResult, type ReservedAmount } from "./solver/solverReservations.ts";
import { listExpiredSponsorshipHolds } from "./sponsorshipHolds.ts";
import { findExecuteTransaction, listEndedExecuteHoldTransactions, listUnrecordedExecuteHolds, lockExecuteHold, type ExecuteHoldTransaction } from "./executeHolds.ts";

export type StoreOptions = {
  /** PostgreSQL connection string (`DATABASE_URL`). When absent, the embedded PGlite engine is used. */
  databaseUrl?: string;
  /** PGlite only: the data folder. When absent, an in-memory database. */
  dataDir?: string;
  /** PostgreSQL only: a schema to create and use instead of the connection's default (tests). */
  schema?: string;
  /** PostgreSQL only: pool size and timeouts (config `database.*`); default DEFAULT_POSTGRES_SETTINGS. */
  postgres?: PostgresSettings;
  /** Where the engine reports lost connections. */
  log?: Logger;
  /** The clock stamping created_at / updated_at. Defaults to the system clock. */
  now?: () => Date;
  /** The app ledger's exposure budgets and metrics observer (./appBalances.ts); none by default. */
  appBalances?: Omit<AppBalanceOptions, "now">;
};

/** The channel the outbox trigger (migration 0012) notifies on every status change. */
export const OUTBOX_CHANNEL = "ferry_outbox";

/** The repositories, bound to a database. Inside `transaction`, every call joins that transaction. */
export type Repositories = {
  saveQuote(quote: NewQuote): Promise<StoredQuote>;
  /** Several quotes in one statement: all or none (the quote route's group commit, ../quote/quoteWriteBatch.ts). */
  saveQuotes(quotes: readonly NewQuote[]): Promise<void>;
  getQuote(requestId: Bytes32): Promise<StoredQuote | null>;
  getQuoteByOrderId(orderId: Bytes32): Promise<StoredQuote | null>;
  /** What a deposit's orderId names, in one statement: a funding order, else its quote and request (./solver/depositOrder.ts). */
  getDepositOrder(orderId: Bytes32): Promise<DepositOrder>;
  /** `getDepositOrder` of each orderId in one statement; an order whose stored value does not decode is `invalid`. */
  getDepositOrders(orderIds: readonly Bytes32[]): Promise<Map<Bytes32, DepositOrderRead>>;
  /** The stored orders of several requests in one query (GET /requests/v2?includeOrderData=true). */
  getOrderDataByRequestIds(requestIds: readonly string[]): Promise<Map<string, Order>>;
  createRequest(request: NewRequest): Promise<StoredRequest>;
  /** `createRequest(request)` then `transitionRequest(id, "pending", patch)` in one statement: a request created with its deposit credited. */
  createCreditedRequest(request: NewRequest, patch: CreditPatch): Promise<StoredRequest>;
  getRequest(id: Bytes32): Promise<StoredRequest | null>;
  /** The request and the halted chains, in one statement: what a solver step reads first. */
  getStepRequest(id: Bytes32): Promise<{ request: StoredRequest; halted: number[] } | null>;
  getRequestByOrderId(orderId: Bytes32): Promise<StoredRequest | null>;
  /** The request with its row locked until the surrounding transaction ends (use inside `transaction`). */
  lockRequest(id: Bytes32): Promise<StoredRequest | null>;
  transitionRequest(id: Bytes32, to: RequestStatus, patch?: RequestPatch): Promise<StoredRequest>;
  /** A write that is not a status change (no outbox event). */
  patchRequest(id: Bytes32, patch: RequestPatch): Promise<StoredRequest>;
  /** The solver parks a request it cannot step (a non-retryable error); `countParkedRequests` feeds /metrics. */
  parkRequest(id: Bytes32, reason: { code: string; message: string }): Promise<void>;
  countParkedRequests(): Promise<number>;
  listRequests(filters?: RequestFilters): Promise<RequestPage>;
  /** Requests written since `since` (ids and `updated_at` in unix ms), newest first; `truncated` past `limit`. */
  listRequestsUpdatedSince(since: Date, limit?: number): Promise<{ changes: Array<{ id: string; updatedAt: number }>; truncated: boolean }>;
  getCheckpoint(chainId: number, contract: Address): Promise<number | null>;
  /** The indexer's (./solver/checkpoints.ts): the block and its hash (appended to the recent range ends), a deep reorg's halt, the operator's resume. */
  setCheckpoint(chainId: number, contract: Address, block: number, hash?: Bytes32): Promise<void>;
  getIndexerCheckpoint(chainId: number, contract: Address): Promise<IndexerCheckpoint | null>;
  haltIndexer(chainId: number, contract: Address, halt: IndexerHalt): Promise<void>;
  resumeIndexer(chainId: number, contract: Address, at: { block: number; hash: Bytes32 }): Promise<boolean>;
  listHaltedChains(): Promise<number[]>;
  /** The deep-reorg recovery's (./solver/reorgAffected.ts): requests and strays whose deposit or payout on the chain lies above the block. */
  listReorgAffectedRequests(chainId: number, block: number): Promise<StoredRequest[]>;
  listReorgAffectedStrays(chainId: number, block: number): Promise<StrayDepositKey[]>;
  pendingOutboxEvents(limit?: number): Promise<OutboxEvent[]>;
  requestEvents(requestId: string): Promise<OutboxEvent[]>;
  markOutboxDelivered(id: number): Promise<void>;
  /** The solver's (./solver/solverWork.ts): work list and per-request lease. */
  /** `owner`: that loop's own live leases (kept across a wait for a block) do not leave a request out. */
  listSolverWork(limit?: number, exclude?: readonly string[], owner?: string): Promise<SolverWorkItem[]>;
  /** `listSolverWork` for `owner`, its leases taken (until now + `ttlMs`) in the same statement: only what it got. */
  claimSolverWork(limit: number, exclude: readonly string[], owner: string, ttlMs: number): Promise<ClaimedWorkItem[]>;
  claimRequest(requestId: string, owner: string, ttlMs: number): Promise<boolean>;
  /** The lease on work one replica does for all (./workerLeases.ts): a chain's indexing, the background passes. */
  claimWorkerLease(name: string, owner: string, ttlMs: number): Promise<boolean>;
  releaseWorkerLease(name: string, owner: string): Promise<void>;
  countSolverWork(): ReturnType<typeof countSolverWork>;
  releaseRequest(requestId: string, owner: string): Promise<void>;
  /** Stray deposits (./solver/strayDeposits.ts): recorded once by the indexer, refunded by the solver under their own lease. */
  recordStrayDeposit(stray: NewStrayDeposit): Promise<boolean>;
  getStrayDeposit(key: StrayDepositKey): Promise<StoredStrayDeposit | null>;
  listPendingStrayDeposits(limit?: number): Promise<StoredStrayDeposit[]>;
  listStrayDepositsByOrderId(orderId: Bytes32): Promise<StoredStrayDeposit[]>;
  /** The strays of several requests in one query (GET /requests/v2?includeChildRequests=true). */
  listStrayDepositsByRequestIds(requestIds: readonly Bytes32[]): Promise<Map<Bytes32, StoredStrayDeposit[]>>;
  patchStrayDeposit(key: StrayDepositKey, patch: StrayDepositPatch): Promise<StoredStrayDeposit>;
  claimStrayDeposit(key: StrayDepositKey, owner: string, ttlMs: number): Promise<boolean>;
  releaseStrayDeposit(key: StrayDepositKey, owner: string): Promise<void>;
  /** Repayment batches (./solver/repaymentBatches.ts): formed under the Depository's lock, stepped under their own lease. */
  lockRepaymentBatchForming(chainId: number, depository: Address): Promise<void>;
  listQueuedRepayments(chainId: number, depository: Address, limit: number): Promise<Array<{ id: Bytes32; queuedAt: number }>>;
  insertRepaymentBatch(batch: { chainId: number; depository: Address; payout: Payout; members: readonly RepaymentBatchMember[] }): Promise<void>;
  getRepaymentBatch(nonce: bigint): Promise<RepaymentBatch | null>;
  lockRepaymentBatch(nonce: bigint): Promise<RepaymentBatch | null>;
  updateRepaymentBatch(nonce: bigint, payout: Payout, state: RepaymentBatchState): Promise<void>;
  claimRepaymentBatch(nonce: bigint, owner: string, ttlMs: number): Promise<boolean>;
  releaseRepaymentBatch(nonce: bigint, owner: string): Promise<void>;
  dropBatchedRepayment(requestId: Bytes32, nonce: bigint): Promise<boolean>;
  getStrayTrackingStart(chainId: number, contract: Address): Promise<number | null>;
  startStrayTracking(chainId: number, contract: Address, fromBlock: number): Promise<number>;
  /** The nonce manager's (./solver/solverTransactions.ts): next nonce per sender, every sent transaction with its attempts. */
  syncNonce(chainId: number, address: Address, chainNonce: number): Promise<number>;
  allocateNonces(chainId: number, address: Address, count: number): Promise<number | null>;
  insertSolverTransactions(ts: readonly NewSolverTransaction[]): Promise<SolverTransaction[]>;
  getSolverTransaction(key: SolverTxKey): Promise<SolverTransaction | null>;
  appendSolverTxAttempt(key: SolverTxKey, attempt: TxAttempt): Promise<SolverTransaction | null>;
  settleSolverTransaction(key: SolverTxKey, state: TxState, minedHash: Bytes32 | null): Promise<SolverTransaction | null>;
  findPendingSolverTransaction(chainId: number, purpose: TxPurpose, subject: string): Promise<SolverTransaction | null>;
  listPendingSolverTransactions(purpose: TxPurpose, limit: number): Promise<SolverTransaction[]>;
  solverTransactionStats(): ReturnType<typeof solverTransactionStats>;
  /** Inventory (./solver/solverReservations.ts): a fill's reservation of the solver's balance, and what the fills in flight hold. */
  reserveFill(reservation: FillReservation): Promise<ReservationResult>;
  reservedAmounts(): Promise<ReservedAmount[]>;
  /** POST /execute/permits' (./permitFailures.ts): a user's failed permit requests within a window, shared by every replica. */
  countPermitFailures(user: Address, windowMs: number): Promise<number>;
  recordPermitFailure(user: Address, windowMs: number): Promise<void>;
  /** Deposit addresses (./depositAddresses.ts): saved with their quote, watched and forwarded by the solver. */
  saveDepositAddress(row: NewDepositAddress): Promise<void>;
  getDepositAddress(chainId: number, address: Address): Promise<StoredDepositAddress | undefined>;
  listWatchingDepositAddresses(chainId: number, limit: number, now?: Date): Promise<StoredDepositAddress[]>;
  markDepositAddressForwarding(key: { chainId: number; address: Address }, forward: { instructionId: Bytes32; payment: DepositAddressPayment; refunds?: readonly DepositAddressRefund[] }): Promise<boolean>;
  /** A mis-routed payment's refunds: planned once (`watching` → `refunding`), each sent then confirmed, the row then `refunded`. */
  listDepositAddressRefundWork(chainId: number, limit: number): Promise<StoredDepositAddress[]>;
  markDepositAddressRefunding(key: { chainId: number; address: Address }, refunds: readonly DepositAddressRefund[]): Promise<boolean>;
  /** Inside `transaction` (it locks the row). */
  advanceDepositAddressRefund(key: { chainId: number; address: Address }, instructionId: Bytes32, from: "planned" | "sent", to: Parameters<typeof advanceDepositAddressRefund>[4]): Promise<boolean>;
  markDepositAddressRefunded(key: { chainId: number; address: Address }): Promise<boolean>;
  /** Open deposit addresses (./openDepositAddresses.ts): one row per address and route, one per quote, one per payment. */
  saveOpenDepositAddress(row: NewOpenDepositAddress): Promise<void>;
  getOpenDepositAddress(chainId: number, address: Address): Promise<StoredOpenDepositAddress | undefined>;
  listOpenDepositAddresses(chainId: number, limit: number): Promise<StoredOpenDepositAddress[]>;
  /** Inside `transaction`: the scan cursor's compare-and-set and the payments found. */
  recordOpenPayments(key: { chainId: number; address: Address }, scan: { from: number | null; to: number; payments: ReadonlyArray<{ paymentKey: string; payment: DepositAddressPayment }> }): Promise<boolean>;
  listOpenPaymentWork(chainId: number, limit: number): Promise<StoredOpenPayment[]>;
  listOpenPayments(chainId: number, address: Address): Promise<StoredOpenPayment[]>;
  getOpenPaymentByOrderId(orderId: Bytes32): Promise<StoredOpenPayment | undefined>;
  markOpenPaymentForwarding(key: { chainId: number; address: Address; paymentKey: string }, forward: { requestId: Bytes32; orderId: Bytes32; instructionId: Bytes32 }): Promise<boolean>;
  markOpenPaymentRefunding(key: { chainId: number; address: Address; paymentKey: string }, refund: { reason: string; refunds: readonly DepositAddressRefund[]; requestId?: Bytes32 }): Promise<boolean>;
  /** Inside `transaction` (it locks the row). */
  advanceOpenPaymentRefund(key: { chainId: number; address: Address; paymentKey: string }, from: "planned" | "sent", to: { state: "sent" | "confirmed"; txHash: Bytes32 }): Promise<boolean>;
  getSupersedingRequestId(requestId: Bytes32): Promise<Bytes32 | null>;
  /** The cadence of reads (../solver/depositAddress/checkCadence.ts), and payments after an address's decision (../solver/depositAddress/laterPayments.ts). */
  setDepositAddressNextCheck(key: { chainId: number; address: Address }, at: Date | null): Promise<void>;
  listSettledDepositAddresses(chainId: number, now: Date, limit: number): Promise<StoredDepositAddress[]>;
  addDepositAddressLaterRefunds(key: { chainId: number; address: Address }, known: number, refunds: readonly DepositAddressRefund[]): Promise<boolean>;
  /** Addresses on the chains other than their quote's (../solver/depositAddress/otherChainPayments.ts). */
  mirrorDepositAddresses(chainId: number, factory: Address, limit: number): Promise<number>;
  listElsewhereDepositAddresses(chainId: number, now: Date, limit: number): Promise<StoredDepositAddress[]>;
  recordElsewhereCheck(key: { chainId: number; address: Address }, known: number, check: Parameters<typeof recordElsewhereCheck>[3]): Promise<boolean>;
  markDepositAddressRefundedElsewhere(key: { chainId: number; address: Address }): Promise<boolean>;
  /** The app ledger (./appBalances.ts): inside `transaction`, its holds, settles and releases commit with the caller's other writes. */
  appBalances: AppBalanceStore;
  /** Held sponsorship holds of quotes never used, past their fill deadline + `graceSeconds` (./sponsorshipHolds.ts). */
  listExpiredSponsorshipHolds(graceSeconds: number, limit: number): Promise<string[]>;
  /** Held `execute` holds older than `leaseMs` that no relayer transaction names (./executeHolds.ts). */
  listUnrecordedExecuteHolds(leaseMs: number, limit: number): Promise<string[]>;
  /** Locks an `execute` hold until the transaction ends: its state, and the relayer transactions that name it (use inside `transaction`). */
  lockExecuteHold(holdId: string): Promise<{ state: HoldState; transactions: ExecuteHoldTransaction[] }>;
  /** The relayer transaction (any state) naming one of the execution's holds not released; null when it was never sent (./executeHolds.ts). */
  findExecuteTransaction(requestId: Bytes32): Promise<ExecuteHoldTransaction | null>;
  /** Relayer transactions that ended while the hold they name is still held (a crash after the nonce's end, before the settle). */
  listEndedExecuteHoldTransactions(limit: number): Promise<Array<{ chainId: number; address: string; nonce: number }>>;
  /** Funding orders (./appFundingOrders.ts): POST /app-balance/deposits' order ids, looked up by the indexer. */
  saveAppFundingOrder(order: Omit<AppFundingOrder, "createdAt">): Promise<AppFundingOrder>;
  getAppFundingOrder(orderId: Bytes32): Promise<AppFundingOrder | null>;
  /** The address an app's withdrawals are paid to (`ferry keys funding-address`), null when none is set. */
  getApiKeyFundingAddress(apiKeyId: string): Promise<Address | null>;
  /** Withdrawals (./appWithdrawals.ts): created with their hold, paid by the solver under a lease. */
  createAppWithdrawal(w: NewAppWithdrawal): Promise<AppWithdrawal>;
  getAppWithdrawal(id: string): Promise<AppWithdrawal | null>;
  listPendingAppWithdrawals(limit?: number): Promise<AppWithdrawal[]>;
  patchAppWithdrawal(id: string, patch: { payout: Payout; state?: "paid" | "failed"; failReason?: string }): Promise<AppWithdrawal>;
  claimAppWithdrawal(id: string, owner: string, ttlMs: number): Promise<boolean>;
  releaseAppWithdrawal(id: string, owner: string): Promise<void>;
};

export type Store = Repositories & {
  readonly engine: Engine;
  /** Runs `fn` in one transaction; the repositories it receives all use it. */
  transaction<T>(fn: (tx: Repositories) => Promise<T>): Promise<T>;
  /**
   * Calls `listener` (synchronously, errors ignored) after a status change made through this store has
   * committed its outbox event, once per transaction. Returns the unsubscribe function.
   */
  onOutboxCommit(listener: () => void): () => void;
  /**
   * `onOutboxCommit` plus, on PostgreSQL, the status changes committed by any other process (a
   * replica, the CLI), which arrive through LISTEN/NOTIFY (channel `ferry_outbox`, the outbox trigger
   * of migration 0012) within milliseconds; also called after the LISTEN connection reconnects (what
   * was notified meanwhile is lost). The hint the solver, the webhook worker and the websocket tail
   * wake up on instead of waiting for their next poll; their polling stays the guarantee. The LISTEN
   * connection opens with the first listener. Returns the unsubscribe function.
   */
  onOutboxChange(listener: () => void): () => void;
  /**
   * Calls `listener` (synchronously, errors ignored) with the ids of the requests a write through this
   * store changed — created, transitioned or patched — once that write has committed (once per
   * transaction). Other processes' writes are not seen here (`listRequestsUpdatedSince` finds them).
   * Returns the unsubscribe function.
   */
  onRequestsChanged(listener: (requestIds: readonly string[]) => void): () => void;
  /**
   * Calls `listener` (synchronously, errors ignored) with each request a status change made through
   * this store left, as it is after the change, once that change has committed (after the transaction
   * it was made in): the SLO metrics' fills and refunds (../http/metrics/sloMetrics.ts). Other
   * processes' changes are not seen here. Returns the unsubscribe function.
   */
  onTransition(listener: (request: StoredRequest) => void): () => void;
  /** Calls `listener` with what the app ledger did through this store (held, debited, released, refused: ./appBalances.ts), for metrics. */
  onLedgerObservation(listener: (observation: LedgerObservation) => void): () => void;
  /** Applies pending migrations (createStore already did; safe to call again). Returns the versions applied. */
  migrate(): Promise<number[]>;
  close(): Promise<void>;
};

function repositories(ctx: StoreContext, ledger: Omit<AppBalanceOptions, "now"> = {}): Repositories {
  return {
    saveQuote: (q) => saveQuote(ctx, q),
    saveQuotes: (qs) => saveQuotes(ctx, qs),
    getQuote: (id) => getQuote(ctx, id),
    getQuoteByOrderId: (id) => getQuoteByOrderId(ctx, id),
    getDepositOrder: (id) => getDepositOrder(ctx, id),
    getDepositOrders: (ids) => getDepositOrders(ctx, ids),
    getOrderDataByRequestIds: (ids) => getOrderDataByRequestIds(ctx, ids),
    createRequest: (r) => createRequest(ctx, r),
    createCreditedRequest: (r, p) => createCreditedRequest(ctx, r, p),
    getRequest: (id) => getRequest(ctx, id),
    getStepRequest: (id) => getStepRequest(ctx, id),
    getRequestByOrderId: (id) => getRequestByOrderId(ctx, id),
    lockRequest: (id) => lockRequest(ctx, id),
    transitionRequest: (id, to, patch) => transitionRequest(ctx, id, to, patch),
    patchRequest: (id, p) => patchRequest(ctx, id, p),
    parkRequest: (id, r) => parkRequest(ctx, id, r),
    countParkedRequests: () => countParkedRequests(ctx),
    listRequests: (f) => listRequests(ctx, f),
    listRequestsUpdatedSince: (since, limit) => listRequestsUpdatedSince(ctx, since, limit),
    getCheckpoint: (c, a) => getCheckpoint(ctx, c, a),
    setCheckpoint: (c, a, b, h) => setCheckpoint(ctx, c, a, b, h),
    getIndexerCheckpoint: (c, a) => getIndexerCheckpoint(ctx, c, a),
    haltIndexer: (c, a, h) => haltIndexer(ctx, c, a, h),
    resumeIndexer: (c, a, at) => resumeIndexer(ctx, c, a, at),
    listHaltedChains: () => listHaltedChains(ctx),
    listReorgAffectedRequests: (c, b) => listReorgAffectedRequests(ctx, c, b),
    listReorgAffectedStrays: (c, b) => listReorgAffectedStrays(ctx, c, b),
    pendingOutboxEvents: (l) => pendingOutboxEvents(ctx, l),
    requestEvents: (id) => requestEvents(ctx, id),
    markOutboxDelivered: (id) => markOutboxDelivered(ctx, id),
    listSolverWork: (l, e, o) => listSolverWork(ctx, l, e, o),
    claimSolverWork: (l, e, o, t) => claimSolverWork(ctx, l, e, o, t),
    claimRequest: (id, o, t) => claimRequest(ctx, id, o, t),
    claimWorkerLease: (n, o, t) => claimWorkerLease(ctx, n, o, t),
    releaseWorkerLease: (n, o) => releaseWorkerLease(ctx, n, o),
    countSolverWork: () => countSolverWork(ctx),
    releaseRequest: (id, o) => releaseRequest(ctx, id, o),
    recordStrayDeposit: (s) => recordStrayDeposit(ctx, s),
    getStrayDeposit: (k) => getStrayDeposit(ctx, k),
    listPendingStrayDeposits: (l) => listPendingStrayDeposits(ctx, l),
    listStrayDepositsByOrderId: (id) => listStrayDepositsByOrderId(ctx, id),
    listStrayDepositsByRequestIds: (ids) => listStrayDepositsByRequestIds(ctx, ids),
    patchStrayDeposit: (k, p) => patchStrayDeposit(ctx, k, p),
    claimStrayDeposit: (k, o, t) => claimStrayDeposit(ctx, k, o, t),
    releaseStrayDeposit: (k, o) => releaseStrayDeposit(ctx, k, o),
    lockRepaymentBatchForming: (c, d) => lockRepaymentBatchForming(ctx, c, d),
    listQueuedRepayments: (c, d, l) => listQueuedRepayments(ctx, c, d, l),
    insertRepaymentBatch: (b) => insertRepaymentBatch(ctx, b),
    getRepaymentBatch: (n) => getRepaymentBatch(ctx, n),
    lockRepaymentBatch: (n) => lockRepaymentBatch(ctx, n),
    updateRepaymentBatch: (n, p, st) => updateRepaymentBatch(ctx, n, p, st),
    claimRepaymentBatch: (n, o, t) => claimRepaymentBatch(ctx, n, o, t),
    releaseRepaymentBatch: (n, o) => releaseRepaymentBatch(ctx, n, o),
    dropBatchedRepayment: (r, n) => dropBatchedRepayment(ctx, r, n),
    getStrayTrackingStart: (c, a) => getStrayTrackingStart(ctx, c, a),
    startStrayTracking: (c, a, b) => startStrayTracking(ctx, c, a, b),
    syncNonce: (c, a, n) => syncNonce(ctx, c, a, n),
    allocateNonces: (c, a, n) => allocateNonces(ctx, c, a, n),
    insertSolverTransactions: (ts) => insertSolverTransactions(ctx, ts),
    getSolverTransaction: (k) => getSolverTransaction(ctx, k),
    appendSolverTxAttempt: (k, a) => appendSolverTxAttempt(ctx, k, a),
    settleSolverTransaction: (k, s, h) => settleSolverTransaction(ctx, k, s, h),
    findPendingSolverTransaction: (c, p, s) => findPendingSolverTransaction(ctx, c, p, s),
    listPendingSolverTransactions: (p, l) => listPendingSolverTransactions(ctx, p, l),
    solverTransactionStats: () => solverTransactionStats(ctx),
    reserveFill: (r) => reserveFill(ctx, r),
    reservedAmounts: () => reservedAmounts(ctx),
    countPermitFailures: (u, w) => countPermitFailures(ctx, u, w),
    recordPermitFailure: (u, w) => recordPermitFailure(ctx, u, w),
    saveDepositAddress: (row) => saveDepositAddress(ctx, row),
    getDepositAddress: (c, a) => getDepositAddress(ctx, c, a),
    listWatchingDepositAddresses: (c, l, n) => listWatchingDepositAddresses(ctx, c, l, n),
    markDepositAddressForwarding: (k, f) => markDepositAddressForwarding(ctx, k, f),
    listDepositAddressRefundWork: (c, l) => listDepositAddressRefundWork(ctx, c, l),
    markDepositAddressRefunding: (k, r) => markDepositAddressRefunding(ctx, k, r),
    advanceDepositAddressRefund: (k, i, f, t) => advanceDepositAddressRefund(ctx, k, i, f, t),
    markDepositAddressRefunded: (k) => markDepositAddressRefunded(ctx, k),
    saveOpenDepositAddress: (row) => saveOpenDepositAddress(ctx, row),
    getOpenDepositAddress: (c, a) => getOpenDepositAddress(ctx, c, a),
    listOpenDepositAddresses: (c, l) => listOpenDepositAddresses(ctx, c, l),
    recordOpenPayments: (k, s) => recordOpenPayments(ctx, k, s),
    listOpenPaymentWork: (c, l) => listOpenPaymentWork(ctx, c, l),
    listOpenPayments: (c, a) => listOpenPayments(ctx, c, a),
    getOpenPaymentByOrderId: (o) => getOpenPaymentByOrderId(ctx, o),
    markOpenPaymentForwarding: (k, f) => markOpenPaymentForwarding(ctx, k, f),
    markOpenPaymentRefunding: (k, r) => markOpenPaymentRefunding(ctx, k, r),
    advanceOpenPaymentRefund: (k, f, t) => advanceOpenPaymentRefund(ctx, k, f, t),
    getSupersedingRequestId: (r) => getSupersedingRequestId(ctx, r),
    setDepositAddressNextCheck: (k, a) => setDepositAddressNextCheck(ctx, k, a),
    listSettledDepositAddresses: (c, n, l) => listSettledDepositAddresses(ctx, c, n, l),
    addDepositAddressLaterRefunds: (k, n, r) => addDepositAddressLaterRefunds(ctx, k, n, r),
    mirrorDepositAddresses: (c, f, l) => mirrorDepositAddresses(ctx, c, f, l),
    listElsewhereDepositAddresses: (c, n, l) => listElsewhereDepositAddresses(ctx, c, n, l),
    recordElsewhereCheck: (k, n, c) => recordElsewhereCheck(ctx, k, n, c),
    markDepositAddressRefundedElsewhere: (k) => markDepositAddressRefundedElsewhere(ctx, k),
    appBalances: appBalanceStore(ctx.db, { ...ledger, now: ctx.now }),
    listExpiredSponsorshipHolds: (g, l) => listExpiredSponsorshipHolds(ctx, g, l),
    listUnrecordedExecuteHolds: (lease, l) => listUnrecordedExecuteHolds(ctx, lease, l),
    lockExecuteHold: (id) => lockExecuteHold(ctx, id),
    findExecuteTransaction: (requestId) => findExecuteTransaction(ctx, requestId),
    listEndedExecuteHoldTransactions: (l) => listEndedExecuteHoldTransactions(ctx, l),
    saveAppFundingOrder: (o) => saveAppFundingOrder(ctx, o),
    getAppFundingOrder: (id) => getAppFundingOrder(ctx, id),
    getApiKeyFundingAddress: async (id) => {
      const { rows } = await ctx.db.query<{ funding_address: string | null }>("SELECT funding_address FROM api_keys WHERE id = $1 AND revoked_at IS NULL", [id]);
      return rows[0]?.funding_address ? decodeStored(Address, rows[0].funding_address, "api_keys.funding_address", id) : null;
    },
    createAppWithdrawal: (w) => createAppWithdrawal(ctx, w),
    getAppWithdrawal: (id) => getAppWithdrawal(ctx, id),
    listPendingAppWithdrawals: (l) => listPendingAppWithdrawals(ctx, l),
    patchAppWithdrawal: (id, p) => patchAppWithdrawal(ctx, id, p),
    claimAppWithdrawal: (id, o, t) => claimAppWithdrawal(ctx, id, o, t),
    releaseAppWithdrawal: (id, o) => releaseAppWithdrawal(ctx, id, o),
  };
}

/** Opens the engine (PostgreSQL when `databaseUrl` is set, PGlite otherwise), migrates it and binds the repositories. */
export async function createStore(options: StoreOptions = {}): Promise<Store> {
  const engine = options.databaseUrl
    ? await createPostgresEngine({
        databaseUrl: options.databaseUrl,
        schema: options.schema,
        ...(options.postgres && { settings: options.postgres }),
        log: options.log ?? SILENT_LOG,
      })
    : await createPgliteEngine({ dataDir: options.dataDir });
  try {
    await migrate(engine);
  } catch (error) {
    await engine.close().catch(() => {});
    throw error;
  }
  const now = options.now ?? (() => new Date());
  const db: Db = engineDb(engine);
  const outboxListeners = new Set<() => void>();
  const changeListeners = new Set<(requestIds: readonly string[]) => void>();
  const transitionListeners = new Set<(request: StoredRequest) => void>();
  const notify = <A extends unknown[]>(listeners: Set<(...args: A) => void>, ...args: A) => {
    for (const listener of listeners) {
      try {
        listener(...args);
      } catch {
        // A listener's failure is its own; the write has committed.
      }
    }
  };
  const notifyOutbox = () => notify(outboxListeners);
  const notifyChanged = (ids: readonly string[]) => {
    if (ids.length > 0) notify(changeListeners, ids);
  };
  const notifyTransitioned = (requests: readonly StoredRequest[]) => {
    for (const request of requests) notify(transitionListeners, request);
  };
  // On PostgreSQL, other processes' status changes arrive as notifications (the outbox trigger): the
  // outbox-change listeners hear about them within milliseconds instead of at their next poll. The
  // LISTEN connection is opened with the first listener.
  const crossProcessListeners = new Set<() => void>();
  let unlisten: Promise<(() => Promise<void>) | undefined> | undefined;
  const listenAcrossProcesses = () => {
    unlisten ??= engine.listen ? engine.listen(OUTBOX_CHANNEL, () => notify(crossProcessListeners)).catch(() => undefined) : Promise.resolve(undefined);
  };
  // The repositories whose calls write outbox events tell the listeners once their transaction has
  // committed: at once for a call of its own, at the end of `transaction` for calls made inside it.
  // Writes of a request's public fields (create, transition, patch) tell the change listeners the same way.
  const ledgerListeners = new Set<(observation: LedgerObservation) => void>();
  const ledger: Omit<AppBalanceOptions, "now"> = {
    ...options.appBalances,
    observe: (observation) => {
      options.appBalances?.observe?.(observation);
      notify(ledgerListeners, observation);
    },
  };
  const top = repositories({ db, now }, ledger);
  return {
    ...top,
    createRequest: async (request) => {
      const created = await top.createRequest(request);
      notifyOutbox();
      notifyChanged([created.id]);
      return created;
    },
    transitionRequest: async (id, to, patch) => {
      const next = await top.transitionRequest(id, to, patch);
      notifyOutbox();
      notifyChanged([next.id]);
      notifyTransitioned([next]);
      return next;
    },
    createCreditedRequest: async (request, patch) => {
      const created = await top.createCreditedRequest(request, patch);
      notifyOutbox();
      notifyChanged([created.id]);
      notifyTransitioned([created]);
      return created;
    },
    patchRequest: async (id, patch) => {
      const next = await top.patchRequest(id, patch);
      if (patchMayWriteEvent(patch)) notifyOutbox();
      notifyChanged([next.id]);
      return next;
    },
    parkRequest: async (id, reason) => {
      await top.parkRequest(id, reason);
      notifyOutbox();
    },
    engine,
    transaction: async (fn) => {
      let wroteEvents = false;
      const changed = new Set<string>();
      const transitioned: StoredRequest[] = [];
      const result = await db.transaction((tx) => {
        const repos = repositories({ db: tx, now }, ledger);
        return fn({
          ...repos,
          createRequest: async (request) => {
            wroteEvents = true;
            const created = await repos.createRequest(request);
            changed.add(created.id);
            return created;
          },
          transitionRequest: async (id, to, patch) => {
            wroteEvents = true;
            const next = await repos.transitionRequest(id, to, patch);
            changed.add(next.id);
            transitioned.push(next);
            return next;
          },
          createCreditedRequest: async (request, patch) => {
            wroteEvents = true;
            const created = await repos.createCreditedRequest(request, patch);
            changed.add(created.id);
            transitioned.push(created);
            return created;
          },
          patchRequest: async (id, patch) => {
            if (patchMayWriteEvent(patch)) wroteEvents = true;
            const next = await repos.patchRequest(id, patch);
            changed.add(next.id);
            return next;
          },
          parkRequest: async (id, reason) => {
            wroteEvents = true;
            await repos.parkRequest(id, reason);
          },
        });
      });
      if (wroteEvents) notifyOutbox();
      notifyChanged([...changed]);
      notifyTransitioned(transitioned);
      return result;
    },
    onOutboxCommit(listener) {
      outboxListeners.add(listener);
      return () => void outboxListeners.delete(listener);
    },
    onOutboxChange(listener) {
      outboxListeners.add(listener);
      crossProcessListeners.add(listener);
      listenAcrossProcesses();
      return () => {
        outboxListeners.delete(listener);
        crossProcessListeners.delete(listener);
      };
    },
    onRequestsChanged(listener) {
      changeListeners.add(listener);
      return () => void changeListeners.delete(listener);
    },
    onTransition(listener) {
      transitionListeners.add(listener);
      return () => void transitionListeners.delete(listener);
    },
    onLedgerObservation(listener) {
      ledgerListeners.add(listener);
      return () => void ledgerListeners.delete(listener);
    },
    migrate: () => migrate(engine),
    close: async () => {
      await (await unlisten)?.().catch(() => {});
      await engine.close();
    },
  };
}

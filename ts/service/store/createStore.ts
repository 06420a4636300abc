import { getCheckpoint, getIndexerCheckpoint, haltIndexer, listHaltedChains, resumeIndexer, setCheckpoint, type IndexerCheckpoint, type IndexerHalt } from "./checkpoints.ts";
import { engineDb, type Db, type Engine, type StoreContext } from "./engine.ts";
import { listRequests, type RequestFilters, type RequestPage } from "./listRequests.ts";
import { migrate } from "./migrate.ts";
import { markOutboxDelivered, pendingOutboxEvents, requestEvents, type OutboxEvent } from "./outbox.ts";
import { createPgliteEngine } from "./pgliteEngine.ts";
import { createPostgresEngine } from "./postgresEngine.ts";
import { getOrderDataByRequestIds, getQuote, getQuoteByOrderId, saveQuote, type NewQuote, type StoredQuote } from "./quotes.ts";
import {
  countParkedRequests,
  createRequest,
  getRequest,
  getRequestByOrderId,
  listRequestsUpdatedSince,
  parkRequest,
  patchRequest,
  transitionRequest,
} from "./requests.ts";
import { claimRequest, listSolverWork, releaseRequest, type SolverWorkItem } from "./solverWork.ts";
import type { NewRequest, RequestPatch, StoredRequest } from "../model/storedRequest.ts";
import {
  claimStrayDeposit,
  getStrayDeposit,
  getStrayTrackingStart,
  startStrayTracking,
  listPendingStrayDeposits,
  listStrayDepositsByOrderId,
  patchStrayDeposit,
  recordStrayDeposit,
  releaseStrayDeposit,
  type NewStrayDeposit,
  type StoredStrayDeposit,
  type StrayDepositKey,
  type StrayDepositPatch,
} from "./strayDeposits.ts";
import type { RequestStatus } from "../model/requestStatus.ts";

export type StoreOptions = {
  /** PostgreSQL connection string (`DATABASE_URL`). When absent, the embedded PGlite engine is used. */
  databaseUrl?: string;
  /** PGlite only: the data folder. When absent, an in-memory database. */
  dataDir?: string;
  /** PostgreSQL only: a schema to create and use instead of the connection's default (tests). */
  schema?: string;
  /** The clock stamping created_at / updated_at. Defaults to the system clock. */
  now?: () => Date;
};

/** The repositories, bound to a database. Inside `transaction`, every call joins that transaction. */
export type Repositories = {
  saveQuote(quote: NewQuote): Promise<StoredQuote>;
  getQuote(requestId: string): Promise<StoredQuote | null>;
  getQuoteByOrderId(orderId: string): Promise<StoredQuote | null>;
  /** The stored orders of several requests in one query (GET /requests/v2?includeOrderData=true). */
  getOrderDataByRequestIds(requestIds: readonly string[]): Promise<Map<string, unknown>>;
  createRequest(request: NewRequest): Promise<StoredRequest>;
  getRequest(id: string): Promise<StoredRequest | null>;
  getRequestByOrderId(orderId: string): Promise<StoredRequest | null>;
  transitionRequest(id: string, to: RequestStatus, patch?: RequestPatch): Promise<StoredRequest>;
  /** A write that is not a status change (no outbox event). */
  patchRequest(id: string, patch: RequestPatch): Promise<StoredRequest>;
  /** The solver parks a request it cannot step (a non-retryable error); `countParkedRequests` feeds /metrics. */
  parkRequest(id: string, reason: { code: string; message: string }): Promise<void>;
  countParkedRequests(): Promise<number>;
  listRequests(filters?: RequestFilters): Promise<RequestPage>;
  /** Requests written since `since` (ids and `updated_at` in unix ms), newest first; `truncated` past `limit`. */
  listRequestsUpdatedSince(since: Date, limit?: number): Promise<{ changes: Array<{ id: string; updatedAt: number }>; truncated: boolean }>;
  getCheckpoint(chainId: number, contract: string): Promise<number | null>;
  /** The indexer's (./checkpoints.ts): the block and its hash (appended to the recent range ends), a deep reorg's halt, the operator's resume. */
  setCheckpoint(chainId: number, contract: string, block: number, hash?: string): Promise<void>;
  getIndexerCheckpoint(chainId: number, contract: string): Promise<IndexerCheckpoint | null>;
  haltIndexer(chainId: number, contract: string, halt: IndexerHalt): Promise<void>;
  resumeIndexer(chainId: number, contract: string, at: { block: number; hash: string }): Promise<boolean>;
  listHaltedChains(): Promise<number[]>;
  pendingOutboxEvents(limit?: number): Promise<OutboxEvent[]>;
  requestEvents(requestId: string): Promise<OutboxEvent[]>;
  markOutboxDelivered(id: number): Promise<void>;
  /** The solver's (./solverWork.ts): work list and per-request lease. */
  listSolverWork(limit?: number): Promise<SolverWorkItem[]>;
  claimRequest(requestId: string, owner: string, ttlMs: number): Promise<boolean>;
  releaseRequest(requestId: string, owner: string): Promise<void>;
  /** Stray deposits (./strayDeposits.ts): recorded once by the indexer, refunded by the solver under their own lease. */
  recordStrayDeposit(stray: NewStrayDeposit): Promise<boolean>;
  getStrayDeposit(key: StrayDepositKey): Promise<StoredStrayDeposit | null>;
  listPendingStrayDeposits(limit?: number): Promise<StoredStrayDeposit[]>;
  listStrayDepositsByOrderId(orderId: string): Promise<StoredStrayDeposit[]>;
  patchStrayDeposit(key: StrayDepositKey, patch: StrayDepositPatch): Promise<StoredStrayDeposit>;
  claimStrayDeposit(key: StrayDepositKey, owner: string, ttlMs: number): Promise<boolean>;
  releaseStrayDeposit(key: StrayDepositKey, owner: string): Promise<void>;
  getStrayTrackingStart(chainId: number, contract: string): Promise<number | null>;
  startStrayTracking(chainId: number, contract: string, fromBlock: number): Promise<number>;
};

export type Store = Repositories & {
  readonly engine: Engine;
  /** Runs `fn` in one transaction; the repositories it receives all use it. */
  transaction<T>(fn: (tx: Repositories) => Promise<T>): Promise<T>;
  /**
   * Calls `listener` (synchronously, errors ignored) after a status change made through this store has
   * committed its outbox event — a hint for this process's webhook worker and websocket tail to read
   * the outbox now instead of at their next poll. Changes made by other processes (replicas) are not
   * seen here: the readers' polling stays the guarantee. Returns the unsubscribe function.
   */
  onOutboxCommit(listener: () => void): () => void;
  /**
   * Calls `listener` (synchronously, errors ignored) with the ids of the requests a write through this
   * store changed — created, transitioned or patched — once that write has committed (once per
   * transaction). Other processes' writes are not seen here (`listRequestsUpdatedSince` finds them).
   * Returns the unsubscribe function.
   */
  onRequestsChanged(listener: (requestIds: readonly string[]) => void): () => void;
  /** Applies pending migrations (createStore already did; safe to call again). Returns the versions applied. */
  migrate(): Promise<number[]>;
  close(): Promise<void>;
};

function repositories(ctx: StoreContext): Repositories {
  return {
    saveQuote: (q) => saveQuote(ctx, q),
    getQuote: (id) => getQuote(ctx, id),
    getQuoteByOrderId: (id) => getQuoteByOrderId(ctx, id),
    getOrderDataByRequestIds: (ids) => getOrderDataByRequestIds(ctx, ids),
    createRequest: (r) => createRequest(ctx, r),
    getRequest: (id) => getRequest(ctx, id),
    getRequestByOrderId: (id) => getRequestByOrderId(ctx, id),
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
    pendingOutboxEvents: (l) => pendingOutboxEvents(ctx, l),
    requestEvents: (id) => requestEvents(ctx, id),
    markOutboxDelivered: (id) => markOutboxDelivered(ctx, id),
    listSolverWork: (l) => listSolverWork(ctx, l),
    claimRequest: (id, o, t) => claimRequest(ctx, id, o, t),
    releaseRequest: (id, o) => releaseRequest(ctx, id, o),
    recordStrayDeposit: (s) => recordStrayDeposit(ctx, s),
    getStrayDeposit: (k) => getStrayDeposit(ctx, k),
    listPendingStrayDeposits: (l) => listPendingStrayDeposits(ctx, l),
    listStrayDepositsByOrderId: (id) => listStrayDepositsByOrderId(ctx, id),
    patchStrayDeposit: (k, p) => patchStrayDeposit(ctx, k, p),
    claimStrayDeposit: (k, o, t) => claimStrayDeposit(ctx, k, o, t),
    releaseStrayDeposit: (k, o) => releaseStrayDeposit(ctx, k, o),
    getStrayTrackingStart: (c, a) => getStrayTrackingStart(ctx, c, a),
    startStrayTracking: (c, a, b) => startStrayTracking(ctx, c, a, b),
  };
}

/** Opens the engine (PostgreSQL when `databaseUrl` is set, PGlite otherwise), migrates it and binds the repositories. */
export async function createStore(options: StoreOptions = {}): Promise<Store> {
  const engine = options.databaseUrl
    ? await createPostgresEngine({ databaseUrl: options.databaseUrl, schema: options.schema })
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
  // The repositories whose calls write outbox events tell the listeners once their transaction has
  // committed: at once for a call of its own, at the end of `transaction` for calls made inside it.
  // Writes of a request's public fields (create, transition, patch) tell the change listeners the same way.
  const top = repositories({ db, now });
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
      return next;
    },
    patchRequest: async (id, patch) => {
      const next = await top.patchRequest(id, patch);
      notifyChanged([next.id]);
      return next;
    },
    engine,
    transaction: async (fn) => {
      let wroteEvents = false;
      const changed = new Set<string>();
      const result = await db.transaction((tx) => {
        const repos = repositories({ db: tx, now });
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
            return next;
          },
          patchRequest: async (id, patch) => {
            const next = await repos.patchRequest(id, patch);
            changed.add(next.id);
            return next;
          },
        });
      });
      if (wroteEvents) notifyOutbox();
      notifyChanged([...changed]);
      return result;
    },
    onOutboxCommit(listener) {
      outboxListeners.add(listener);
      return () => void outboxListeners.delete(listener);
    },
    onRequestsChanged(listener) {
      changeListeners.add(listener);
      return () => void changeListeners.delete(listener);
    },
    migrate: () => migrate(engine),
    close: () => engine.close(),
  };
}

/**
 * The nonce manager of one key — the solver's, or the relayer's (`account`) — one per key and process, over nonces kept in the store so that
 * every process and replica sharing the key draws from one sequence (design: ../solver/README.md,
 * "Transactions that land").
 *
 * `send` — a new transaction:
 *   1. gas is estimated (the simulation: a call that would revert throws here, nothing is sent) — the
 *      limit is the estimate + 20%, never above the transaction's `maxGas` (`solver.maxGasPerTransaction`,
 *      ./gasCap.ts: an estimate above it is GAS_CAP_EXCEEDED, nothing sent) — and fees are taken from the chain's market (./chainFees.ts; ./transactionFees.ts): over the chain's
 *      `maxTransactionFee` cap → TRANSACTION_FEE_CAP_EXCEEDED, nothing sent;
 *   2. under this process's allocation lock of the key, one store transaction locks the key's next
 *      nonce, signs with it, stores the transaction and its attempt, runs the caller's `record` (e.g.
 *      `pending → submitted` with the hash) and moves the next nonce on — all or nothing: a nonce is
 *      never handed out twice, nor without its transaction stored. The sends of a key that wait for
 *      the lock together (up to MAX_ALLOCATION_BATCH) share that store transaction, on consecutive
 *      nonces: at 200 users each fill and payout paid its own BEGIN, nonce lock and COMMIT (issue 26).
 *      When one of them cannot be stored (its `record` throws), nothing of the batch is, and each is
 *      then stored alone as before: only that one fails, and no nonce is skipped;
 *   3. the raw transaction is queued for broadcast before the allocation lock is let go, so this
 *      process's broadcasts of a key leave one at a time in nonce order while the next allocation
 *      already runs; `send` resolves once its own broadcast was answered. A broadcast that fails is
 *      not an error here: the transaction is stored, and `follow` re-broadcasts it. ("Nonce too
 *      high" — a lower nonce, another replica's, has not reached a node that cannot queue
 *      (automine) — is retried for a moment.)
 * `follow` — a stored nonce, until it ends (where heads are pushed, a nonce whose latest attempt was
 * broadcast after the newest pushed block is `pending` without a read: ./broadcastHeads.ts):
 *   - a receipt for any of its attempts → `mined` (the attempt that landed, its receipt); a nonce stored
 *     as mined whose attempt has no receipt any more (a reorg took its block away) is pending again and
 *     followed as below — the callers confirm only receipts in final blocks (../chains/chainFinality.ts);
 *   - the chain's nonce moved past it and none of its attempts has a receipt → `superseded` (the nonce
 *     went to a transaction that is none of ours: the caller decides, e.g. the receiver's `filled`);
 *   - otherwise `pending`: an attempt the node no longer knows (dropped from the mempool, or never
 *     broadcast because the process died) is re-broadcast, bytes unchanged; an attempt older than
 *     `replaceAfterMs` is replaced by the same call at the same nonce with fees bumped ≥ 12.5%, up to
 *     the cap. A replacement never takes a new nonce, so at most one attempt of it can ever land.
 * The first use of a key in a process raises the stored next nonce to the chain's pending nonce
 * (transactions sent from the key by anything else are stepped over).
 *
 * A call with an `authorizationList` (POST /execute's EIP-7702 delegations) is estimated with it and
 * sent as a type-4 transaction; every attempt of its nonce carries the same signed authorizations.
 */
import pLimit, { type LimitFunction } from "p-limit";
import type { Hex } from "viem";
import type { Receipt } from "../chains/readReceipt.ts";
import type { ReadTransaction } from "../chains/readTransaction.ts";
import { alreadySent, nodeErrorText } from "../chains/alreadySent.ts";
import { currentRpcDeadline, inRpcDeadlineScope } from "../chains/rpcDeadline.ts";
import type { ChainClient, ChainClients } from "../chains/chainClients.ts";
import { KeyNotConfiguredError, type ServiceAccount } from "../chains/serviceAccounts.ts";
import { ServiceError } from "../errors/serviceError.ts";
import { errorFields, SILENT_LOG, type Logger } from "../logging/logger.ts";
import type { SolverTransaction, TxAttempt, TxAuthorization, TxCall, TxPurpose } from "../model/solverTransaction.ts";
import { canonicalFields, type Address, type Bytes32 } from "../model/values.ts";
import type { Repositories, Store } from "../store/createStore.ts";
import type { SolverTxKey } from "../store/solver/solverTransactions.ts";
import { signedTransactionOf } from "./signedTransaction.ts";
import { receiptOrNull, transactionKnown } from "./transactionLookup.ts";
import { createBroadcastHeads, mayHaveNews, stillYoung } from "./broadcastHeads.ts";
import type { FeeOracle } from "./chainFees.ts";
import { gasLimitWithin } from "./gasCap.ts";
import { bumpedFees, feeCost, initialFees, type Fees } from "./transactionFees.ts";

/** `maxGas`: the gas cap (./gasCap.ts) — the limit is then chosen within it, or nothing is sent. */
export type OutgoingTx = { to: Address; data: Hex; value?: bigint; maxGas?: bigint; authorizationList?: readonly TxAuthorization[] };

/** A transaction as stored and broadcast: its first attempt's hash and its nonce. */
export type SentTx = { chainId: number; address: Address; txNonce: number; hash: Bytes32 };

/** Sends of one key stored together in one store transaction at most (`send`, step 2). */
export const MAX_ALLOCATION_BATCH = 16;

/** A send priced and waiting for its nonce. */
type Allocation = {
  request: SendRequest;
  client: ChainClient;
  address: Address;
  call: TxCall;
  fees: Fees;
  gas: bigint;
  fields: Record<string, unknown>;
  /** The caller's RPC deadline (../chains/rpcDeadline.ts): its broadcast runs under it, whichever caller's drain carries it out. */
  deadline: ReturnType<typeof currentRpcDeadline>;
  done: { resolve: (allocated: Allocated) => void; reject: (error: unknown) => void };
};
type Allocated = { sent: SentTx; broadcasted: Promise<unknown> };

export type SendRequest = {
  chainId: number;
  purpose: TxPurpose;
  /** What it is for: a requestId, a stray deposit key, a token. */
  subject: string;
  tx: OutgoingTx;
  /** Runs inside the allocation's store transaction (its writes commit with the nonce, or not at all). */
  record: (sent: SentTx, repos: Repositories) => Promise<void>;
  /**
   * Runs once the transaction is priced (gas limit, first attempt's max fee, their product: the most
   * the first attempt can cost) and before a nonce is taken: a throw here sends nothing (e.g. an app
   * balance that cannot cover the cost; POST /execute holds it here).
   */
  beforeAllocation?: (priced: { gas: bigint; maxFeePerGas: bigint; costWei: bigint }) => Promise<void>;
  /** Aborted when the caller's lease is lost: nothing is allocated after that. */
  signal?: AbortSignal;
  logFields?: Record<string, unknown>;
};

export type FollowResult =
  /** `transaction`: the mined attempt as stored (sender, call, value: every attempt carries the same), so no caller reads it back. */
  | { state: "mined"; hash: Bytes32; receipt: Receipt; attempts: number; transaction: ReadTransaction }
  | { state: "pending"; hash: Bytes32; attempts: number }
  | { state: "superseded"; hash: Bytes32; attempts: number };

export type NonceManagerSettings = {
  /** How long an attempt may stay unmined before it is replaced with higher fees. */
  replaceAfterMs: number;
  /** The cap of max fee × gas limit per transaction, by chain id (wei). */
  maxTransactionFee: (chainId: number) => bigint;
};

export type NonceManager = {
  send(request: SendRequest): Promise<SentTx>;
  follow(key: { chainId: number; txNonce: number }, logFields?: Record<string, unknown>): Promise<FollowResult>;
  /** The fee market it prices with (./chainFees.ts): the solver's checks reuse it instead of reading gas prices of their own. */
  fees?: FeeOracle;
};

/** The first attempt of a transaction would cost more than the chain's cap: nothing is sent; retried later. */
export class TransactionFeeCapExceededError extends ServiceError {
  constructor(chainId: number, cost: bigint, cap: bigint) {
    super("TRANSACTION_FEE_CAP_EXCEEDED", `a transaction on chain ${chainId} would cost up to ${cost} wei, over the cap of ${cap}: not sent`);
  }
}

/** The step's lease was lost (or its time is up): no new transaction is started. */
export class StepAbortedError extends ServiceError {
  constructor(what: string) {
    super("STEP_ABORTED", `${what}: the step's lease is lost or its time is up; retried by the lease holder`);
  }
}

/** Gas headroom over the estimate: the estimate is the exact use on today's state; a fill's state can shift slightly. */
const GAS_HEADROOM_PERCENT = 20n;
/** How long a broadcast answered "nonce too high" (an automine node: a lower nonce is still on its way) is retried. */
const NONCE_TOO_HIGH_RETRY_MS = 3000;

export function createNonceManager(options: {
  store: Store;
  clients: ChainClients;
  fees: FeeOracle;
  settings: NonceManagerSettings;
  /** The sending key; default the solver's (each chain client's solver wallet). */
  account?: ServiceAccount;
  log?: Logger;
  now?: () => Date;
}): NonceManager {
  const { store, clients, fees, settings } = options;
  const log = options.log ?? SILENT_LOG;
  const now = options.now ?? (() => new Date());
  // Per key: nonce allocations (a store transaction per batch of waiting sends) one at a time, and
  // broadcasts one at a time in allocation order — the two overlap: the next batch is allocated while
  // the last one is being broadcast.
  const allocations = new Map<string, LimitFunction>();
  const broadcasts = new Map<string, LimitFunction>();
  const synced = new Map<string, Promise<void>>();
  // Per nonce: the head its latest attempt was broadcast after (./broadcastHeads.ts).
  const broadcastHeads = createBroadcastHeads();
  const nonceKey = (chainId: number, address: Address, nonce: number) => `${chainId}:${address.toLowerCase()}:${nonce}`;
  /** Remembers a broadcast the node took; `afterBlock`: the newest block known before it was sent. */
  const noteBroadcast = (outcome: string, key: string, hash: Bytes32, attempts: number, afterBlock: bigint | undefined) => {
    if ((outcome === "sent" || outcome === "known") && afterBlock !== undefined) broadcastHeads.note(key, { hash, attempts, afterBlock });
    else broadcastHeads.forget(key);
  };

  const walletOf = (client: ChainClient): { account: ServiceAccount } => {
    if (options.account) return { account: options.account };
    const wallet = client.solverWallet;
    if (!wallet) throw new KeyNotConfiguredError("solver");
    return wallet;
  };
  const lockOf = (locks: Map<string, LimitFunction>, key: string) => {
    let lock = locks.get(key);
    if (!lock) locks.set(key, (lock = pLimit(1)));
    return lock;
  };
  const sync = (client: ChainClient, address: Address) => {
    const key = `${client.config.id}:${address}`;
    let done = synced.get(key);
    if (!done) {
      done = (async () => {
        const pending = await client.publicClient.getTransactionCount({ address, blockTag: "pending" });
        const next = await store.syncNonce(client.config.id, address, pending);
        log.info({ chainId: client.config.id, address, chainNonce: pending, nextNonce: next }, "nonce manager synced with the chain");
      })();
      synced.set(key, done);
      done.catch(() => synced.delete(key));
    }
    return done;
  };

  const sign = async (client: ChainClient, nonce: number, call: TxCall, fee: Fees): Promise<TxAttempt> => {
    const wallet = walletOf(client);
    const common = {
      chainId: client.config.id,
      nonce,
      to: call.to,
      data: call.data,
      value: call.value,
      gas: call.gas,
      maxFeePerGas: fee.maxFeePerGas,
      maxPriorityFeePerGas: fee.maxPriorityFeePerGas,
    };
    const raw = call.authorizationList
      ? await wallet.account.signTransaction!({ ...common, type: "eip7702", authorizationList: call.authorizationList.map(signedAuthorization) })
      : await wallet.account.signTransaction!({ ...common, type: "eip1559" });
    return { ...signedTransactionOf(raw), maxFeePerGas: fee.maxFeePerGas, maxPriorityFeePerGas: fee.maxPriorityFeePerGas, sentAt: now().toISOString() };
  };

  /** Broadcasts `raw`; answers whether the node took it (or already had it). Never throws. */
  const broadcast = async (client: ChainClient, raw: Hex, fields: Record<string, unknown>): Promise<"sent" | "known" | "nonce-used" | "underpriced" | "failed"> => {
    const started = Date.now();
    for (;;) {
      try {
        await client.publicClient.sendRawTransaction({ serializedTransaction: raw });
        return "sent";
      } catch (error) {
        const refused = alreadySent(error);
        if (refused) return refused;
        const text = nodeErrorText(error);
        if (/underpriced|fee too low|max fee per gas less than block base fee|feecap/.test(text)) return "underpriced";
        if (/nonce too high/.test(text) && Date.now() - started < NONCE_TOO_HIGH_RETRY_MS) {
          await new Promise((resolve) => setTimeout(resolve, 20));
          continue;
        }
        log.warn({ ...fields, err: errorFields(error) }, "broadcast failed; the transaction is stored and will be re-broadcast");
        return "failed";
      }
    }
  };

  // Per key, the sends waiting for a nonce: taken together, up to MAX_ALLOCATION_BATCH at a time, in one
  // store transaction (step 2 above).
  const waiting = new Map<string, Allocation[]>();
  const allocate = (key: string, item: Omit<Allocation, "done">): Promise<Allocated> =>
    new Promise<Allocated>((resolve, reject) => {
      let queue = waiting.get(key);
      if (!queue) waiting.set(key, (queue = []));
      queue.push({ ...item, done: { resolve, reject } });
      // One drain per key at a time: the allocation lock, held while a batch is stored.
      if (queue.length === 1) void lockOf(allocations, key)(() => drain(key));
    });
  const drain = async (key: string) => {
    for (;;) {
      const queue = waiting.get(key) ?? [];
      if (queue.length === 0) return void waiting.delete(key);
      const batch = queue.splice(0, MAX_ALLOCATION_BATCH);
      const live = batch.filter((item) => {
        if (!item.request.signal?.aborted) return true;
        item.done.reject(new StepAbortedError(`${item.request.purpose} ${item.request.subject}`));
        return false;
      });
      try {
        await storeBatch(key, live);
      } catch {
        // One of them could not be stored (its record threw): nothing of the batch was; each alone, as one.
        for (const item of live) await storeBatch(key, [item]).catch((error: unknown) => item.done.reject(error));
      }
    }
  };
  /** Allocates consecutive nonces to `items` in one store transaction, then queues their broadcasts in nonce order; all or nothing. */
  const storeBatch = async (key: string, items: Allocation[]) => {
    if (items.length === 0) return;
    const { chainId } = items[0]!.request;
    const { address, client } = items[0]!;
    const stored = await store.transaction(async (repos) => {
      const first = await repos.allocateNonces(chainId, address, items.length);
      if (first === null) throw new ServiceError("STORED_VALUE_INVALID", `solver_nonces has no row for ${chainId}:${address}`);
      const out: { item: Allocation; sent: SentTx; attempt: TxAttempt }[] = [];
      for (const [i, item] of items.entries()) {
        const attempt = await sign(client, first + i, item.call, item.fees);
        out.push({ item, sent: { chainId, address, txNonce: first + i, hash: attempt.hash }, attempt });
      }
      await repos.insertSolverTransactions(
        out.map(({ item, sent, attempt }) => ({ chainId, address, nonce: sent.txNonce, purpose: item.request.purpose, subject: item.request.subject, call: item.call, attempt })),
      );
      for (const { item, sent } of out) await item.request.record(sent, repos);
      return out;
    });
    // Queued while the allocation is still held, so broadcasts leave in nonce order; the next
    // allocation does not wait for these broadcasts' answers. The head known now: the transactions
    // cannot be in it or below (./broadcastHeads.ts).
    const afterBlock = client.head.known()?.number;
    for (const { item, sent, attempt } of stored) {
      log.info({ ...item.fields, txHash: sent.hash, txNonce: sent.txNonce, maxFeePerGas: attempt.maxFeePerGas.toString(), gas: item.gas.toString() }, "transaction recorded; broadcasting");
      const broadcasted = lockOf(broadcasts, key)(async () => {
        const outcome = await inRpcDeadlineScope(item.deadline, () => broadcast(client, attempt.raw, { ...item.fields, txHash: sent.hash, txNonce: sent.txNonce }));
        noteBroadcast(outcome, nonceKey(chainId, address, sent.txNonce), sent.hash, 1, afterBlock);
        return outcome;
      });
      item.done.resolve({ sent, broadcasted });
    }
  };

  const send: NonceManager["send"] = async (request) => {
    const client = clients.get(request.chainId);
    const wallet = walletOf(client);
    const address = wallet.account.address;
    const value = request.tx.value ?? 0n;
    // The simulation: a call that would revert throws here, before any nonce is taken.
    const gas = await gasLimit(client, address, request.tx, value);
    const cap = settings.maxTransactionFee(request.chainId);
    const priced = initialFees(await fees.market(request.chainId), gas, cap);
    if (!priced.ok) throw new TransactionFeeCapExceededError(request.chainId, priced.cost, cap);
    await request.beforeAllocation?.({ gas, maxFeePerGas: priced.fees.maxFeePerGas, costWei: feeCost(priced.fees, gas) });
    const call: TxCall = { ...canonicalFields({ to: request.tx.to, data: request.tx.data }), value, gas, ...(request.tx.authorizationList && { authorizationList: [...request.tx.authorizationList] }) };
    const fields = { ...request.logFields, chainId: request.chainId, purpose: request.purpose };
    await sync(client, address);
    const key = `${request.chainId}:${address}`;
    const { sent, broadcasted } = await allocate(key, { request, client, address, call, fees: priced.fees, gas, fields, deadline: currentRpcDeadline() });
    await broadcasted;
    return sent;
  };

  /** A nonce found mined by the attempt `hash`: settled (the settle returns the record) and answered so. */
  const settleMined = async (key: SolverTxKey, hash: Bytes32, receipt: Receipt, fields: Record<string, unknown>): Promise<FollowResult> => {
    broadcastHeads.forget(nonceKey(key.chainId, key.address, key.nonce));
    const settled = await store.settleSolverTransaction(key, "mined", hash);
    if (!settled) throw new ServiceError("STORED_VALUE_INVALID", `solver_transactions has no nonce ${key.nonce} for ${key.chainId}:${key.address}`);
    const attempts = settled.attempts.length;
    if (attempts > 1) log.info({ ...fields, purpose: settled.purpose, txHash: hash, attempts }, "a replacement was mined");
    return { state: "mined", hash, receipt, attempts, transaction: sentTransaction(settled, hash) };
  };

  const follow: NonceManager["follow"] = async ({ chainId, txNonce }, logFields = {}) => {
    const client = clients.get(chainId);
    const address = walletOf(client).account.address;
    const key = { chainId, address, nonce: txNonce };
    // No block pushed since the latest attempt was broadcast: nothing can have changed (./broadcastHeads.ts).
    const remembered = broadcastHeads.get(nonceKey(chainId, address, txNonce));
    if (remembered && client.head.mode() === "subscription" && !mayHaveNews(remembered, (await client.head.latest()).number)) {
      return { state: "pending", hash: remembered.hash, attempts: remembered.attempts };
    }
    if (remembered) {
      // This process broadcast the latest attempt it knows of: its receipt first, and the stored record is
      // read only when there is none and the attempt is no longer young. A nonce is mined once, so a
      // receipt of this attempt settles it whatever attempts another replica may have added; the settle
      // returns the record (issue 26: a read of solver_transactions per follow fewer). Without a receipt
      // within its first blocks, it is pending: a healthy transaction lands within them, so the chain's
      // nonce and the mempool are asked only after (./broadcastHeads.ts).
      const receipt = await receiptOrNull(client.publicClient, remembered.hash);
      if (receipt) return settleMined(key, remembered.hash, receipt, { ...logFields, chainId, txNonce });
      if (stillYoung(remembered, (await client.head.latest()).number)) return { state: "pending", hash: remembered.hash, attempts: remembered.attempts };
    }
    const stored = await store.getSolverTransaction(key);
    if (!stored) throw new ServiceError("STORED_VALUE_INVALID", `solver_transactions has no nonce ${txNonce} for ${chainId}:${address}`);
    const fields = { ...logFields, chainId, txNonce, purpose: stored.purpose };
    const latest = stored.attempts.at(-1)!;
    const attempts = stored.attempts.length;
    if (stored.state === "superseded") return { state: "superseded", hash: latest.hash, attempts };
    if (stored.state === "mined") {
      const receipt = await receiptOrNull(client.publicClient, stored.minedHash!);
      if (receipt) return { state: "mined", hash: stored.minedHash!, receipt, attempts, transaction: sentTransaction(stored, stored.minedHash!) };
      // A reorg took the mined attempt's block away: the nonce is pending again, followed as any other.
      await store.settleSolverTransaction(key, "pending", null);
      log.warn({ ...fields, txHash: stored.minedHash }, "mined transaction no longer on the chain (reorg): following its nonce again");
    }
    // Receipts first: the common case (mined) costs one read per attempt.
    const mined = await minedAttempt(client, stored);
    if (mined) return settleMined(key, mined.hash, mined.receipt, fields);
    broadcastHeads.forget(nonceKey(chainId, address, txNonce));
    // The chain's nonce first, then the receipts again: an attempt mined in between is not mistaken for a foreign transaction.
    const chainNonce = await client.publicClient.getTransactionCount({ address, blockTag: "latest" });
    if (chainNonce > txNonce) {
      const late = await minedAttempt(client, stored);
      if (late) return settleMined(key, late.hash, late.receipt, fields);
      await store.settleSolverTransaction(key, "superseded", null);
      log.warn({ ...fields, txHash: latest.hash }, "nonce consumed by a transaction that is none of ours: superseded");
      return { state: "superseded", hash: latest.hash, attempts };
    }
    const known = await transactionKnown(client.publicClient, latest.hash);
    const age = now().getTime() - Date.parse(latest.sentAt);
    if (known && age < settings.replaceAfterMs) return { state: "pending", hash: latest.hash, attempts };
    if (!known) {
      const afterBlock = client.head.known()?.number;
      const outcome = await broadcast(client, latest.raw, { ...fields, txHash: latest.hash });
      noteBroadcast(outcome, nonceKey(chainId, address, txNonce), latest.hash, attempts, afterBlock);
      log.warn({ ...fields, txHash: latest.hash, outcome }, "transaction unknown to the node (dropped, or never broadcast): re-broadcast");
      if (outcome !== "underpriced" && age < settings.replaceAfterMs) return { state: "pending", hash: latest.hash, attempts };
    }
    return replace(client, stored, fields);
  };

  /** Re-signs the nonce's call with bumped fees, stores the attempt, broadcasts it. */
  const replace = async (client: ChainClient, stored: SolverTransaction, fields: Record<string, unknown>): Promise<FollowResult> => {
    const latest = stored.attempts.at(-1)!;
    const attempts = stored.attempts.length;
    const cap = settings.maxTransactionFee(stored.chainId);
    const next = bumpedFees(latest, await fees.market(stored.chainId), stored.call.gas, cap);
    if (!next) {
      log.warn({ ...fields, txHash: latest.hash, cap: cap.toString(), maxFeePerGas: latest.maxFeePerGas.toString() }, "transaction stuck and the fee cap leaves no room for a replacement: waiting");
      return { state: "pending", hash: latest.hash, attempts };
    }
    const attempt = await sign(client, stored.nonce, stored.call, next);
    const updated = await store.appendSolverTxAttempt({ chainId: stored.chainId, address: stored.address, nonce: stored.nonce }, attempt);
    if (!updated) return { state: "pending", hash: latest.hash, attempts };
    const afterBlock = client.head.known()?.number;
    const outcome = await broadcast(client, attempt.raw, { ...fields, txHash: attempt.hash });
    noteBroadcast(outcome, nonceKey(stored.chainId, stored.address, stored.nonce), attempt.hash, attempts + 1, afterBlock);
    log.warn(
      { ...fields, txHash: attempt.hash, replacedTxHash: latest.hash, maxFeePerGas: next.maxFeePerGas.toString(), cost: feeCost(next, stored.call.gas).toString(), outcome },
      "transaction not mined in time: replaced with higher fees (same nonce)",
    );
    return { state: "pending", hash: attempt.hash, attempts: attempts + 1 };
  };

  return { send, follow, fees };
}

/**
 * The gas limit: the estimate + 20% headroom; with `maxGas`, the estimate must be within it
 * (GAS_CAP_EXCEEDED otherwise) and the limit never exceeds it. A node that cannot estimate because an
 * inner call runs out of gas at any limit gets the cap after a call at the cap succeeded (./gasCap.ts).
 */
async function gasLimit(client: ChainClient, from: Address, tx: OutgoingTx, value: bigint): Promise<bigint> {
  // A delegation (EIP-7702) changes the code the call runs: it is estimated with the authorizations.
  const authorizationList = tx.authorizationList?.map(signedAuthorization);
  if (tx.maxGas === undefined) {
    const estimate = await client.publicClient.estimateGas({ account: from, to: tx.to, data: tx.data, value, ...(authorizationList && { authorizationList }) });
    return estimate + (estimate * GAS_HEADROOM_PERCENT) / 100n;
  }
  const estimate = await gasLimitWithin(client.publicClient, client.config.id, from, { to: tx.to, data: tx.data, value, ...(authorizationList && { authorizationList }) }, tx.maxGas);
  const padded = estimate + (estimate * GAS_HEADROOM_PERCENT) / 100n;
  return padded < tx.maxGas ? padded : tx.maxGas;
}

/** The receipt of whichever stored attempt was mined, with that attempt's (canonical) hash. */
async function minedAttempt(client: ChainClient, stored: SolverTransaction): Promise<{ hash: Bytes32; receipt: Receipt } | null> {
  const attempts = [...stored.attempts].reverse();
  const receipts = await Promise.all(attempts.map((a) => receiptOrNull(client.publicClient, a.hash)));
  const i = receipts.findIndex((r) => r !== null);
  return i < 0 ? null : { hash: attempts[i]!.hash, receipt: receipts[i]! };
}

/** The stored transaction's attempt `hash` as the chain holds it: the key's address sent the stored call. */
function sentTransaction(stored: SolverTransaction, hash: Bytes32): ReadTransaction {
  return { hash, from: stored.address, to: stored.call.to, input: stored.call.data, value: stored.call.value };
}

/** A stored authorization in viem's signed form. */
export function signedAuthorization(a: TxAuthorization): { chainId: number; address: Hex; nonce: number; yParity: number; r: Hex; s: Hex } {
  return { chainId: a.chainId, address: a.address, nonce: a.nonce, yParity: a.yParity, r: a.r, s: a.s };
}

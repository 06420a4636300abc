/**
 * The relayer of POST /execute, one per process: its key's nonce manager (../transactions/nonceManager.ts,
 * nonces in the store like the solver's, so replicas share one sequence; fee cap and replacement policy
 * as the solver's) and the worker that follows its transactions until they end — re-broadcast when a
 * node dropped one, fee-bumped when stuck, settled `mined` or `superseded` — from the store, so a
 * transaction recorded before a crash is followed again after the restart. When one ends, the app
 * balance hold that pays its gas (its subject names it) is settled with what the receipt says was paid
 * (gas used × effective gas price, at most the hold) — or released when the nonce went to another
 * transaction. Settling and releasing are idempotent in the ledger, so a pass repeated after a crash
 * between the settle and the nonce's `mined` mark debits once. Each pass also releases the holds a
 * killed process left with no transaction, once past their lease (./stuckExecuteHolds.ts).
 */
import { parseExecuteHoldSubject } from "../balances/executeHoldSubject.ts";
import type { ServiceAccount } from "../chains/serviceAccounts.ts";
import type { ChainClients } from "../chains/chainClients.ts";
import { CONFIG_DEFAULTS, type FerryConfig } from "../config/configSchema.ts";
import { errorFields, SILENT_LOG, type Logger } from "../logging/logger.ts";
import type { SolverTransaction } from "../model/solverTransaction.ts";
import type { Store } from "../store/createStore.ts";
import { createFeeOracle, type FeeOracle } from "../transactions/chainFees.ts";
import { spentUsdMicros } from "./gasCharge.ts";
import { createNonceManager, type FollowResult, type NonceManager } from "../transactions/nonceManager.ts";
import { startWorkerLoop, type WorkerLoop } from "../worker/workerLoop.ts";
import { endExecutionRequest } from "./executionRequest.ts";
import { EXECUTE_HOLD_LEASE_MS, releaseStuckExecuteHolds } from "./stuckExecuteHolds.ts";

/** How many pending relayed transactions one pass follows. */
const FOLLOW_BATCH = 50;

export type Relayer = { transactions: NonceManager; fees: FeeOracle; maxTransactionFee: (chainId: number) => bigint };

export function createRelayer(options: { config: FerryConfig; store: Store; clients: ChainClients; relayer: ServiceAccount; log?: Logger }): Relayer {
  const chainConfigs = new Map(options.config.chains.map((c) => [c.id, c]));
  const fees = createFeeOracle(options.clients);
  const maxTransactionFee = (chainId: number) => BigInt(chainConfigs.get(chainId)?.maxTransactionFee ?? CONFIG_DEFAULTS.maxTransactionFee);
  const transactions = createNonceManager({
    store: options.store,
    clients: options.clients,
    fees,
    settings: { replaceAfterMs: options.config.solver.replaceAfterMs, maxTransactionFee },
    account: options.relayer,
    log: options.log ?? SILENT_LOG,
  });
  return { transactions, fees, maxTransactionFee };
}

/**
 * Follows the relayer's pending `execute` transactions every `intervalMs`; settles each one's hold when
 * it ends; releases holds older than `holdLeaseMs` (default EXECUTE_HOLD_LEASE_MS) that no transaction names.
 */
export function startRelayFollower(options: {
  store: Store;
  clients: ChainClients;
  transactions: Pick<NonceManager, "follow">;
  relayer: ServiceAccount;
  intervalMs: number;
  holdLeaseMs?: number;
  log: Logger;
}): WorkerLoop {
  const relayer = options.relayer.address;
  return startWorkerLoop({
    intervalMs: options.intervalMs,
    onFailure: (error, failures) => options.log.warn({ err: errorFields(error), failures }, "relay follower: pass failed; retrying"),
    pass: async () => {
      const pending = await options.store.listPendingSolverTransactions("execute", FOLLOW_BATCH);
      // Transactions that ended before a crash stopped their settle: followed again (a mined nonce gives its receipt back).
      const ended = await options.store.listEndedExecuteHoldTransactions(FOLLOW_BATCH);
      for (const key of [...pending, ...ended]) {
        if (key.address !== relayer) continue;
        try {
          const tx = pending.find((p) => p.chainId === key.chainId && p.nonce === key.nonce) ?? (await options.store.getSolverTransaction({ chainId: key.chainId, address: relayer, nonce: key.nonce }));
          if (!tx) continue;
          // A retried attempt's subject names the same requestId as the first's.
          const parsed = parseExecuteHoldSubject(tx.subject);
          const result = await options.transactions.follow({ chainId: tx.chainId, txNonce: tx.nonce }, { requestId: parsed?.requestId ?? tx.subject });
          if (result.state !== "pending") {
            options.log.info({ requestId: parsed?.requestId ?? tx.subject, subject: tx.subject, chainId: tx.chainId, state: result.state, txHash: result.hash, ...(result.state === "mined" && { status: result.receipt.status, gasUsed: result.receipt.gasUsed.toString() }) }, "relayed execution ended");
            // The request first, then the hold: a crash between leaves the hold held, and the next pass ends both (each once).
            if (parsed) await endExecutionRequest(options.store, options.clients.get(tx.chainId), parsed.requestId, result);
            await settleHold(options, tx, result);
          }
        } catch (error) {
          options.log.warn({ chainId: key.chainId, txNonce: key.nonce, err: errorFields(error) }, "relay follower: following a transaction failed; retrying");
        }
      }
      const released = await releaseStuckExecuteHolds({ store: options.store, leaseMs: options.holdLeaseMs ?? EXECUTE_HOLD_LEASE_MS, limit: FOLLOW_BATCH, log: options.log });
      return pending.length === FOLLOW_BATCH || released === FOLLOW_BATCH;
    },
  });
}

/** Settles (mined: what the receipt paid, at most the hold) or releases (superseded) the hold named by the subject. */
export async function settleHold(options: { store: Store; clients: ChainClients; log: Logger }, tx: SolverTransaction, result: FollowResult): Promise<void> {
  const parsed = parseExecuteHoldSubject(tx.subject);
  if (!parsed) return;
  const hold = await options.store.appBalances.getHold(parsed.holdId);
  if (!hold || hold.state !== "held") return;
  if (result.state === "mined") {
    const native = options.clients.get(tx.chainId).config.nativeCurrency;
    const spentUsd = spentUsdMicros(result.receipt, tx.call.value, native, tx.chainId, hold.amountUsd);
    await options.store.appBalances.settle({ holdId: parsed.holdId, spentUsd });
    options.log.info({ requestId: parsed.requestId, holdId: parsed.holdId, heldUsd: hold.amountUsd.toString(), spentUsd: spentUsd.toString() }, "relayed execution: gas debited from the app balance");
  } else if (result.state === "superseded") {
    await options.store.appBalances.release(parsed.holdId);
  }
}

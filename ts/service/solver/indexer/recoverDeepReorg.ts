/**
 * The operator's recovery after a reorg deeper than a chain's confirmations (`ferry solver
 * recover-reorg`): the chain was halted by the indexer (./indexDeposits.ts) because a block it had
 * treated as final was replaced, so deposits it credited above the fork, and payouts it confirmed
 * there, may no longer exist. Resetting payouts "not executed onchain" back to `sent` without looking at
 * their deposits (the recipe this replaces) makes the solver repay — out of other users' deposits — a
 * deposit that is gone. Here every affected record is checked against the canonical chain first:
 *
 * 1. the resume block `n`: the halt's `lastGood` (the newest recorded block still on the chain), or the
 *    operator's `fromBlock` (required when the halt has none; never above `lastGood`); its hash is read
 *    now, and must still be `lastGood`'s;
 * 2. every request credited from a deposit on the chain above `n` (../../store/solver/reorgAffected.ts): its
 *    `Deposited` log is looked up in the deposit transaction's receipt on the canonical chain (same
 *    Depository, orderId, depositor, token and amount):
 *    - there, in a final block → kept (a moved deposit's block and log index are updated);
 *    - there but not final yet, or the transaction is back in the mempool → `unconfirmed`: nothing is
 *      resumed, run the command again later;
 *    - not there → **gone**: the request is parked `DEEP_REORG_DEPOSIT_GONE` (the solver never steps a
 *      parked request, and unparking it is refused), and each of its payouts on the chain that the
 *      Depository has not executed is marked `reverted` with failReason `DEPOSIT_GONE`, so it is never
 *      sent again. A fill already made, or a payout the Depository did execute, for such a deposit is
 *      reported as a loss (the operator recovers it off-chain).
 * 3. every payout on the chain (a request's repayment or refund, a stray's refund) recorded confirmed
 *    above `n` whose deposit exists: its transaction's receipt on the canonical chain in a final block →
 *    kept; otherwise it goes back to `sent`, and the solver re-checks it as after a restart
 *    (`executed(nonce)` decides; the very same struct is re-signed, its nonce pays once).
 * 4. stray deposits recorded above `n`: the same check; a gone one is `ignored` (reason
 *    `DEPOSIT_GONE`, its unexecuted refund `reverted`), never refunded.
 * 5. nothing unconfirmed → the indexer resumes from `n` (`store.resumeIndexer`: the halt cleared, the
 *    checkpoint at `n` with its current hash): deposits of the canonical chain above `n` are indexed
 *    once (one already credited is recognised by its transaction and log index), the alert goes to 0.
 *
 * `apply: false` (a dry run) checks and reports without writing anything. The chain stays halted while
 * this runs, so no solver step touches these records meanwhile.
 */
import type { Hex } from "viem";
import type { ChainClients, ChainClient } from "../../chains/chainClients.ts";
import { isFinal, readHeader } from "../../chains/chainFinality.ts";
import { KeyNotConfiguredError } from "../../chains/serviceAccounts.ts";
import { ServiceError } from "../../errors/serviceError.ts";
import type { Logger } from "../../logging/logger.ts";
import type { Payout, PayoutKind } from "../../model/payout.ts";
import type { StoredRequest } from "../../model/storedRequest.ts";
import type { Address, Bytes32 } from "../../model/values.ts";
import type { Store } from "../../store/createStore.ts";
import { DEPOSIT_GONE_PARK_CODE } from "../../store/solver/reorgAffected.ts";
import type { StoredStrayDeposit } from "../../store/solver/strayDeposits.ts";
import { isPayoutExecuted, receiptOrNull, transactionKnown } from "../chainReads.ts";
import { decodeDepositLogs } from "./depositEvent.ts";

/** The failReason of a payout (or a stray's ignored reason) that must never be sent: its deposit is gone. */
export const DEPOSIT_GONE = "DEPOSIT_GONE";

export type DepositCheck = { state: "kept"; block: number; logIndex: number } | { state: "gone" } | { state: "unconfirmed"; why: string };

/** The deposit as recorded: where its `Deposited` log was and what it said. */
export type RecordedDeposit = { txHash: Bytes32; depository: Address; orderId: Bytes32; depositor: Address; token: Address; amount: bigint };

export type RecoveredRecord = {
  /** The request id, or the stray deposit's `txHash:logIndex`. */
  id: string;
  kind: "request" | "stray";
  /** The deposit: not above the resume block (`below`), or what the canonical chain says. */
  deposit: "below" | "kept" | "moved" | "gone" | "unconfirmed";
  /** What was done (or, in a dry run, would be done), in words. */
  actions: string[];
  /** Money already gone for a deposit that is gone: a fill made, a payout executed. */
  losses: string[];
};

export type ReorgRecoveryReport = {
  chainId: number;
  resumeBlock: number;
  resumeHash: Hex;
  applied: boolean;
  /** Whether the chain was resumed (false: a dry run, or a record not settled on the canonical chain yet). */
  resumed: boolean;
  records: RecoveredRecord[];
  /** Why the chain was not resumed (unconfirmed deposits or payouts): run again later. */
  waitingFor: string[];
};

export type ReorgRecoveryDeps = { store: Store; clients: ChainClients; log: Logger };
export type ReorgRecoveryOptions = { chainId: number; fromBlock?: number; apply: boolean };


/** Whether the recorded deposit's `Deposited` log is in its transaction on the canonical chain, and final there. */
export async function checkDeposit(client: ChainClient, deposit: RecordedDeposit): Promise<DepositCheck> {
  const receipt = await receiptOrNull(client.publicClient, deposit.txHash);
  if (!receipt) return (await transactionKnown(client.publicClient, deposit.txHash)) ? { state: "unconfirmed", why: "the deposit transaction is back in the mempool" } : { state: "gone" };
  if (!(await isFinal(client, receipt.blockNumber))) return { state: "unconfirmed", why: `the deposit transaction is in block ${receipt.blockNumber}, not final yet` };
  if (receipt.status !== "success") return { state: "gone" };
  const log = decodeDepositLogs(client.config.id, deposit.depository, receipt.logs).find(
    (entry) => entry.orderId === deposit.orderId && entry.depositor === deposit.depositor && entry.token === deposit.token && entry.amount === deposit.amount,
  );
  return log ? { state: "kept", block: Number(log.blockNumber), logIndex: log.logIndex } : { state: "gone" };
}

/** Fees 12.5% (+1 wei) above `fees`: what a node takes to replace a transaction at the same nonce. */
const bumped = (fee: bigint) => fee + fee / 8n + 1n;

/**
 * Makes sure the solver's transaction nonce `txNonce` on the chain can never carry a vanished payout:
 * unless the chain's nonce of the solver already passed it, a 0-value transfer to itself takes it, with
 * fees above every stored attempt's (so it also replaces the payout wherever a mempool still holds it)
 * and above the market; the stored transaction of that nonce is then `superseded`. Without it the
 * vanished payout's nonce is a gap every later solver transaction on the chain waits behind — and the
 * only thing that fills it is the payout itself.
 */
async function voidSolverNonce(deps: ReorgRecoveryDeps, client: ChainClient, txNonce: number): Promise<string> {
  const wallet = client.solverWallet;
  if (!wallet) throw new KeyNotConfiguredError("solver");
  const address = wallet.account.address;
  const key = { chainId: client.config.id, address, nonce: txNonce };
  const onchain = await client.publicClient.getTransactionCount({ address, blockTag: "latest" });
  if (onchain > txNonce) {
    await deps.store.settleSolverTransaction(key, "superseded", null);
    return `solver nonce ${txNonce} already used onchain`;
  }
  const stored = await deps.store.getSolverTransaction(key);
  const market = await client.publicClient.estimateFeesPerGas();
  let maxFeePerGas = market.maxFeePerGas;
  let maxPriorityFeePerGas = market.maxPriorityFeePerGas;
  for (const attempt of stored?.attempts ?? []) {
    if (bumped(attempt.maxFeePerGas) > maxFeePerGas) maxFeePerGas = bumped(attempt.maxFeePerGas);
    if (bumped(attempt.maxPriorityFeePerGas) > maxPriorityFeePerGas) maxPriorityFeePerGas = bumped(attempt.maxPriorityFeePerGas);
  }
  if (maxPriorityFeePerGas > maxFeePerGas) maxFeePerGas = maxPriorityFeePerGas;
  const hash = await wallet.sendTransaction({ account: wallet.account, chain: wallet.chain, to: address, value: 0n, gas: 21_000n, nonce: txNonce, maxFeePerGas, maxPriorityFeePerGas });
  await deps.store.settleSolverTransaction(key, "superseded", null);
  if (onchain === txNonce) await client.publicClient.waitForTransactionReceipt({ hash });
  return `solver nonce ${txNonce} voided by ${hash}${onchain < txNonce ? ` (queued behind nonce ${onchain})` : ""}`;
}

/** Whether a payout recorded confirmed is still, by its own transaction, on the canonical chain in a final block. */
async function payoutLanded(client: ChainClient, payout: Payout): Promise<boolean> {
  if (!payout.hash) return false;
  const receipt = await receiptOrNull(client.publicClient, payout.hash);
  return receipt !== null && receipt.status === "success" && (await isFinal(client, receipt.blockNumber));
}

/** The resume block and its current hash, checked against the halt. */
async function resumePoint(deps: ReorgRecoveryDeps, client: ChainClient, options: ReorgRecoveryOptions): Promise<{ block: number; hash: Bytes32 }> {
  const { chainId } = options;
  const checkpoint = await deps.store.getIndexerCheckpoint(chainId, client.config.contracts.depository);
  const halt = checkpoint?.halted ?? null;
  if (!halt && options.fromBlock === undefined) {
    throw new ServiceError("CHAIN_NOT_HALTED", `chain ${chainId} is not halted: there is no deep reorg to recover from (give --from-block to re-check the records above a block anyway)`);
  }
  const lastGood = halt?.lastGood ?? null;
  const block = options.fromBlock ?? lastGood?.block;
  if (block === undefined) {
    throw new ServiceError(
      "REORG_RESUME_BLOCK_UNKNOWN",
      `chain ${chainId}: the reorg went below every block the indexer recorded; find a block below the fork (the chain's explorer, eth_getBlockByNumber) and give it as --from-block`,
    );
  }
  if (lastGood && block > lastGood.block) {
    throw new ServiceError("REORG_RESUME_BLOCK_UNKNOWN", `chain ${chainId}: --from-block ${block} is above the newest recorded block still on the chain (${lastGood.block}); give ${lastGood.block} or lower`);
  }
  const { hash } = await readHeader(client, BigInt(block));
  if (lastGood && block === lastGood.block && hash !== lastGood.hash) {
    throw new ServiceError(
      "REORG_RESUME_BLOCK_UNKNOWN",
      `chain ${chainId}: block ${block} changed again since the halt (now ${hash}); give a lower --from-block, below the new fork`,
    );
  }
  return { block, hash };
}

export async function recoverDeepReorg(deps: ReorgRecoveryDeps, options: ReorgRecoveryOptions): Promise<ReorgRecoveryReport> {
  const { store, log } = deps;
  const { chainId, apply } = options;
  const client = deps.clients.get(chainId);
  const resume = await resumePoint(deps, client, options);
  const records: RecoveredRecord[] = [];
  const waitingFor: string[] = [];

  for (const request of await store.listReorgAffectedRequests(chainId, resume.block)) {
    const record = await recoverRequest(deps, client, request, resume.block, apply);
    if (record.deposit === "unconfirmed") waitingFor.push(`request ${request.id}: ${record.actions.join("; ")}`);
    records.push(record);
  }
  for (const key of await store.listReorgAffectedStrays(chainId, resume.block)) {
    const stray = await store.getStrayDeposit(key);
    if (!stray) continue;
    const record = await recoverStray(deps, client, stray, resume.block, apply);
    if (record.deposit === "unconfirmed") waitingFor.push(`stray ${record.id}: ${record.actions.join("; ")}`);
    records.push(record);
  }

  let resumed = false;
  if (apply && waitingFor.length === 0) {
    resumed = await store.resumeIndexer(chainId, client.config.contracts.depository, resume);
    log.warn({ chainId, block: resume.block, hash: resume.hash }, "deep reorg recovered: indexing resumes after the resume block");
  }
  for (const record of records) {
    const fields = { chainId, id: record.id, kind: record.kind, deposit: record.deposit, actions: record.actions, losses: record.losses };
    if (record.losses.length > 0) log.error(fields, "deep reorg: paid for a deposit that is gone (recover it off-chain)");
    else log.info(fields, "deep reorg: record checked against the canonical chain");
  }
  return { chainId, resumeBlock: resume.block, resumeHash: resume.hash, applied: apply, resumed, records, waitingFor };
}

/** `checkDeposit`, its verdict noted on the record (`unconfirmed` with why; `kept` or `moved` by the log's place). */
async function noteDeposit(client: ChainClient, deposit: RecordedDeposit, recorded: { block: number; logIndex: number }, record: RecoveredRecord): Promise<DepositCheck> {
  const check = await checkDeposit(client, deposit);
  if (check.state === "unconfirmed") {
    record.deposit = "unconfirmed";
    record.actions.push(check.why);
  } else if (check.state === "gone") {
    record.deposit = "gone";
  } else {
    record.deposit = check.block === recorded.block && check.logIndex === recorded.logIndex ? "kept" : "moved";
  }
  return check;
}

async function recoverRequest(deps: ReorgRecoveryDeps, client: ChainClient, request: StoredRequest, above: number, apply: boolean): Promise<RecoveredRecord> {
  const { store } = deps;
  const chainId = client.config.id;
  const state = request.solver;
  const record: RecoveredRecord = { id: request.id, kind: "request", deposit: "below", actions: [], losses: [] };
  const deposit = state?.deposit;
  if (deposit && deposit.chainId === chainId && deposit.block > above) {
    const check = await noteDeposit(client, { ...deposit, orderId: request.orderId }, deposit, record);
    if (check.state === "unconfirmed") return record;
    if (check.state === "gone") {
      const payouts: Partial<Record<PayoutKind, Payout>> = {};
      for (const kind of ["repayment", "refund"] as const) {
        const payout = state[kind];
        if (!payout || payout.chainId !== chainId) continue;
        if (await isPayoutExecuted(client, payout.nonce)) {
          record.losses.push(`its ${kind} (Depository nonce ${payout.nonce}) was executed onchain`);
          continue;
        }
        // The signed payout still exists (our stored attempt, other nodes' mempools): its solver nonce is
        // taken by a no-op first, so it can never be mined, then it is marked never to be sent again.
        if (payout.txNonce !== undefined) record.actions.push(apply ? await voidSolverNonce(deps, client, payout.txNonce) : `solver nonce ${payout.txNonce} to be voided`);
        if (payout.status !== "reverted" || payout.failReason !== DEPOSIT_GONE) {
          payouts[kind] = { ...payout, status: "reverted", failReason: DEPOSIT_GONE };
          record.actions.push(`${kind} marked reverted (${DEPOSIT_GONE}): never sent again`);
        }
        // A batched repayment (../payout/repaymentBatch.ts): the whole batch is closed, never sent again
        // (it would repay this request out of other deposits); its other members are left for the operator.
        if (payout.batch) {
          record.actions.push(`repayment batch ${payout.nonce} closed (${DEPOSIT_GONE}): never sent again`);
          record.losses.push(`the other members of repayment batch ${payout.nonce} are not repaid by it: repay them by hand`);
          if (apply) {
            const batch = await store.getRepaymentBatch(payout.nonce);
            if (batch && batch.state === "open") await store.updateRepaymentBatch(batch.nonce, { ...batch.payout, status: "reverted", failReason: DEPOSIT_GONE }, "done");
          }
        }
      }
      if (state.fill?.status === "confirmed" || request.status === "success") record.losses.push(`filled on chain ${request.destinationChainId} (${state.fill?.hash ?? "no hash"})`);
      record.actions.push(`parked ${DEPOSIT_GONE_PARK_CODE}`);
      if (apply) {
        if (Object.keys(payouts).length > 0) await store.patchRequest(request.id, { solver: payouts });
        await store.parkRequest(request.id, {
          code: DEPOSIT_GONE_PARK_CODE,
          message: `deposit ${deposit.txHash} (block ${deposit.block}) is not on chain ${chainId} after a reorg deeper than its confirmations: never repaid or refunded`,
        });
      }
      return record;
    }
    if (record.deposit === "moved") {
      record.actions.push(`deposit moved to block ${check.block}, log ${check.logIndex}`);
      if (apply) {
        const timestamp = (await client.publicClient.getBlock({ blockNumber: BigInt(check.block) })).timestamp;
        await store.patchRequest(request.id, { solver: { deposit: { ...deposit, block: check.block, logIndex: check.logIndex, blockTimestamp: Number(timestamp) } } });
      }
    }
  }
  // The deposit exists: payouts confirmed above the resume block are re-checked by the solver unless their transaction is still there.
  for (const kind of ["repayment", "refund"] as const) {
    const payout = state?.[kind];
    if (!payout || payout.chainId !== chainId || payout.status !== "confirmed" || (payout.block ?? -1) <= above) continue;
    if (await payoutLanded(client, payout)) continue;
    record.actions.push(`${kind} back to sent: the solver re-checks executed(nonce) and resends the same struct`);
    if (apply) await store.patchRequest(request.id, { solver: { [kind]: { ...payout, status: "sent" } } });
    // A batched repayment: the batch itself goes back to sent (its step re-checks and resends that struct).
    if (apply && payout.batch) {
      const batch = await store.getRepaymentBatch(payout.nonce);
      if (batch && batch.state === "done" && batch.payout.status === "confirmed") await store.updateRepaymentBatch(batch.nonce, { ...batch.payout, status: "sent" }, "open");
    }
  }
  return record;
}

async function recoverStray(deps: ReorgRecoveryDeps, client: ChainClient, stray: StoredStrayDeposit, above: number, apply: boolean): Promise<RecoveredRecord> {
  const key = { chainId: stray.chainId, txHash: stray.txHash, logIndex: stray.logIndex };
  const record: RecoveredRecord = { id: `${stray.txHash}:${stray.logIndex}`, kind: "stray", deposit: "below", actions: [], losses: [] };
  const refund = stray.refund;
  if (stray.block > above) {
    const check = await noteDeposit(client, stray, stray, record);
    if (check.state === "unconfirmed") return record;
    if (check.state === "gone") {
      if (refund && refund.status !== "reverted" && (await isPayoutExecuted(client, refund.nonce))) {
        record.losses.push(`its refund (Depository nonce ${refund.nonce}) was executed onchain`);
        return record;
      }
      if (refund?.txNonce !== undefined) record.actions.push(apply ? await voidSolverNonce(deps, client, refund.txNonce) : `solver nonce ${refund.txNonce} to be voided`);
      record.actions.push(`ignored (${DEPOSIT_GONE}): never refunded`);
      if (apply) {
        await deps.store.patchStrayDeposit(key, {
          state: "ignored",
          ignoredReason: DEPOSIT_GONE,
          ...(refund && refund.status !== "reverted" ? { refund: { ...refund, status: "reverted", failReason: DEPOSIT_GONE } } : {}),
        });
      }
      return record;
    }
    // A moved stray keeps its key (the refund is planned from the amounts, not the log's place).
  }
  if (refund && refund.status === "confirmed" && (refund.block ?? -1) > above && !(await payoutLanded(client, refund))) {
    record.actions.push("refund back to sent: the solver re-checks executed(nonce) and resends the same struct");
    if (apply) await deps.store.patchStrayDeposit(key, { state: "pending", refund: { ...refund, status: "sent" } });
  }
  return record;
}

/**
 * Writes indexed deposits: for each deposit whose orderId has a quote, the request is created
 * (`waiting`, unless it exists) and moved to `pending` with the deposit's `data` — and the indexer's
 * checkpoint advances — all in one store transaction. Idempotent: a deposit seen twice (a re-read
 * range, the index route and the indexer, two replicas) credits once, because requests.order_id is
 * unique and only `waiting`/`depositing` may move to `pending`.
 *
 Only a deposit that matches its quote (./depositMatch.ts: the
 * quoted origin chain and currency, at least the quoted amount) credits the order: anyone can
 * deposit under a public orderId, and a deposit that does not match — 1 wei, a worthless token, the
 * other chain — must never consume the order (`mismatch`: the request stays `waiting` for the real
 * deposit). A deposit no request accounts for — that mismatch, a second deposit for an order already
 * credited (`extra`, DOUBLE_SPEND) or one for an orderId never quoted (`unknown-order`,
 * UNKNOWN_ORDER) — is recorded as a stray deposit in the same transaction, keyed by its log, so the
 * solver returns it to its depositor (../payout/refundStrayDeposit.ts). Seeing the credited deposit itself again (`duplicate`) records nothing.
 * Only deposits from the Depository's stray-tracking start on are recorded (./indexDeposits.ts): an
 * earlier one arrived before this database watched the chain and may well be settled already.
 */
import type { Hex } from "viem";
import type { ChainConfig } from "../../config/configSchema.ts";
import type { Repositories, Store } from "../../store/createStore.ts";
import { depositPatch, newRequestFor, type ObservedDeposit } from "./depositRequest.ts";
import { StoredValueInvalidError } from "../../model/storedValue.ts";
import type { DepositOrder, DepositOrderRead } from "../../store/solver/depositOrder.ts";
import type { Logger } from "../../logging/logger.ts";
import type { StrayDepositReason } from "../../store/solver/strayDeposits.ts";
import { depositMismatch, type DepositMismatch, type DepositTerms } from "./depositMatch.ts";
import { creditFundingDeposit } from "./fundingDeposit.ts";
import type { Address, Bytes32 } from "../../model/values.ts";
import type { QuotedIntent } from "../../model/quotedIntent.ts";
import type { NewRequest, StoredRequest } from "../../model/storedRequest.ts";
import type { DepositAddressPayment } from "../../model/depositAddressPayment.ts";

export type DepositOutcome =
  /** The request moved to `pending` now. */
  | { orderId: string; outcome: "credited"; requestId: string }
  /** This deposit was already credited (seen before). */
  | { orderId: string; outcome: "duplicate"; requestId: string }
  /** Not the quoted chain, currency or amount: never credited; recorded as a stray named by the mismatch (refunded). */
  | { orderId: string; outcome: "mismatch"; reason: DepositMismatch; requestId: null }
  /** Another deposit already credited this orderId: this one is not matched; recorded as a DOUBLE_SPEND stray (refunded). */
  | { orderId: string; outcome: "extra"; requestId: string }
  /** No quote (with an intent) for the orderId: nothing to match the funds to; recorded as an UNKNOWN_ORDER stray (refunded). */
  | { orderId: string; outcome: "unknown-order"; requestId: null }
  /** A funding order's deposit (./fundingDeposit.ts): the app's balance credited (`credited` false: this log was credited before). */
  | { orderId: string; outcome: "funded"; apiKeyId: string; amountUsd: bigint; credited: boolean; requestId: null };

/** The range's last block and its hash (the indexer verifies it is still the chain's before reading on). */
export type Checkpoint = { chainId: number; contract: Address; block: number; hash?: Bytes32 };

export async function recordDeposits(
  deps: { store: Store; chains: readonly ChainConfig[]; log: Logger },
  deposits: readonly ObservedDeposit[],
  checkpoint?: Checkpoint,
): Promise<DepositOutcome[]> {
  return deps.store.transaction(async (tx) => {
    // The orders of a range's deposits are read in one statement, before any is credited. Only the
    // first deposit of an order uses that read: a later one for the same order (a double spend) reads
    // again, after the first was credited. (Orders do not share a request: a request has one quote.)
    const reads = deposits.length > 1 ? await tx.getDepositOrders([...new Set(deposits.map((d) => d.orderId))]) : new Map<Bytes32, DepositOrderRead>();
    const outcomes: DepositOutcome[] = [];
    for (const deposit of deposits) {
      const read = reads.get(deposit.orderId);
      reads.delete(deposit.orderId);
      outcomes.push(await recordDeposit(tx, deps, deposit, read));
    }
    if (checkpoint) await tx.setCheckpoint(checkpoint.chainId, checkpoint.contract, checkpoint.block, checkpoint.hash);
    return outcomes;
  });
}

/**
 * A deposit sent but not yet mined (or not yet confirmed): creates the request in `waiting` with its
 * inTxHash when its orderId has a quote and what is known of it matches the quote (chain, currency,
 * and the amount unless it is an allowance-form call, whose amount is known only once mined), so
 * status polls see it; the indexer moves it on. Returns the requestId, or null for an unknown order
 * or a deposit that does not match (an attacker's pending 1-wei deposit never attaches its hash to
 * the user's request). Idempotent (an existing request is left as it is). `status`: `depositing` for a
 * relayed (signature-authorised) deposit call.
 */
export async function recordWaitingDeposit(
  deps: { store: Store; chains: readonly ChainConfig[]; log: Logger },
  deposit: DepositTerms & { orderId: Bytes32 },
  txHash: Bytes32,
  status: "waiting" | "depositing" = "waiting",
): Promise<string | null> {
  const orderId = deposit.orderId;
  return deps.store.transaction(async (tx) => {
    const order = await orderOf(tx, deps, orderId);
    const quote = order.funding ? null : order.quote;
    if (!quote) return null;
    const intent = quote.intent;
    const mismatch = depositMismatch(intent, deposit);
    if (mismatch) {
      deps.log.warn({ orderId, chainId: deposit.chainId, txHash, mismatch }, "pending deposit does not match its quote: not attached to the request");
      return null;
    }
    const existing = order.funding ? null : order.request;
    if (existing) return existing.id;
    const created = await tx.createRequest(withDepositPayment({ ...newRequestFor(intent, quote.apiKeyId, txHash, null, deps.chains), status }, await depositAddressPayment(tx, intent)));
    deps.log.info({ requestId: created.id, txHash, status }, `deposit seen before confirmation: request ${status}`);
    return created.id;
  });
}

async function recordDeposit(
  tx: Repositories,
  deps: { chains: readonly ChainConfig[]; log: Logger },
  deposit: ObservedDeposit,
  read?: DepositOrderRead,
): Promise<DepositOutcome> {
  const orderId = deposit.orderId;
  const order = await orderOf(tx, deps, orderId, read);
  if (order.funding) {
    const funding = order.funding;
    const funded = await creditFundingDeposit(tx, deps, funding, deposit);
    if (funded.outcome === "funded") return { orderId, ...funded, requestId: null };
    deps.log.warn({ orderId, apiKeyId: funding.apiKeyId, chainId: deposit.chainId, txHash: deposit.txHash, reason: funded.reason }, "deposit does not fit its funding order: not credited (stray)");
    await recordStray(tx, deps, deposit, funded.reason, null);
    return { orderId, outcome: "mismatch", reason: funded.reason, requestId: null };
  }
  const quote = order.quote;
  if (!quote) {
    deps.log.warn({ chainId: deposit.chainId, orderId, txHash: deposit.txHash }, "deposit for an unknown order: not matched");
    await recordStray(tx, deps, deposit, "UNKNOWN_ORDER", null);
    return { orderId, outcome: "unknown-order", requestId: null };
  }
  const intent = quote.intent;
  const mismatch = depositMismatch(intent, deposit);
  if (mismatch) {
    deps.log.warn(
      { orderId, requestId: intent.requestId, chainId: deposit.chainId, txHash: deposit.txHash, token: deposit.token, amount: deposit.amount.toString(), mismatch },
      "deposit does not match its quote: not credited (stray)",
    );
    await recordStray(tx, deps, deposit, mismatch, intent.requestId);
    return { orderId, outcome: "mismatch", reason: mismatch, requestId: null };
  }
  const request = order.request;
  // Paid through a deposit address: the payment the solver forwarded (who paid, which transaction) joins the request's records from its first event on.
  const payment = await depositAddressPayment(tx, intent);
  if (!request || request.status === "waiting" || request.status === "depositing") {
    const patch = depositPatch(intent, deposit, deps.chains);
    const credit = payment ? { ...patch, solver: { ...patch.solver, depositPayment: payment } } : patch;
    // A request nothing has created yet is created credited: its `waiting` and `pending` in one write.
    const credited = request
      ? await tx.transitionRequest(request.id, "pending", credit)
      : await tx.createCreditedRequest(withDepositPayment(newRequestFor(intent, quote.apiKeyId, deposit.txHash, Number(deposit.blockNumber), deps.chains), payment), credit);
    deps.log.info({ requestId: credited.id, chainId: deposit.chainId, txHash: deposit.txHash }, "deposit indexed");
    return { orderId, outcome: "credited", requestId: credited.id };
  }
  const credited = request.solver?.deposit;
  if (!credited && request.solver?.fastFill) return creditFastFilled(tx, deps, request, intent, deposit);
  if (credited?.txHash === deposit.txHash && credited.logIndex === deposit.logIndex && credited.chainId === deposit.chainId) {
    return { orderId, outcome: "duplicate", requestId: request.id };
  }
  deps.log.warn({ requestId: request.id, chainId: deposit.chainId, txHash: deposit.txHash }, "second deposit for an already credited order: not matched");
  await recordStray(tx, deps, deposit, "DOUBLE_SPEND", request.id);
  return { orderId, outcome: "extra", requestId: request.id };
}

/** The payment into the intent's deposit address the solver forwarded (null: not paid through a deposit address, or not forwarded). */
async function depositAddressPayment(tx: Repositories, intent: QuotedIntent): Promise<DepositAddressPayment | null> {
  if (!intent.depositAddress) return null;
  const payment =
    intent.depositAddress.mode === "open"
      ? (await tx.getOpenPaymentByOrderId(intent.orderId))?.payment
      : (await tx.getDepositAddress(intent.originChainId, intent.depositAddress.address))?.payment;
  return payment ?? null;
}

/** A new request with the deposit address's payment in its solver state (the records' `depositor`, `depositTxHash`). */
function withDepositPayment(request: NewRequest, payment: DepositAddressPayment | null): NewRequest {
  return payment && request.solver ? { ...request, solver: { ...request.solver, depositPayment: payment } } : request;
}

/**
 * The deposit of a fast-filled request (../fill/fastFill.ts, already `pending` or later): credited
 * without a status change, and in the same transaction the app's hold is released (nothing was
 * fronted in the end) — or, when the hold was already settled (no deposit by the quote's expiry, see
 * ../payout/fastFillHold.ts) and the deposit arrives late after all, the app is credited back what it
 * was debited, once per deposit log. The solver is then repaid from the deposit as usual.
 */
async function creditFastFilled(
  tx: Repositories,
  deps: { chains: readonly ChainConfig[]; log: Logger },
  request: StoredRequest,
  intent: QuotedIntent,
  deposit: ObservedDeposit,
): Promise<DepositOutcome> {
  const fastFill = request.solver!.fastFill!;
  const patch = depositPatch(intent, deposit, deps.chains);
  if (fastFill.hold === "held") {
    await tx.appBalances.release(fastFill.holdId);
    await tx.patchRequest(request.id, { ...patch, solver: { ...patch.solver, fastFill: { ...fastFill, hold: "released" } } });
  } else {
    if (fastFill.hold === "settled") {
      await tx.appBalances.credit({
        apiKeyId: fastFill.apiKeyId,
        amountUsd: fastFill.amountUsd,
        source: { chainId: deposit.chainId, txHash: deposit.txHash, logIndex: deposit.logIndex },
        currency: deposit.token,
        amount: deposit.amount,
      });
    }
    await tx.patchRequest(request.id, { ...patch, details: null });
  }
  deps.log.info({ requestId: request.id, chainId: deposit.chainId, txHash: deposit.txHash, hold: fastFill.hold }, "fast-filled request's deposit indexed: hold ended");
  return { orderId: deposit.orderId, outcome: "credited", requestId: request.id };
}

/**
 * What `orderId` names (a funding order, else its quote and request: one statement, or `read`, the
 * range's read of it). A stored quote that
 * does not decode matches nothing (logged); any other row that does not decode is thrown on.
 */
async function orderOf(tx: Pick<Repositories, "getDepositOrder">, deps: { log: Logger }, orderId: Bytes32, read?: DepositOrderRead): Promise<DepositOrder> {
  try {
    if (read && "invalid" in read) throw read.invalid;
    return read ? read.order : await tx.getDepositOrder(orderId);
  } catch (error) {
    if (!(error instanceof StoredValueInvalidError) || !error.where.startsWith("quotes")) throw error;
    deps.log.error({ orderId, code: error.code, field: error.field }, "stored quote does not decode: deposit not matched");
    return { funding: null, quote: null, request: null };
  }
}

async function recordStray(tx: Repositories, deps: { log: Logger }, deposit: ObservedDeposit, reason: StrayDepositReason, requestId: Bytes32 | null): Promise<void> {
  const from = await tx.getStrayTrackingStart(deposit.chainId, deposit.depository);
  if (from === null || Number(deposit.blockNumber) < from) {
    deps.log.warn({ chainId: deposit.chainId, txHash: deposit.txHash, logIndex: deposit.logIndex, reason, trackedFrom: from }, "stray deposit before stray tracking started: not refunded");
    return;
  }
  const recorded = await tx.recordStrayDeposit({
    chainId: deposit.chainId,
    txHash: deposit.txHash,
    logIndex: deposit.logIndex,
    depository: deposit.depository,
    block: Number(deposit.blockNumber),
    orderId: deposit.orderId,
    depositor: deposit.depositor,
    token: deposit.token,
    amount: deposit.amount,
    reason,
    requestId,
    // A reclaimable stray is its depositor's to reclaim: a refund by `execute` would leave that right intact.
    ...(deposit.reclaimAt !== undefined && { ignoredReason: "RECLAIMABLE" }),
  });
  if (recorded && deposit.reclaimAt !== undefined) {
    deps.log.warn({ chainId: deposit.chainId, txHash: deposit.txHash, logIndex: deposit.logIndex, reason, reclaimAt: deposit.reclaimAt.toString() }, "reclaimable stray deposit recorded: not refunded, its depositor reclaims it from reclaimAt");
  } else if (recorded) deps.log.info({ chainId: deposit.chainId, txHash: deposit.txHash, logIndex: deposit.logIndex, reason }, "stray deposit recorded for refund");
}

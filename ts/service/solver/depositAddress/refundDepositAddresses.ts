/**
 * Mis-routed payments into strict deposit addresses, refunded to the address's `refundTo` (issue 23
 * item 4). Three steps, each exactly once across replicas and restarts:
 *
 * 1. **Plan** (`planDepositAddressRefunds`, called by ./forwardDepositAddresses.ts for a `watching` row
 *    whose bound payment cannot be forwarded: not fully paid at a final block past the quote's expiry,
 *    or paid only after it): what the address holds of each watched currency at that final block
 *    (./misroutePlan.ts), stored with the row's one compare-and-set `watching` → `refunding`. The same
 *    compare-and-set guards forwarding, so an address is forwarded or refunded, never both.
 * 2. **Send** each `planned` refund: the allocator signs a Refund instruction (id per address and
 *    currency, ./misroutePlan.ts) and `deployAndForward` goes through the solver's nonce manager
 *    (purpose `deposit-address-refund`), whose store transaction moves the entry `planned` → `sent`:
 *    a second replica or a restart finds it sent and sends nothing. Onchain the factory's replay guard on
 *    (forwarder, id) refuses a second execution, and the forwarder pays only `refundTo`.
 * 3. **Confirm**: a `sent` refund whose instruction is executed at a final block (`instructionUsed`) is
 *    `confirmed` with the transaction of its `Forwarded` event. Once every refund is confirmed or
 *    ignored, one store transaction moves the row to `refunded` and writes the request: created from
 *    its quote, `waiting → failure` with the failReason and the payment, then `refund` with the refund
 *    transactions — or, when every refund was below the threshold, left `failure` with
 *    `refundFailReason` AMOUNT_TOO_LOW_TO_REFUND.
 *
 * A forwarded address (`forwarding`) may carry refunds too: what it held besides the forwarded payment
 * (planned in the forwarding's compare-and-set, ./forwardDepositAddresses.ts); so may a forwarded or
 * refunded one paid again after its decision (./laterPayments.ts). They are sent and confirmed the
 * same way, and the row and its request are left as the decision made them. A refund whose
 * transaction is mined and reverts is recorded `reverted` and alerted (./revertedRefund.ts).
 *
 * The whole amount held is refunded: the factory's refund cannot keep a part for the submitter's gas, so
 * the operator pays each refund's gas (bounded: REFUND_MAX_GAS, and nothing below the currency's
 * `strayRefundMinimum` is refunded).
 */
import { encodeFunctionData, type Hex } from "viem";
import { depositAddressFactoryAbi } from "../../../abi/DepositAddressFactory.ts";
import { depositAddressArgs, forwardInstructionArgs, signForwardInstruction, strictDepositAddress, type DepositAddressParams, type ForwardInstruction } from "../../../core/depositAddress.ts";
import type { ChainClient } from "../../chains/chainClients.ts";
import { readChainFinality } from "../../chains/chainFinality.ts";
import type { DepositAddressRefund } from "../../model/depositAddressRefund.ts";
import { ZERO_BYTES32, type Address, type Bytes32 } from "../../model/values.ts";
import type { Repositories } from "../../store/createStore.ts";
import type { StoredDepositAddress } from "../../store/depositAddresses.ts";
import { newRequestFor } from "../indexer/depositRequest.ts";
import { scanEvents } from "../indexer/logScan.ts";
import type { SolverContext } from "../solverContext.ts";
import { planMisrouteRefunds, watchedCurrencies, type Held } from "./misroutePlan.ts";
import { balanceAt, paymentSeen } from "./paymentSeen.ts";
import { openAddressParams } from "./openPayments.ts";
import { recordRevertedRefund } from "./revertedRefund.ts";

/** The most one refund may use: a cold token's transfer, or a native refund's 50,000-gas send and its force-send, with room. */
export const REFUND_MAX_GAS = 250_000n;

/** How long a signed refund instruction stays valid (the nonce manager may re-broadcast it for a while). */
const REFUND_LIFETIME_SECONDS = 7n * 24n * 3600n;

/** Addresses read per chain and pass. */
const BATCH = 50;

export const FORWARDED_EVENT = depositAddressFactoryAbi.find((item) => item.type === "event" && item.name === "Forwarded")!;

export type RefundOutcome = { address: Address; outcome: "refunding" | "unpaid" | "already-decided" | "sent" | "refunded"; hash?: Bytes32 };

/** Step 1: plan the refunds of `row` at final block `final` (past the expiry). */
export async function planDepositAddressRefunds(
  ctx: SolverContext,
  client: ChainClient,
  row: StoredDepositAddress,
  at: { final: bigint; boundLate: boolean },
): Promise<{ address: Address; outcome: "refunding" | "unpaid" | "already-decided" }> {
  const held = await heldAt(client, row.address, at.final);
  const plan = planMisrouteRefunds({
    orderId: row.orderId,
    currency: row.currency,
    boundLate: at.boundLate,
    held,
    chain: client.config,
    strayRefundMinimumUsd: ctx.settings.strayRefundMinimumUsd,
    finalBlock: Number(at.final),
  });
  // Nothing there yet: an expired address keeps being watched, so a late payment is still refunded.
  if (!plan) return { address: row.address, outcome: "unpaid" };
  if (!(await ctx.store.markDepositAddressRefunding({ chainId: row.chainId, address: row.address }, plan.refunds))) return { address: row.address, outcome: "already-decided" };
  ctx.log.info(
    { chainId: row.chainId, depositAddress: row.address, requestId: row.requestId, reason: plan.reason, refunds: plan.refunds.map((r) => ({ token: r.token, amount: r.amount.toString(), state: r.state })) },
    "deposit address payment cannot be forwarded: refunding to refundTo",
  );
  return { address: row.address, outcome: "refunding" };
}

/** What `address` holds of each watched currency at `final`, with the payment that brought it (`minus`: an amount being forwarded, not counted). */
export async function heldAt(client: ChainClient, address: Address, final: bigint, minus?: { token: Address; amount: bigint }): Promise<Held[]> {
  const held: Held[] = [];
  for (const token of watchedCurrencies(client.config)) {
    const balance = await balanceAt(client, address, token, final);
    const amount = token === minus?.token ? balance - minus.amount : balance;
    if (amount > 0n) held.push({ token, amount, payment: await paymentSeen(client, { address, token, threshold: balance, final }) });
  }
  return held;
}

/** Steps 2 and 3 for every `refunding` address of the chain, and the excess refunds of forwarded ones. */
export async function refundDepositAddresses(ctx: SolverContext, client: ChainClient): Promise<RefundOutcome[]> {
  if (!client.config.contracts.depositAddressFactory) return [];
  const rows = await ctx.store.listDepositAddressRefundWork(client.config.id, BATCH);
  if (rows.length === 0) return [];
  const { final } = await readChainFinality(client);
  const outcomes: RefundOutcome[] = [];
  for (const row of rows) {
    for (const refund of row.refunds ?? []) {
      if (refund.state === "planned") outcomes.push(await sendRefund(ctx, row, refund));
    }
    outcomes.push(...(await confirmRefunds(ctx, client, row, final)));
  }
  return outcomes;
}

async function sendRefund(ctx: SolverContext, row: StoredDepositAddress, refund: DepositAddressRefund): Promise<RefundOutcome> {
  const key = { chainId: row.chainId, address: row.address };
  const instruction: ForwardInstruction = {
    action: "refund",
    // Informative in a refund (the Forwarded event's): an open address has no order of its own.
    orderId: row.mode === "open" ? ZERO_BYTES32 : row.orderId,
    token: refund.token,
    amount: refund.amount,
    id: refund.instructionId,
    deadline: BigInt(Math.floor(ctx.now().getTime() / 1000)) + REFUND_LIFETIME_SECONDS,
  };
  const signature = await signForwardInstruction({ account: ctx.allocator, chainId: row.chainId, factory: row.factory, forwarder: row.address, instruction });
  const data: Hex = encodeFunctionData({ abi: depositAddressFactoryAbi, functionName: "deployAndForward", args: [depositAddressArgs(addressParams(row)), forwardInstructionArgs(instruction), signature] });
  const sent = await ctx.transactions.send({
    chainId: row.chainId,
    purpose: "deposit-address-refund",
    subject: `${row.chainId}:${row.address}:${refund.token}`,
    tx: { to: row.factory, data, maxGas: REFUND_MAX_GAS },
    record: async (tx, repos) => {
      if (!(await repos.advanceDepositAddressRefund(key, refund.instructionId, "planned", { state: "sent", txHash: tx.hash, txNonce: tx.txNonce }))) {
        throw new DepositAddressRefundAlreadySentError(row.chainId, row.address, refund.instructionId);
      }
    },
    ...(ctx.signal && { signal: ctx.signal }),
    logFields: { requestId: row.requestId, depositAddress: row.address, token: refund.token },
  });
  ctx.log.info({ chainId: row.chainId, depositAddress: row.address, requestId: row.requestId, token: refund.token, amount: refund.amount.toString(), reason: refund.reason, hash: sent.hash }, "deposit address refund sent");
  return { address: row.address, outcome: "sent", hash: sent.hash };
}

async function confirmRefunds(ctx: SolverContext, client: ChainClient, row: StoredDepositAddress, final: bigint): Promise<RefundOutcome[]> {
  const key = { chainId: row.chainId, address: row.address };
  let refunds = row.refunds ?? [];
  for (const refund of refunds.filter((r) => r.state === "sent")) {
    const used = await client.publicClient.readContract({ address: row.factory, abi: depositAddressFactoryAbi, functionName: "instructionUsed", args: [row.address, refund.instructionId], blockNumber: final });
    if (!used) {
      // Mined and reverted: recorded, alerted, left for an operator (./revertedRefund.ts).
      if (await recordRevertedRefund(ctx, client, row, refund, final)) refunds = refunds.map((r) => (r === refund ? { ...r, state: "reverted" } : r));
      continue;
    }
    const forwarded = await scanEvents(client, { address: row.factory, event: FORWARDED_EVENT, args: { forwarder: row.address, id: refund.instructionId } }, BigInt(refund.plannedAtBlock), final);
    const hash = forwarded[0]?.transactionHash ?? refund.txHash!;
    await ctx.store.transaction((tx) => tx.advanceDepositAddressRefund(key, refund.instructionId, "sent", { state: "confirmed", txHash: hash }));
    refunds = refunds.map((r) => (r === refund ? { ...r, state: "confirmed", txHash: hash } : r));
  }
  if (!refunds.every((r) => r.state === "confirmed" || r.state === "ignored")) return [];
  // Paid on a chain other than the quote's (./otherChainPayments.ts): it may decide a strict quote that expired unpaid.
  if (row.state === "elsewhere" && row.mode === "strict") {
    const origin = await originRowOf(ctx, row);
    if (origin) await decideElsewhere(ctx, origin);
  }
  // A forwarded address's excess, or a payment after the decision (./laterPayments.ts): refunded; the request keeps its outcome.
  if (row.state !== "refunding") return [{ address: row.address, outcome: "refunded" }];
  const done = await ctx.store.transaction(async (tx) => {
    if (!(await tx.markDepositAddressRefunded(key))) return false;
    await recordRefundedRequest(ctx, tx, row, refunds);
    return true;
  });
  if (!done) return [];
  ctx.log.info({ chainId: row.chainId, depositAddress: row.address, requestId: row.requestId }, "deposit address refunded");
  return [{ address: row.address, outcome: "refunded" }];
}

/** The factory's parameters of the address a row stands for (strict: bound to its order; open: its route). */
function addressParams(row: StoredDepositAddress): DepositAddressParams {
  if (row.mode === "open") return openAddressParams({ refundTo: row.refundTo, route: row.route! });
  return strictDepositAddress({ refundTo: row.refundTo, orderId: row.orderId, currency: row.currency, amount: row.amount });
}

/** The quote's own row of an `elsewhere` copy (on the quote's origin chain). */
async function originRowOf(ctx: SolverContext, copy: StoredDepositAddress): Promise<StoredDepositAddress | undefined> {
  const quote = await ctx.store.getQuoteByOrderId(copy.orderId);
  return quote ? ctx.store.getDepositAddress(quote.intent.originChainId, copy.address) : undefined;
}

/**
 * A strict quote whose payment came only on another chain (./otherChainPayments.ts): once its origin row is
 * still `watching` at a final origin block past the quote's expiry and a refund on another chain is
 * confirmed, the quote ends there — one store transaction closes the origin row (`watching` → `refunded`,
 * the compare-and-set every decision of the address takes) and writes the request `failure` → `refund`
 * with DEPOSIT_CHAIN_MISMATCH. Dust recorded `ignored` never decides a quote. True when it decided.
 */
export async function decideElsewhere(ctx: SolverContext, origin: StoredDepositAddress, originFinalTimestamp?: bigint): Promise<boolean> {
  if (origin.state !== "watching") return false;
  const copies: StoredDepositAddress[] = [];
  for (const chain of ctx.chains) {
    if (chain.id === origin.chainId || chain.contracts.depositAddressFactory !== origin.factory) continue;
    const copy = await ctx.store.getDepositAddress(chain.id, origin.address);
    if (copy?.state === "elsewhere") copies.push(copy);
  }
  const refunds = copies.flatMap((c) => c.refunds ?? []).filter((r) => r.state === "confirmed" || r.state === "ignored");
  if (!refunds.some((r) => r.state === "confirmed")) return false;
  const timestamp = originFinalTimestamp ?? (await finalTimestamp(ctx.clients.get(origin.chainId)));
  if (Number(timestamp) <= Date.parse(origin.expiresAt) / 1000) return false;
  const decided = await ctx.store.transaction(async (tx) => {
    if (!(await tx.markDepositAddressRefundedElsewhere({ chainId: origin.chainId, address: origin.address }))) return false;
    await recordRefundedRequest(ctx, tx, origin, refunds);
    return true;
  });
  if (decided) ctx.log.info({ chainId: origin.chainId, depositAddress: origin.address, requestId: origin.requestId }, "deposit address paid only on another chain: its quote ends in that refund");
  return decided;
}

async function finalTimestamp(client: ChainClient): Promise<bigint> {
  const { final } = await readChainFinality(client);
  return (await client.publicClient.getBlock({ blockNumber: final })).timestamp;
}

/** The request's record of the refund (in the store transaction that marks the row `refunded`). */
async function recordRefundedRequest(ctx: SolverContext, tx: Repositories, row: StoredDepositAddress, refunds: readonly DepositAddressRefund[]): Promise<void> {
  const quote = await tx.getQuoteByOrderId(row.orderId);
  if (!quote) {
    ctx.log.warn({ depositAddress: row.address, orderId: row.orderId }, "deposit address refunded without a stored quote: no request record");
    return;
  }
  const existing = await tx.getRequest(quote.intent.requestId);
  if (existing && existing.status !== "waiting") {
    // Paid through the Depository directly under the same order: that request is its own; only the address's funds went back.
    ctx.log.warn({ requestId: existing.id, status: existing.status, depositAddress: row.address }, "deposit address refunded; its request is already past waiting");
    return;
  }
  const bound = refunds.find((r) => r.token === row.currency);
  const reason = bound?.reason ?? refunds[0]!.reason;
  const payment = (bound ?? refunds.find((r) => r.state === "confirmed") ?? refunds[0]!).payment;
  const inTxHashes = refunds.flatMap((r) => (r.payment.txHash ? [r.payment.txHash] : []));
  if (!existing) {
    const created = newRequestFor(quote.intent, quote.apiKeyId, inTxHashes[0] ?? ZERO_BYTES32, payment.blockNumber, ctx.chains);
    await tx.createRequest({ ...created, inTxHashes, solver: { intent: quote.intent, depositPayment: payment } });
  }
  const confirmed = refunds.filter((r) => r.state === "confirmed");
  await tx.transitionRequest(quote.intent.requestId, "failure", {
    failReason: reason,
    inTxHashes,
    solver: { depositPayment: payment },
    ...(confirmed.length === 0 && { refundFailReason: "AMOUNT_TOO_LOW_TO_REFUND" }),
  });
  if (confirmed.length > 0) await tx.transitionRequest(quote.intent.requestId, "refund", { txHashes: confirmed.map((r) => r.txHash!) });
}

/** Another replica (or this one before a restart) sent this refund first: nothing was sent. */
export class DepositAddressRefundAlreadySentError extends Error {
  readonly code = "DEPOSIT_ADDRESS_REFUND_ALREADY_SENT";
  constructor(chainId: number, address: Address, instructionId: Bytes32) {
    super(`the refund ${instructionId} of deposit address ${address} on chain ${chainId} was already sent`);
  }
}

/**
 * Payments into an open deposit address that cannot be re-quoted (./forwardOpenDepositAddresses.ts: a
 * refusal that is not transient), refunded whole to the address's `refundTo`, as a strict address's
 * mis-routed payment is (./refundDepositAddresses.ts), each step exactly once:
 *
 * 1. **Plan** (`planOpenPaymentRefund`): the refund entry of ./misroutePlan.ts for the payment's currency
 *    and amount (below the currency's `strayRefundMinimum`: `ignored`, left at the address), reason
 *    `NO_QUOTES`, stored with the payment's one compare-and-set `detected` → `refunding` — the same
 *    compare-and-set forwarding needs, so a payment is forwarded or refunded, never both. The payment's
 *    `reason` is the quote's error code (why it could not be quoted).
 * 2. **Send**: the allocator signs a Refund instruction (id per payment), `deployAndForward` goes through
 *    the nonce manager (purpose `deposit-address-refund`) whose store transaction moves the refund
 *    `planned` → `sent`.
 * 3. **Confirm**: executed at a final block (`instructionUsed`), the refund is `confirmed` with the
 *    transaction of its `Forwarded` event and the payment `refunded`.
 *
 * Each such payment has its own request (./openPaymentRequest.ts: created with the plan, `refund` with the
 * refund transaction once confirmed, NO_QUOTES), so the payer follows it like any other; it also shows
 * on the address's payments. The payer gets the whole amount back at `refundTo` (the operator bears the
 * refund's gas, as for strict mis-routes).
 */
import { encodeAbiParameters, encodeFunctionData, type Hex } from "viem";
import { depositAddressFactoryAbi } from "../../../abi/DepositAddressFactory.ts";
import { depositAddressArgs, forwardInstructionArgs, signForwardInstruction, type ForwardInstruction } from "../../../core/depositAddress.ts";
import { keccak256Lowercase } from "../../../core/lowercaseHex.ts";
import type { ChainClient } from "../../chains/chainClients.ts";
import { readChainFinality } from "../../chains/chainFinality.ts";
import type { DepositAddressRefund } from "../../model/depositAddressRefund.ts";
import { ZERO_BYTES32, type Address, type Bytes32 } from "../../model/values.ts";
import type { StoredOpenDepositAddress, StoredOpenPayment } from "../../store/openDepositAddresses.ts";
import { scanEvents } from "../indexer/logScan.ts";
import type { SolverContext } from "../solverContext.ts";
import { planMisrouteRefunds } from "./misroutePlan.ts";
import { createOpenPaymentRequest, openPaymentRequestId, recordOpenPaymentRefunded } from "./openPaymentRequest.ts";
import { openAddressParams } from "./openPayments.ts";
import { REFUND_MAX_GAS } from "./refundDepositAddresses.ts";

/** How long a signed refund instruction stays valid (the nonce manager may re-broadcast it for a while). */
const REFUND_LIFETIME_SECONDS = 7n * 24n * 3600n;

/** Payments handled per chain and pass. */
const BATCH = 50;

const FORWARDED_EVENT = depositAddressFactoryAbi.find((item) => item.type === "event" && item.name === "Forwarded")!;

/** The seed of a payment's refund instruction id (./misroutePlan.ts derives the id from it and the token): one refund per payment. */
export function openPaymentSeed(paymentKey: string): Bytes32 {
  return keccak256Lowercase(encodeAbiParameters([{ type: "string" }, { type: "string" }], ["ferry/deposit-address/open/payment", paymentKey]));
}

/** Step 1: the payment's refund, planned once. */
export async function planOpenPaymentRefund(ctx: SolverContext, client: ChainClient, row: StoredOpenDepositAddress, payment: StoredOpenPayment, quoteErrorCode: string): Promise<{ address: Address; paymentKey: string; outcome: "refunding" | "already-decided" }> {
  const { final } = await readChainFinality(client);
  const plan = planMisrouteRefunds({
    orderId: openPaymentSeed(payment.paymentKey),
    currency: payment.payment.token,
    boundLate: false,
    held: [{ token: payment.payment.token, amount: payment.payment.amount, payment: payment.payment }],
    chain: client.config,
    strayRefundMinimumUsd: ctx.settings.strayRefundMinimumUsd,
    finalBlock: Number(final),
  })!;
  const refunds = plan.refunds.map((r): DepositAddressRefund => ({ ...r, reason: "NO_QUOTES" }));
  const key = { chainId: row.chainId, address: row.address, paymentKey: payment.paymentKey };
  const base = { address: row.address, paymentKey: payment.paymentKey };
  // The payment's own request (./openPaymentRequest.ts), written with the plan: the payer can follow the refund.
  const planned = await ctx.store.transaction(async (tx) => {
    if (!(await tx.markOpenPaymentRefunding(key, { reason: quoteErrorCode, refunds, requestId: openPaymentRequestId(key) }))) return false;
    await createOpenPaymentRequest(ctx, tx, row, { ...key, payment: payment.payment }, { refunds, quoteErrorCode });
    return true;
  });
  if (!planned) return { ...base, outcome: "already-decided" };
  ctx.log.info(
    { chainId: row.chainId, depositAddress: row.address, paymentKey: payment.paymentKey, quoteError: quoteErrorCode, amount: payment.payment.amount.toString(), refund: refunds[0]!.state },
    "open deposit address payment cannot be re-quoted: refunding to refundTo",
  );
  return { ...base, outcome: "refunding" };
}

export type OpenRefundOutcome = { address: Address; paymentKey: string; outcome: "sent" | "refunded"; hash?: Bytes32 };

/** Steps 2 and 3 for every `refunding` payment of the chain. */
export async function refundOpenPayments(ctx: SolverContext, client: ChainClient): Promise<OpenRefundOutcome[]> {
  if (!client.config.contracts.depositAddressFactory) return [];
  const work = (await ctx.store.listOpenPaymentWork(client.config.id, BATCH)).filter((p) => p.state === "refunding");
  if (work.length === 0) return [];
  const { final } = await readChainFinality(client);
  const outcomes: OpenRefundOutcome[] = [];
  for (const payment of work) {
    const row = await ctx.store.getOpenDepositAddress(payment.chainId, payment.address);
    const refund = payment.refunds?.[0];
    if (!row || !refund) continue;
    if (refund.state === "planned") outcomes.push(await sendRefund(ctx, row, payment, refund));
    else if (refund.state === "sent") {
      const confirmed = await confirmRefund(ctx, client, row, payment, refund, final);
      if (confirmed) outcomes.push(confirmed);
    }
  }
  return outcomes;
}

async function sendRefund(ctx: SolverContext, row: StoredOpenDepositAddress, payment: StoredOpenPayment, refund: DepositAddressRefund): Promise<OpenRefundOutcome> {
  const key = { chainId: row.chainId, address: row.address, paymentKey: payment.paymentKey };
  const instruction: ForwardInstruction = {
    action: "refund",
    orderId: ZERO_BYTES32,
    token: refund.token,
    amount: refund.amount,
    id: refund.instructionId,
    deadline: BigInt(Math.floor(ctx.now().getTime() / 1000)) + REFUND_LIFETIME_SECONDS,
  };
  const signature = await signForwardInstruction({ account: ctx.allocator, chainId: row.chainId, factory: row.factory, forwarder: row.address, instruction });
  const data: Hex = encodeFunctionData({ abi: depositAddressFactoryAbi, functionName: "deployAndForward", args: [depositAddressArgs(openAddressParams(row)), forwardInstructionArgs(instruction), signature] });
  const sent = await ctx.transactions.send({
    chainId: row.chainId,
    purpose: "deposit-address-refund",
    subject: `${row.chainId}:${row.address}:${payment.paymentKey}`,
    tx: { to: row.factory, data, maxGas: REFUND_MAX_GAS },
    record: async (tx, repos) => {
      if (!(await repos.advanceOpenPaymentRefund(key, "planned", { state: "sent", txHash: tx.hash }))) throw new OpenPaymentRefundAlreadySentError(row.address, payment.paymentKey);
    },
    ...(ctx.signal && { signal: ctx.signal }),
    logFields: { depositAddress: row.address, token: refund.token },
  });
  ctx.log.info({ chainId: row.chainId, depositAddress: row.address, paymentKey: payment.paymentKey, amount: refund.amount.toString(), hash: sent.hash }, "open deposit address refund sent");
  return { address: row.address, paymentKey: payment.paymentKey, outcome: "sent", hash: sent.hash };
}

async function confirmRefund(
  ctx: SolverContext,
  client: ChainClient,
  row: StoredOpenDepositAddress,
  payment: StoredOpenPayment,
  refund: DepositAddressRefund,
  final: bigint,
): Promise<OpenRefundOutcome | undefined> {
  const used = await client.publicClient.readContract({ address: row.factory, abi: depositAddressFactoryAbi, functionName: "instructionUsed", args: [row.address, refund.instructionId], blockNumber: final });
  if (!used) return undefined;
  const forwarded = await scanEvents(client, { address: row.factory, event: FORWARDED_EVENT, args: { forwarder: row.address, id: refund.instructionId } }, BigInt(refund.plannedAtBlock), final);
  const hash = forwarded[0]?.transactionHash ?? refund.txHash!;
  const key = { chainId: row.chainId, address: row.address, paymentKey: payment.paymentKey };
  const confirmed = await ctx.store.transaction(async (tx) => {
    if (!(await tx.advanceOpenPaymentRefund(key, "sent", { state: "confirmed", txHash: hash }))) return false;
    await recordOpenPaymentRefunded(tx, payment, hash);
    return true;
  });
  if (!confirmed) return undefined;
  ctx.log.info({ chainId: row.chainId, depositAddress: row.address, paymentKey: payment.paymentKey, hash }, "open deposit address payment refunded");
  return { address: row.address, paymentKey: payment.paymentKey, outcome: "refunded", hash };
}

/** Another replica (or this one before a restart) sent this refund first: nothing was sent. */
export class OpenPaymentRefundAlreadySentError extends Error {
  readonly code = "DEPOSIT_ADDRESS_REFUND_ALREADY_SENT";
  constructor(address: Address, paymentKey: string) {
    super(`the refund of payment ${paymentKey} into open deposit address ${address} was already sent`);
  }
}

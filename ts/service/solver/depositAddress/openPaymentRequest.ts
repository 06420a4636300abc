/**
 * The request of a payment into an open deposit address that could not be re-quoted and is refunded
 * (./openPaymentRefunds.ts), so the payer can follow it like any other: listed by
 * `GET /requests/v2?depositAddress=`, shown by `GET /intents/status/v3` for its id, announced by webhooks
 * (the address's API key) and the websocket.
 *
 * - **Its id** is derived from the payment (`openPaymentRequestId`: chain, address, payment key), so a
 *   replica or a restart names the same request; its order id likewise (a separate tag): nothing is
 *   ever deposited under it, but a request row needs one of its own.
 * - **Its intent** (`openRefundIntent`, pure) says what happened and nothing more: the route's user,
 *   recipient and refund recipient, the currency and amount actually paid (EXACT_INPUT), no output, no
 *   fees, no app fees (no quote was made: nothing was charged or promised), expiry = the payment's block
 *   time, and the address (`depositAddress`, mode `open`, no forwarding gas).
 * - **Its life**: created `waiting` with the payment (payer and transaction: the records'
 *   `depositAddress.depositor` / `depositTxHash`) in the store transaction that plans the refund; then
 *   `failure` → `refund` with the refund transaction, in the store transaction that confirms it — both at
 *   once, so the solver's Depository refund never sees the `failure` (as for strict addresses). When the
 *   payment is below the refund threshold (nothing is sent) it is `failure` at once with
 *   `refundFailReason` AMOUNT_TOO_LOW_TO_REFUND. `failReason` NO_QUOTES (the spec's); the quote's own
 *   error code is in `details.quoteErrorCode`.
 */
import { encodeAbiParameters } from "viem";
import { keccak256Lowercase } from "../../../core/lowercaseHex.ts";
import type { DepositAddressRefund } from "../../model/depositAddressRefund.ts";
import type { QuotedIntent } from "../../model/quotedIntent.ts";
import { ZERO_BYTES32, type Bytes32 } from "../../model/values.ts";
import type { Repositories } from "../../store/createStore.ts";
import type { StoredOpenDepositAddress, StoredOpenPayment } from "../../store/openDepositAddresses.ts";
import { newRequestFor } from "../indexer/depositRequest.ts";
import type { SolverContext } from "../solverContext.ts";

type Payment = Pick<StoredOpenPayment, "chainId" | "address" | "paymentKey" | "payment">;

/** The request id (`tag` "request") or order id (`tag` "order") of a refunded payment into an open address. */
function paymentId(tag: "request" | "order", payment: Pick<Payment, "chainId" | "address" | "paymentKey">): Bytes32 {
  return keccak256Lowercase(
    encodeAbiParameters([{ type: "string" }, { type: "uint256" }, { type: "address" }, { type: "string" }], [`ferry/deposit-address/open/refunded-payment/${tag}`, BigInt(payment.chainId), payment.address, payment.paymentKey]),
  );
}

export function openPaymentRequestId(payment: Pick<Payment, "chainId" | "address" | "paymentKey">): Bytes32 {
  return paymentId("request", payment);
}

/** What the request of a refunded open payment records: the payment and the route, nothing quoted. Pure. */
export function openRefundIntent(row: Pick<StoredOpenDepositAddress, "refundTo" | "route" | "factory">, payment: Payment): QuotedIntent {
  const { token, amount, blockTimestamp } = payment.payment;
  return {
    requestId: paymentId("request", payment),
    orderId: paymentId("order", payment),
    tradeType: "EXACT_INPUT",
    user: row.route.user,
    recipient: row.route.recipient,
    refundTo: row.refundTo,
    originChainId: payment.chainId,
    originCurrency: token,
    originAmount: amount,
    destinationChainId: row.route.destinationChainId,
    destinationCurrency: row.route.destinationCurrency,
    destinationAmount: 0n,
    expiresAt: blockTimestamp,
    fillDeadline: blockTimestamp,
    fees: { relayerGas: 0n, relayerService: 0n, app: 0n },
    appFees: [],
    slippageToleranceBps: "0",
    referrer: row.route.referrer,
    depositAddress: { address: payment.address, mode: "open", factory: row.factory, forwardGas: 0n },
  };
}

/** In the refund plan's store transaction: the payment's request, `waiting` (or `failure` at once when nothing is sent). */
export async function createOpenPaymentRequest(
  ctx: Pick<SolverContext, "chains">,
  tx: Repositories,
  row: StoredOpenDepositAddress,
  payment: Payment,
  plan: { refunds: readonly DepositAddressRefund[]; quoteErrorCode: string },
): Promise<Bytes32> {
  const intent = openRefundIntent(row, payment);
  const created = newRequestFor(intent, row.apiKeyId, payment.payment.txHash ?? ZERO_BYTES32, payment.payment.blockNumber, ctx.chains);
  await tx.createRequest({ ...created, inTxHashes: payment.payment.txHash ? [payment.payment.txHash] : [], solver: { intent, depositPayment: payment.payment } });
  if (plan.refunds.every((r) => r.state === "ignored")) {
    await tx.transitionRequest(intent.requestId, "failure", { failReason: "NO_QUOTES", refundFailReason: "AMOUNT_TOO_LOW_TO_REFUND", details: { quoteErrorCode: plan.quoteErrorCode } });
  }
  return intent.requestId;
}

/** In the refund's confirming store transaction: `failure` → `refund` with the refund transaction (a payment refunded before requests were written has none: nothing to do). */
export async function recordOpenPaymentRefunded(tx: Repositories, payment: Payment & Pick<StoredOpenPayment, "reason">, refundTxHash: Bytes32): Promise<void> {
  const requestId = openPaymentRequestId(payment);
  const request = await tx.getRequest(requestId);
  if (request?.status !== "waiting") return;
  await tx.transitionRequest(requestId, "failure", { failReason: "NO_QUOTES", details: { quoteErrorCode: payment.reason ?? "UNKNOWN" } });
  await tx.transitionRequest(requestId, "refund", { txHashes: [refundTxHash] });
}

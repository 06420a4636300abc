/**
 * A request's child records (GET /requests/v2?includeChildRequests=true): the onchain movements that
 * belong to the request without being its deposit or its fill. Pure. One shape for all of them:
 * - `duplicateDeposit`: a second deposit under the request's orderId after its deposit was credited
 *   (stray reason DOUBLE_SPEND);
 * - `mismatchedDeposit`: a deposit under the request's orderId that did not match its quote (another
 *   chain, another currency, less than quoted: DEPOSIT_CHAIN_MISMATCH, INCORRECT_DEPOSIT_CURRENCY,
 *   DEPOSITED_AMOUNT_TOO_LOW_TO_FILL) — the request keeps waiting for the right one;
 * - `refund`: the request's own refund payout (its deposit returned after a failure; `reason` is the
 *   request's failReason).
 * A deposit child's `status` is its refund's (every stray deposit is returned to its depositor):
 * `pending`, `refunded` (`refundTxHash` set), `refundFailed` (the payout reverted: an operator acts) or
 * `ignored` (not refunded automatically: `refundFailReason` says why, e.g. AMOUNT_TOO_LOW_TO_REFUND);
 * a refund child's is that payout's own. Deposits come first, by block and log, then the refund.
 */
import { Type, type Static } from "typebox";
import type { Payout } from "./payout.ts";
import type { StoredRequest } from "./storedRequest.ts";
import { AddressString, Bytes32String, UintString, type Address, type Bytes32 } from "./values.ts";

export const ChildRecord = Type.Object(
  {
    kind: Type.Union([Type.Literal("duplicateDeposit"), Type.Literal("mismatchedDeposit"), Type.Literal("refund")]),
    reason: Type.String({ description: "A deposit: why it is not the request's (DOUBLE_SPEND or the mismatch); a refund: the request's failReason" }),
    status: Type.Union([Type.Literal("pending"), Type.Literal("refunded"), Type.Literal("refundFailed"), Type.Literal("ignored")]),
    chainId: Type.Integer(),
    txHash: Type.Union([Bytes32String, Type.Null()], { description: "The deposit's transaction; a refund's once sent (null before)" }),
    block: Type.Union([Type.Integer({ minimum: 0 }), Type.Null()]),
    from: AddressString,
    to: AddressString,
    currency: AddressString,
    amount: UintString,
    refundTxHash: Type.Union([Bytes32String, Type.Null()], { description: "A deposit's refund transaction, once sent; null on a refund child" }),
    refundFailReason: Type.String({ description: "N/A, or why the deposit was not refunded (ignored) or its refund reverted" }),
  },
  { additionalProperties: false, description: "A child record: a duplicate or mismatched deposit under the request's orderId, or the request's refund" },
);
export type ChildRecord = Static<typeof ChildRecord>;

/** What a child record is built from of a stray deposit (the store's StoredStrayDeposit has these). */
export type StrayFacts = {
  reason: string;
  state: "pending" | "refunded" | "ignored";
  ignoredReason: string | null;
  chainId: number;
  txHash: Bytes32;
  logIndex: number;
  block: number;
  depository: Address;
  depositor: Address;
  token: Address;
  amount: bigint;
  refund: Payout | null;
};

function strayStatus(stray: StrayFacts): ChildRecord["status"] {
  if (stray.state === "refunded") return "refunded";
  if (stray.state === "ignored") return "ignored";
  return stray.refund?.status === "reverted" ? "refundFailed" : "pending";
}

export function strayChildRecord(stray: StrayFacts): ChildRecord {
  return {
    kind: stray.reason === "DOUBLE_SPEND" ? "duplicateDeposit" : "mismatchedDeposit",
    reason: stray.reason,
    status: strayStatus(stray),
    chainId: stray.chainId,
    txHash: stray.txHash,
    block: stray.block,
    from: stray.depositor,
    to: stray.depository,
    currency: stray.token,
    amount: stray.amount.toString(),
    refundTxHash: stray.refund?.hash ?? null,
    refundFailReason: stray.ignoredReason ?? stray.refund?.failReason ?? "N/A",
  };
}

/** The request's refund payout, once planned; its first call is what goes back to `refundTo`. */
export function refundChildRecord(request: Pick<StoredRequest, "failReason">, refund: Payout): ChildRecord | undefined {
  const returned = refund.calls[0];
  if (!returned) return undefined;
  return {
    kind: "refund",
    reason: request.failReason ?? "UNKNOWN",
    status: refund.status === "confirmed" ? "refunded" : refund.status === "reverted" ? "refundFailed" : "pending",
    chainId: refund.chainId,
    txHash: refund.hash ?? null,
    block: refund.block ?? null,
    from: refund.depository,
    to: returned.to,
    currency: returned.token,
    amount: returned.amount.toString(),
    refundTxHash: null,
    refundFailReason: refund.status === "reverted" ? (refund.failReason ?? "UNKNOWN") : "N/A",
  };
}

/** A request's children: its stray deposits (by block, log), then its refund. */
export function childRecordsOf(request: Pick<StoredRequest, "failReason" | "solver">, strays: readonly StrayFacts[]): ChildRecord[] {
  const deposits = [...strays].sort((a, b) => a.block - b.block || a.logIndex - b.logIndex).map(strayChildRecord);
  const refund = request.solver?.refund && refundChildRecord(request, request.solver.refund);
  return refund ? [...deposits, refund] : deposits;
}

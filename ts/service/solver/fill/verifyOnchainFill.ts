/**
 * Whether the fill the receiver recorded for a request is the one the service signed and sent.
 *
 * Any allowed signer's attestation can fill a requestId first — a second signer, a leaked attester
 * key, or the service's own signed attestation (GET /requests/{id}/signature hands it out) submitted
 * by someone else — so "the request is filled" does not mean "the solver paid the recipient". The
 * receiver stores the v2 digest of the attestation that filled (`filledDigest`, which commits to every
 * signed term: orderId, recipient, currency, amount, …) and `Filled` names the recipient, the filler,
 * the currency and the amount (the orderId left the event in issue 14; the digest covers it). The
 * service's attestation is deterministic from the stored intent (../../model/attestations.ts), so its
 * digest is recomputed here and every field is compared: the fill is the solver's own only when all
 * match, filler = the solver's address included.
 *
 * Every path on which the solver concludes "filled" goes through here before anything is recorded
 * as a success (./fillOutcome.ts `recordFillSuccess`: our receipt, "already filled onchain" in
 * ./fillPending.ts, "reverted but filled" and restart recovery in ./confirmFill.ts), and the
 * repayment is planned only after it (../payout/repayAndRefund.ts). A foreign fill is an error-level alert,
 * `ferry_solver_foreign_fills_total`, and a documented failure state: `failure` with
 * ORDER_ALREADY_FILLED, `details` naming the foreign fill, parked (FOREIGN_FILL) — never repaid and
 * never refunded automatically, because the recipient may have been paid in full by someone else.
 */
import { attestedReceiverAbi } from "../../../abi/AttestedReceiver.ts";
import type { ChainClient } from "../../chains/chainClients.ts";
import { decodeLog } from "../../chains/decodeLog.ts";
import type { Receipt } from "../../chains/readReceipt.ts";
import type { ReadTransaction } from "../../chains/readTransaction.ts";
import { filledDigestOf } from "../chainReads.ts";
import { preparedFillOf, type AttestedTerms } from "../../model/attestations.ts";
import type { Details } from "../../model/solverState.ts";
import type { StoredRequest } from "../../model/storedRequest.ts";
import type { Address, Bytes32 } from "../../model/values.ts";
import type { SolverContext } from "../solverContext.ts";
import { ForeignFillError } from "../solverErrors.ts";

const FILLED_EVENT = attestedReceiverAbi.find((i) => i.type === "event" && i.name === "Filled")!;

/** What the service's own fill of a request looks like onchain. */
export type SignedFill = { digest: Bytes32; recipient: Address; filler: Address; currency: Address; amount: bigint };

/** The fill the receiver recorded: the `Filled` log of one transaction (null when it has none) and `filledDigest`. */
export type OnchainFill = {
  txHash: Bytes32;
  digest: Bytes32;
  event: { recipient: Address; filler: Address; currency: Address; amount: bigint } | null;
};

/** The fields compared, in this order (the first is the commitment itself, which covers the orderId). */
export type FillField = "digest" | "filler" | "recipient" | "currency" | "amount";

export type FillVerdict = { ours: true; digest: Bytes32 } | { ours: false; fill: OnchainFill; expected: SignedFill; mismatches: (FillField | "event")[] };

/**
 * The digest the service signs for `terms` on `receiver` (what `filledDigest` holds after its own fill):
 * the v2 fill digest, or the calls attestation digest for an intent with destination calls.
 */
export function signedFillDigest(terms: AttestedTerms, receiver: Address): Bytes32 {
  return preparedFillOf(terms, receiver).digest;
}

/** The service's own fill of `terms`: its digest, and the `Filled` fields it produces when the solver sends it. Pure. */
export function signedFillOf(terms: AttestedTerms, receiver: Address, solver: Address): SignedFill {
  return {
    digest: signedFillDigest(terms, receiver),
    recipient: terms.recipient,
    filler: solver,
    currency: terms.destinationCurrency,
    amount: terms.destinationAmount,
  };
}

/** The fields in which `fill` differs from `signed` (empty: it is the service's own fill). Pure. */
export function fillMismatches(signed: SignedFill, fill: OnchainFill): (FillField | "event")[] {
  const out: (FillField | "event")[] = [];
  if (fill.digest !== signed.digest) out.push("digest");
  if (!fill.event) return [...out, "event"];
  for (const field of ["filler", "recipient", "currency", "amount"] as const) {
    if (fill.event[field] !== signed[field]) out.push(field);
  }
  return out;
}

/**
 * Reads the fill of `requestId` recorded by `receipt`'s transaction on `dest`'s receiver. `sentDigest`:
 * the digest of the attestation `receipt`'s transaction carried, when the service itself sent it and it
 * succeeded — the receiver records the digest of the attestation it verified in that very call, so it is
 * not read back (`verifyOnchainFill`).
 */
export async function readOnchainFill(dest: ChainClient, requestId: Bytes32, receipt: Receipt, sentDigest?: Bytes32): Promise<OnchainFill> {
  const receiver = dest.config.contracts.attestedReceiver;
  const digest = sentDigest ?? (await filledDigestOf(dest, requestId));
  let event: OnchainFill["event"] = null;
  for (const log of receipt.logs) {
    const args = decodeLog([FILLED_EVENT], log);
    if (!args || args.emitter !== receiver || args.requestId !== requestId) continue;
    event = { recipient: args.recipient, filler: args.filler, currency: args.currency, amount: args.amount };
    break;
  }
  return { txHash: receipt.transactionHash, digest, event };
}

/**
 * Whether the fill in `receipt` is the solver's own fill of `request`. `sent`: the receipt's transaction
 * as the service stored and sent it on the fill's nonce (../../transactions/nonceManager.ts `follow`),
 * whose attestation's digest the request recorded with it (`solver.fill.digest`, in the same store
 * transaction): when that transaction succeeded, `filledDigest` holds that digest, and only the
 * `Filled` log's fields are compared (one read per intent less; issue 26). Any other receipt — found
 * onchain, someone else's, or read without its sender — has the receiver's `filledDigest` read.
 */
export async function verifyOnchainFill(ctx: SolverContext, request: StoredRequest, dest: ChainClient, receipt: Receipt, sent?: ReadTransaction): Promise<FillVerdict> {
  const intent = request.solver!.intent;
  const expected = signedFillOf(intent, dest.config.contracts.attestedReceiver, ctx.solver);
  const recorded = request.solver?.fill;
  const ownSend = sent !== undefined && sent.hash === receipt.transactionHash && receipt.status === "success" && recorded?.txNonce !== undefined && recorded.digest !== undefined;
  const fill = await readOnchainFill(dest, request.id, receipt, ownSend ? recorded.digest : undefined);
  const mismatches = fillMismatches(expected, fill);
  return mismatches.length === 0 ? { ours: true, digest: expected.digest } : { ours: false, fill, expected, mismatches };
}

/** The public `details` of a foreign fill: what filled the request, and what the service had signed. */
export function foreignFillDetails(verdict: Extract<FillVerdict, { ours: false }>): Details {
  const { fill, expected } = verdict;
  return {
    reason: "filled by a fill the service did not sign and send",
    foreignFillTx: fill.txHash,
    filler: fill.event?.filler ?? null,
    recipient: fill.event?.recipient ?? null,
    currency: fill.event?.currency ?? null,
    amount: fill.event ? fill.event.amount.toString() : null,
    digest: fill.digest,
    expectedDigest: expected.digest,
    mismatch: verdict.mismatches.join(","),
  };
}

/**
 * Records a foreign fill: the alert (error log, counter), then — for a request not yet recorded as a
 * success — `failure` with ORDER_ALREADY_FILLED and the details; a `success` (recorded by a version
 * that did not verify, or by hand) keeps its status and gets the details. Either way the request is
 * parked (FOREIGN_FILL): out of the work list, never repaid, never refunded, until an operator settles
 * it (docs/security.md, incident playbook).
 */
export async function recordForeignFill(
  ctx: SolverContext,
  request: StoredRequest,
  dest: ChainClient,
  verdict: Extract<FillVerdict, { ours: false }>,
  /** The service's own fill, when it was mined and reverted because the foreign one landed first: the record's failedTx fields. */
  reverted?: { hash: Bytes32; blockNumber: bigint },
): Promise<StoredRequest> {
  const details = foreignFillDetails(verdict);
  const failed = reverted && { data: { failedTxHash: reverted.hash, failedTxBlockNumber: Number(reverted.blockNumber) } };
  ctx.metrics.foreignFills.inc({ chain_id: String(dest.config.id) });
  ctx.log.error({ requestId: request.id, status: request.status, chainId: dest.config.id, ...details }, "FOREIGN FILL: the request was filled by a fill the service did not sign and send; not repaid, parked for an operator");
  const updated =
    request.status === "success" || request.status === "failure"
      ? await ctx.store.patchRequest(request.id, { details, ...failed })
      : await ctx.store.transitionRequest(request.id, "failure", { failReason: "ORDER_ALREADY_FILLED", details, ...failed });
  const error = new ForeignFillError(request.id, verdict.fill.txHash);
  await ctx.store.parkRequest(request.id, { code: error.code, message: error.message });
  return (await ctx.store.getRequest(request.id)) ?? updated;
}

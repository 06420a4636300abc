/**
 * What the solver decided about a request and why, in one line the explorer shows above the longer
 * explanation (ts/client explainFailure): from the public status record only. Pure.
 *
 * - waiting, no deposit hash: waiting for the deposit;
 * - waiting with a deposit hash (sent, e.g. through POST /transactions/index): waiting for it to be
 *   final — the indexer credits a deposit only once it is `confirmations` deep (or under the chain's
 *   finality tag);
 * - a chain incident on an open request: held while the chain is disabled or lagging;
 * - pending / submitted: filling / waiting for the fill's confirmation;
 * - success; refund: refused to fill, with the failReason, and refunded;
 * - failure: stopped — parked for an operator, or the refund could not be made (refundFailReason).
 */
import type { StatusRecord } from "../client/apiTypes.ts";

export type SolverDecision = { decision: "waiting for the deposit" | "waiting for confirmations" | "held: chain incident" | "filling" | "waiting for the fill's confirmation" | "filled" | "refused and refunded" | "parked for an operator" | "refund impossible" | "unknown"; reason: string };

const real = (reason: string | undefined) => (reason && reason !== "N/A" ? reason : undefined);

export function solverDecision(status: StatusRecord): SolverDecision {
  const incident = (status.details as { chainIncident?: { chainId?: number; incident?: string } } | null)?.chainIncident;
  const open = ["waiting", "depositing", "pending", "submitted"].includes(status.status);
  if (open && incident) return { decision: "held: chain incident", reason: `chain ${incident.chainId} has an incident (${incident.incident}); the solver waits until it is healthy again` };
  const failReason = real(status.failReason);
  switch (status.status) {
    case "waiting":
    case "depositing":
      return status.inTxHashes.length > 0
        ? { decision: "waiting for confirmations", reason: `the deposit ${status.inTxHashes[0]} was sent; the solver credits it once it is final on chain ${status.originChainId} (the chain's confirmations)` }
        : { decision: "waiting for the deposit", reason: `no deposit matching the quote is indexed on chain ${status.originChainId} yet` };
    case "pending":
      return { decision: "filling", reason: "the deposit is credited; the solver checks it and prepares the fill" };
    case "submitted":
      return { decision: "waiting for the fill's confirmation", reason: `the fill was sent on chain ${status.destinationChainId}` };
    case "success":
      return { decision: "filled", reason: "the recipient was paid" };
    case "refund":
      return { decision: "refused and refunded", reason: failReason ? `refused with ${failReason}; the deposit went back on chain ${status.originChainId}` : "the deposit went back" };
    case "failure": {
      const refundFail = real(status.refundFailReason);
      return refundFail
        ? { decision: "refund impossible", reason: `stopped with ${failReason ?? "UNKNOWN"}; no refund: ${refundFail}` }
        : { decision: "parked for an operator", reason: `stopped with ${failReason ?? "UNKNOWN"}; an operator must look (the parking note is theirs: ferry requests parked)` };
    }
    default:
      return { decision: "unknown", reason: `status ${status.status}` };
  }
}

/**
 * The status a request shows in public — the status route, the request record, webhooks and the
 * websocket — from its stored status. They are the same except while a refund is in progress.
 *
 * The solver stores `failure` as soon as a fill cannot happen and then refunds the deposit
 * (`failure → refund`). A poller that saw `failure` would stop there: the official client reports the
 * request as failed rather than refunded (relay-sdk throws "Transaction failed" on `failure` and
 * "Refunded" on `refund`). So while the refund is in progress the request keeps showing the status it
 * had before — `submitted` when a fill was sent (and reverted), else `pending` — with no failReason and
 * no details yet; it shows `refund` (with the failReason and details) once the refund is confirmed.
 * It shows `failure` only when no refund is coming: the refund cannot be made (`refundFailReason`),
 * its payout reverted, or the request is parked for an operator. The sequences a poller can see are
 * then the spec's: waiting → pending → submitted → success; waiting → pending [→ submitted] → refund;
 * … → failure only when the request stays failed.
 *
 * The store writes an outbox event exactly when this public status changes (../store/requests.ts),
 * so webhooks and the websocket carry the same sequence; `GET /requests/v2?status=` filters on it
 * (../store/listRequests.ts, the SQL form of `refundInProgress`).
 */
import type { RequestStatus } from "./requestStatus.ts";
import type { StoredRequest } from "./storedRequest.ts";

export type PublicStatusFacts = {
  status: RequestStatus;
  refundFailReason: string | null;
  /** Parked for an operator. */
  parked: boolean;
  /** The refund payout reverted (it stays for an operator). */
  refundReverted: boolean;
  /** No solver state: an execution relayed without a quote (../relay/README.md) — no deposit, so no refund is coming. */
  noQuote: boolean;
  /** A fill transaction was sent (the request was `submitted`): the solver's fill, or a destination hash. */
  fillSent: boolean;
};

/** A stored `failure` whose refund is still coming. */
export function refundInProgress(facts: PublicStatusFacts): boolean {
  return facts.status === "failure" && facts.refundFailReason === null && !facts.parked && !facts.refundReverted && !facts.noQuote;
}

export function publicStatusOf(facts: PublicStatusFacts): RequestStatus {
  if (!refundInProgress(facts)) return facts.status;
  return facts.fillSent ? "submitted" : "pending";
}

export function publicStatusFactsOf(request: Pick<StoredRequest, "status" | "refundFailReason" | "parked" | "solver" | "txHashes">): PublicStatusFacts {
  return {
    status: request.status,
    refundFailReason: request.refundFailReason,
    parked: request.parked !== null,
    refundReverted: request.solver?.refund?.status === "reverted",
    noQuote: request.solver === null,
    fillSent: request.solver?.fill !== undefined || request.txHashes.length > 0,
  };
}

/** The public status of a stored request. */
export function publicStatus(request: Pick<StoredRequest, "status" | "refundFailReason" | "parked" | "solver" | "txHashes">): RequestStatus {
  return publicStatusOf(publicStatusFactsOf(request));
}

/**
 * A request's lifecycle as the explorer shows it: the timeline's steps and the transactions, from
 * the public records only (the status record, the request record when the deposit is indexed, the
 * receipt when the request is filled and repaid). Pure: the page (./explorerPage.ts) renders it.
 *
 * Every step says its state in words (`done`, `current`, `failed`, `skipped`, `not reached`), so the
 * page never says anything by colour alone.
 */
import type { RequestRecord, StatusRecord } from "../client/apiTypes.ts";

export type StepState = "done" | "current" | "failed" | "skipped" | "not reached";

export type TimelineStep = { id: "quoted" | "deposit" | "fill" | "outcome"; label: string; state: StepState; note: string; at?: string };

export type TransactionRole = "deposit" | "fill" | "failed fill" | "refund" | "repayment";

export type ExplorerTransaction = { role: TransactionRole; chainId: number; hash: string; block?: number };

/** The parts of a receipt (GET /requests/{id}/receipt) the timeline reads: where the repayment is. */
export type ReceiptPlaces = { repayment?: { chainId: number; txHash: string; blockNumber: number } };

export type RequestFacts = { status: StatusRecord; request?: RequestRecord | undefined; receipt?: ReceiptPlaces | undefined };

const ORDER = ["waiting", "depositing", "pending", "submitted", "success"];

const lower = (hash: string) => hash.toLowerCase();
const realReason = (reason: string | undefined) => (reason && reason !== "N/A" ? reason : undefined);

/** The transactions of a request, deposit first, each once. */
export function requestTransactions({ status, request, receipt }: RequestFacts): ExplorerTransaction[] {
  const seen = new Set<string>();
  const out: ExplorerTransaction[] = [];
  const add = (role: TransactionRole, chainId: number, hash: string | undefined, block?: number) => {
    if (!hash || seen.has(lower(hash))) return;
    seen.add(lower(hash));
    out.push({ role, chainId, hash: lower(hash), ...(block !== undefined && { block }) });
  };
  const inTxs = request?.data.inTxs ?? [];
  const deposit = inTxs[0];
  add("deposit", deposit?.chainId ?? status.originChainId, deposit?.hash ?? status.inTxHashes[0], deposit?.block);
  const failedFill = request?.data.failedTxHash;
  if (failedFill) add("failed fill", status.destinationChainId, failedFill, request?.data.failedTxBlockNumber);
  // A refunded request was never filled: its later hashes (`txHashes`, after a failed fill) are the
  // refund payout's, on the origin chain; otherwise they are the fill's, on the destination.
  const later: TransactionRole = status.status === "refund" ? "refund" : "fill";
  const laterChain = later === "refund" ? status.originChainId : status.destinationChainId;
  for (const tx of inTxs.slice(1)) add("refund", tx.chainId, tx.hash, tx.block);
  for (const tx of request?.data.outTxs ?? []) add(later, tx.chainId, tx.hash, tx.block);
  for (const hash of status.txHashes) add(later, laterChain, hash);
  if (receipt?.repayment) add("repayment", receipt.repayment.chainId, receipt.repayment.txHash, receipt.repayment.blockNumber);
  return out;
}

/** The lifecycle in four steps: quoted, deposit, fill, outcome. */
export function requestTimeline(facts: RequestFacts): TimelineStep[] {
  const { status, request } = facts;
  const txs = requestTransactions(facts);
  const has = (role: TransactionRole) => txs.some((tx) => tx.role === role);
  const reached = ORDER.indexOf(status.status);
  const refunded = status.status === "refund";
  const failed = status.status === "failure";
  const failReason = realReason(status.failReason);
  // A deposit hash while `waiting` is a deposit sent but not final yet: not credited.
  const deposited = reached >= ORDER.indexOf("pending") || refunded || failed;
  const filled = status.status === "success" || has("fill");

  const quoted: TimelineStep = { id: "quoted", label: "Quoted", state: "done", note: "The quote was given; its deposit names this request.", ...(request && { at: request.createdAt }) };

  let deposit: TimelineStep;
  // A reclaimable quote: until the service releases it, its depositor may take the deposit back from reclaimAt on.
  const reclaim = typeof request?.reclaimAt === "number" ? ` Reclaimable by its depositor from ${new Date(request.reclaimAt * 1000).toISOString()} unless released (repaid or refunded) before.` : "";
  if (deposited) deposit = { id: "deposit", label: "Deposit on the origin chain", state: "done", note: `Deposit seen on chain ${status.originChainId}.${reclaim}` };
  else if (status.inTxHashes.length > 0) deposit = { id: "deposit", label: "Deposit on the origin chain", state: "current", note: "Deposit sent; waiting for its confirmations before it is credited." };
  else if (status.status === "depositing") deposit = { id: "deposit", label: "Deposit on the origin chain", state: "current", note: "A relayed deposit is being sent." };
  else deposit = { id: "deposit", label: "Deposit on the origin chain", state: "current", note: "Waiting for the deposit: none matching the quote is indexed yet." };

  let fill: TimelineStep;
  if (filled) fill = { id: "fill", label: "Fill on the destination chain", state: status.status === "submitted" ? "current" : "done", note: status.status === "submitted" ? "The fill was sent; waiting for its confirmation." : `The recipient was paid on chain ${status.destinationChainId}.` };
  else if (refunded || failed) fill = { id: "fill", label: "Fill on the destination chain", state: has("failed fill") || failReason ? "failed" : "skipped", note: failReason ? `Not filled: ${failReason}.` : "Not filled." };
  else if (deposited) fill = { id: "fill", label: "Fill on the destination chain", state: "current", note: "The solver is preparing the fill." };
  else fill = { id: "fill", label: "Fill on the destination chain", state: "not reached", note: "After the deposit." };

  let outcome: TimelineStep;
  if (status.status === "success") outcome = { id: "outcome", label: "Success", state: "done", note: "Filled: the recipient was paid (final)." };
  else if (refunded && typeof status.details?.reclaimedBy === "string") {
    outcome = { id: "outcome", label: "Refunded", state: "done", note: `The depositor ${status.details.reclaimedBy} reclaimed the deposit on chain ${status.originChainId} (final).` };
  } else if (refunded) outcome = { id: "outcome", label: "Refunded", state: "done", note: has("refund") ? `The deposit was refunded on chain ${status.originChainId} (final).` : "The deposit was refunded (final)." };
  else if (failed) {
    const refundFail = realReason(status.refundFailReason);
    outcome = { id: "outcome", label: "Failed", state: "failed", note: refundFail ? `No refund: ${refundFail}.` : "No refund is coming automatically: an operator must look (final until they act)." };
  } else outcome = { id: "outcome", label: "Outcome", state: "not reached", note: "Success, or a refund when the fill cannot happen." };

  const updated = new Date(status.updatedAt).toISOString();
  const last = [outcome, fill, deposit].find((step) => step.state !== "not reached");
  if (last && last.at === undefined) last.at = updated;
  return [quoted, deposit, fill, outcome];
}

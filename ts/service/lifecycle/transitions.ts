/**
 * The request lifecycle as one explicit transition table. Everything that moves a request from one
 * status to another (the store's `transitionRequest`, the solver, the indexer) asks this table; the
 * table in ./README.md is rendered from it and a test keeps the two equal.
 *
 * Pure: no clock, no I/O.
 */
import { ServiceError, type ServiceErrorOptions } from "../errors/serviceError.ts";
import type { RequestStatus } from "../model/requestStatus.ts";

/** Statuses a request may be created in: `waiting` (user deposits) or `depositing` (gasless `/execute`). */
export const INITIAL_STATUSES: readonly RequestStatus[] = ["waiting", "depositing"];

type Transition = { readonly from: RequestStatus; readonly to: RequestStatus; readonly when: string };

/** THE table. Anything not listed here is illegal, including staying in the same status. */
export const TRANSITIONS: readonly Transition[] = [
  { from: "waiting", to: "pending", when: "the deposit is indexed on the origin chain and matches the quote" },
  { from: "waiting", to: "failure", when: "a strict deposit address's payment cannot be forwarded (too little by the quote's expiry, late, another currency); `failReason` set, refunded from the address" },
  { from: "depositing", to: "pending", when: "the relayed (gasless) deposit is indexed and matches the quote" },
  { from: "depositing", to: "success", when: "an execution relayed without a quote: its transaction was mined and succeeded" },
  { from: "depositing", to: "failure", when: "an execution relayed without a quote: its transaction reverted, or its nonce went to another one" },
  { from: "pending", to: "submitted", when: "the fill transaction is sent to the destination chain" },
  { from: "pending", to: "failure", when: "the fill cannot happen (deadline passed, solver balance too low, …); `failReason` set" },
  { from: "submitted", to: "success", when: "the fill is confirmed and the recipient was paid" },
  { from: "submitted", to: "failure", when: "the fill reverted or was never confirmed; `failReason` set" },
  { from: "failure", to: "refund", when: "the deposit was returned to the user through `Depository.execute`" },
];

/**
 * Statuses nothing leaves. `failure` is not terminal: it is followed by `refund` once the refund
 * lands; it stays `failure` (with `refundFailReason`) only when the refund itself cannot be made.
 */
export const TERMINAL_STATUSES: readonly RequestStatus[] = ["success", "refund"];

export function isTerminal(status: RequestStatus): boolean {
  return TERMINAL_STATUSES.includes(status);
}

/** The statuses `from` may move to, in table order. */
export function nextStatuses(from: RequestStatus): RequestStatus[] {
  return TRANSITIONS.filter((t) => t.from === from).map((t) => t.to);
}

/** The statuses that may move to `to`, in table order. */
export function statusesBefore(to: RequestStatus): RequestStatus[] {
  return TRANSITIONS.filter((t) => t.to === to).map((t) => t.from);
}

export function canTransition(from: RequestStatus, to: RequestStatus): boolean {
  return TRANSITIONS.some((t) => t.from === from && t.to === to);
}

/** Throws InvalidTransitionError unless the table allows `from → to`. */
export function assertTransition(from: RequestStatus, to: RequestStatus): void {
  if (!canTransition(from, to)) throw new InvalidTransitionError(from, to);
}

export const LifecycleErrorCode = {
  INVALID_TRANSITION: "INVALID_TRANSITION",
} as const;

/** A status change the transition table does not allow. Never retryable: retrying cannot make it legal. */
export class InvalidTransitionError extends ServiceError {
  readonly from: string;
  readonly to: string;
  constructor(from: string, to: string, options: ServiceErrorOptions = {}) {
    super(LifecycleErrorCode.INVALID_TRANSITION, `invalid transition ${from} → ${to}`, options);
    this.from = from;
    this.to = to;
  }
}

/** The markdown table in ./README.md, rendered from TRANSITIONS and TERMINAL_STATUSES. */
export function renderTransitionTable(): string {
  const lines = ["| From | To | When |", "|---|---|---|"];
  for (const t of TRANSITIONS) lines.push(`| \`${t.from}\` | \`${t.to}\` | ${t.when} |`);
  lines.push("");
  lines.push(`Initial: ${INITIAL_STATUSES.map((s) => `\`${s}\``).join(", ")}. Terminal: ${TERMINAL_STATUSES.map((s) => `\`${s}\``).join(", ")}.`);
  return lines.join("\n");
}

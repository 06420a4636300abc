/**
 * How POST /execute's app-balance hold and the relayer's transaction name each other — the one
 * definition the relay (../relay/relayExecution.ts, when it records the transaction), the relay
 * follower (../relay/relayer.ts, when it ends the request and settles the hold) and the store's SQL
 * (../store/executeHolds.ts, when it matches holds to transactions) all use. Pure.
 *
 * - An execution (a requestId) may take several holds, one per **attempt**: attempt 0's reference is
 *   the requestId, attempt n's `<requestId>#n`. A new attempt is taken only when every earlier hold
 *   ended released — paid for nothing, so nothing ran — and at most `MAX_EXECUTE_ATTEMPTS` of them.
 * - The relayer's transaction for a hold has the subject `<reference>:<holdId>`; the requestId is read
 *   back from it (the attempt suffix dropped), so a retried attempt is followed like the first.
 */
import { decodeStored } from "../model/storedValue.ts";
import { Bytes32 } from "../model/values.ts";

/** How many holds one execution may take when the earlier ones were released with nothing sent. */
export const MAX_EXECUTE_ATTEMPTS = 8;

/** The hold reference of an execution's attempt `attempt` (0-based). */
export function executeHoldReference(requestId: Bytes32, attempt: number): string {
  return attempt === 0 ? requestId : `${requestId}#${attempt}`;
}

/** Every reference an execution's holds can have, attempt 0 first. */
export function executeHoldReferences(requestId: Bytes32): string[] {
  return Array.from({ length: MAX_EXECUTE_ATTEMPTS }, (_, attempt) => executeHoldReference(requestId, attempt));
}

/** The subject of the relayer's transaction paid by the hold. */
export function executeHoldSubject(hold: { reference: string; holdId: string }): string {
  return `${hold.reference}:${hold.holdId}`;
}

/** `executeHoldSubject` in SQL, over an `app_balance_holds` row aliased `alias` (its `reference` and `id`). */
export function executeHoldSubjectSql(alias: string): string {
  return `${alias}.reference || ':' || ${alias}.id`;
}

const SUBJECT = /^([^#:]+)(?:#([1-9][0-9]*))?:(.+)$/;

/** The requestId, attempt and holdId a relayed transaction's subject names; null when it names no execute hold. */
export function parseExecuteHoldSubject(subject: string): { requestId: Bytes32; attempt: number; holdId: string } | null {
  const match = SUBJECT.exec(subject);
  if (!match) return null;
  const attempt = match[2] === undefined ? 0 : Number(match[2]);
  if (attempt >= MAX_EXECUTE_ATTEMPTS) return null;
  return { requestId: decodeStored(Bytes32, match[1], "solver_transactions.subject", subject), attempt, holdId: match[3]! };
}

/**
 * ../model/publicStatus.ts in SQL, over a `requests` row: for statements that decide on the public
 * status where they write (../requests.ts: a write inserts its outbox event in the same statement, when
 * the public status changed) or filter by it (./listRequests.ts). `row` qualifies the columns ("r." for
 * a row named r, "" for the table's own). test/service/store/outboxPayloadSql.test.ts holds both forms
 * to the same answers.
 */
import type { RequestStatus } from "../model/requestStatus.ts";

/** `refundInProgress`: a stored failure whose refund is still coming; nothing to refund without solver state. */
export function refundInProgressSql(row = ""): string {
  return `(${row}status = 'failure' AND ${row}refund_fail_reason IS NULL AND ${row}parked IS NULL AND coalesce(${row}solver_state->'refund'->>'status', '') <> 'reverted' AND ${row}solver_state IS NOT NULL)`;
}

/** `fillSent`: the solver's fill or a destination hash recorded. */
export function fillSentSql(row = ""): string {
  return `(${row}solver_state->'fill' IS NOT NULL OR cardinality(${row}tx_hashes) > 0)`;
}

/** `publicStatus`: the stored status, except while a refund is in progress. */
export function publicStatusSql(row = ""): string {
  return `(CASE WHEN ${refundInProgressSql(row)} THEN (CASE WHEN ${fillSentSql(row)} THEN 'submitted' ELSE 'pending' END) ELSE ${row}status END)`;
}

/** The rows whose public status is `status` (in a form an index on `status` can still serve). */
export function publicStatusCondition(status: RequestStatus): string {
  if (status === "pending") return `(status = 'pending' OR (${refundInProgressSql()} AND NOT ${fillSentSql()}))`;
  if (status === "submitted") return `(status = 'submitted' OR (${refundInProgressSql()} AND ${fillSentSql()}))`;
  if (status === "failure") return `(status = 'failure' AND NOT ${refundInProgressSql()})`;
  return `status = '${status}'`;
}

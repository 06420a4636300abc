/**
 * Reclaimable deposits the service still owes a release (the SLO gauges
 * `ferry_reclaimable_deposits_unreleased` and `ferry_reclaimable_deposits_at_risk`,
 * ../http/metrics/sloMetrics.ts): requests whose credited deposit is reclaimable
 * (`solver_state.deposit.reclaimAt`) and whose repayment or refund — the `release` that ends the
 * depositor's right to reclaim — is not confirmed. From its `reclaimAt` on, the depositor may take such a
 * deposit back: after a fill, at the solver's loss. Database-wide, read at scrape time. A plain function
 * over `{ engine }`, like ./overdueRequests.ts.
 */
import type { Queryable } from "./engine.ts";

/** How many credited reclaimable deposits are not released yet, and how many of them reclaim before `atRiskBefore` (unix seconds). */
export async function countUnreleasedDeposits({ engine }: { engine: Queryable }, atRiskBefore: number): Promise<{ unreleased: number; atRisk: number }> {
  const { rows } = await engine.query<{ unreleased: number | string; at_risk: number | string }>(
    `SELECT count(*)::int AS unreleased,
            count(*) FILTER (WHERE (solver_state -> 'deposit' ->> 'reclaimAt')::numeric < $1)::int AS at_risk
       FROM requests
      WHERE solver_state -> 'deposit' ? 'reclaimAt'
        AND coalesce(solver_state -> 'repayment' ->> 'status', '') <> 'confirmed'
        AND coalesce(solver_state -> 'refund' ->> 'status', '') <> 'confirmed'`,
    [atRiskBefore],
  );
  return { unreleased: Number(rows[0]!.unreleased), atRisk: Number(rows[0]!.at_risk) };
}

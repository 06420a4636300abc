/**
 * Requests that should have been filled by now (the SLO gauge `ferry_requests_overdue`,
 * ../http/metrics/sloMetrics.ts): a credited deposit (`pending`, or `submitted` with a fill in flight),
 * not filled, whose deposit block is older than the cutoff. Parked requests count: they are overdue
 * too. Database-wide, read at scrape time. A plain function over `{ engine }`, like ./eventStream.ts.
 */
import type { Queryable } from "./engine.ts";

/** How many requests credited before `cutoff` (unix seconds, the deposit block's time) are still unfilled. */
export async function countOverdueRequests({ engine }: { engine: Queryable }, cutoff: number): Promise<number> {
  const { rows } = await engine.query<{ n: number | string }>(
    `SELECT count(*)::int AS n FROM requests
      WHERE status IN ('pending', 'submitted')
        AND (solver_state -> 'deposit' ->> 'blockTimestamp')::bigint < $1`,
    [cutoff],
  );
  return Number(rows[0]!.n);
}

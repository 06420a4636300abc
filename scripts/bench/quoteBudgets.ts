/**
 * The quote route's budgets in `npm run bench:api` (issue 26, item 4), as ratios to figures measured in
 * the same run, so they hold on any machine: a bridge quote's throughput as a share of GET /health's,
 * its p50 as a multiple of /health's, and each swap's p50 as a multiple of the native bridge's. Pure.
 *
 * The target was set on a machine where /health served ~14,000–21,000 req/s (2026-11-24) and
 * the status route ~12,000: ≥ 1,000 bridge quotes/s and p50 ≤ 10 ms at 10 connections, i.e. about
 * 0.05–0.07 × /health's throughput. The budgets below are what fails the bench; the target is printed
 * beside them.
 */
import type { LoadResult } from "./loadTypes.ts";

/** A bridge quote's req/s must be at least this share of /health's (fails the bench below it). */
export const BRIDGE_QUOTE_THROUGHPUT_BUDGET = 0.05;
/** A bridge quote's p50 may be at most this multiple of /health's p50. */
export const BRIDGE_QUOTE_P50_BUDGET = 25;
/** A swap quote's p50 may be at most this multiple of the native bridge quote's (the issue: swaps within 2×). */
export const SWAP_QUOTE_P50_BUDGET = 2;
/** The target, as a share of /health's throughput (1,000 quotes/s against /health's ~14,000 then). */
export const QUOTE_THROUGHPUT_TARGET = 0.07;

export type QuoteRow = { route: string; kind: "bridge" | "swap"; result: LoadResult };

export type QuoteVerdict = { line: string; ok: boolean };

/** One verdict per budget and row; `ok` false fails the bench. */
export function quoteVerdicts(rows: readonly QuoteRow[], health: LoadResult): QuoteVerdict[] {
  const verdicts: QuoteVerdict[] = [];
  const nativeBridge = rows.find((r) => r.kind === "bridge");
  const fixed = (n: number) => n.toFixed(n < 10 ? 3 : 1);
  for (const { route, kind, result } of rows) {
    if (kind === "bridge") {
      const share = result.requestsPerSecond / health.requestsPerSecond;
      const slower = result.p50Ms / health.p50Ms;
      verdicts.push({
        ok: share >= BRIDGE_QUOTE_THROUGHPUT_BUDGET,
        line: `${route}: req/s ÷ /health's ${fixed(share)} (budget ≥ ${BRIDGE_QUOTE_THROUGHPUT_BUDGET}, target ${QUOTE_THROUGHPUT_TARGET})`,
      });
      verdicts.push({ ok: slower <= BRIDGE_QUOTE_P50_BUDGET, line: `${route}: p50 ÷ /health's ${fixed(slower)} (budget ≤ ${BRIDGE_QUOTE_P50_BUDGET})` });
    } else if (nativeBridge) {
      const slower = result.p50Ms / nativeBridge.result.p50Ms;
      verdicts.push({ ok: slower <= SWAP_QUOTE_P50_BUDGET, line: `${route}: p50 ÷ the native bridge's ${fixed(slower)} (budget ≤ ${SWAP_QUOTE_P50_BUDGET})` });
    }
  }
  return verdicts;
}

/**
 * The solver's Prometheus metrics, on the app's registry (GET /metrics):
 * - `ferry_solver_steps_in_flight{status}`: requests this process is stepping now;
 * - `ferry_solver_step_seconds{status}`: how long steps took;
 * - `ferry_solver_work{status}`: requests the solver still has to act on, database-wide; `submitted`
 *   is the fills in flight (sent, not yet confirmed);
 * - `ferry_solver_pending_transactions{chain_id}`, `ferry_solver_transaction_replacements{chain_id}`,
 *   `ferry_solver_superseded_transactions{chain_id}`: the nonce manager's transactions not yet mined,
 *   the fee-bumped replacements it signed, the nonces lost to a transaction that was none of its own
 *   (database-wide, read at scrape time).
 * Inventory gauges (balance, reserved per currency) are ../chains/solverInventory.ts's.
 */
import { Gauge, Histogram, type Registry } from "prom-client";
import type { Store } from "../store/createStore.ts";
import type { SolverWorkItem } from "../store/solverWork.ts";

export type SolverMetrics = {
  stepStarted(item: SolverWorkItem): void;
  stepEnded(item: SolverWorkItem, ms: number): void;
};

export function createSolverMetrics(registry: Registry, store: Pick<Store, "countSolverWork" | "solverTransactionStats">): SolverMetrics {
  const inFlight = new Gauge({ name: "ferry_solver_steps_in_flight", help: "Requests this process is stepping now, by the status they were listed in", labelNames: ["status"], registers: [registry] });
  const duration = new Histogram({
    name: "ferry_solver_step_seconds",
    help: "Duration of solver steps, by the status the request was listed in",
    labelNames: ["status"],
    buckets: [0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
    registers: [registry],
  });
  new Gauge({
    name: "ferry_solver_work",
    help: "Requests the solver still has to act on, database-wide, by status (submitted = fills in flight)",
    labelNames: ["status"],
    registers: [registry],
    async collect() {
      const counts = await store.countSolverWork();
      for (const [status, n] of Object.entries(counts)) this.set({ status }, n);
    },
  });
  const txGauge = (name: string, help: string, pick: (s: Awaited<ReturnType<Store["solverTransactionStats"]>>[number]) => number) =>
    new Gauge({
      name,
      help,
      labelNames: ["chain_id"],
      registers: [registry],
      async collect() {
        for (const row of await store.solverTransactionStats()) this.set({ chain_id: String(row.chainId) }, pick(row));
      },
    });
  txGauge("ferry_solver_pending_transactions", "Solver transactions sent and not yet mined (nonce manager)", (s) => s.pending);
  txGauge("ferry_solver_transaction_replacements", "Fee-bumped replacements the nonce manager signed (same nonce)", (s) => s.replacements);
  txGauge("ferry_solver_superseded_transactions", "Solver nonces consumed by a transaction that was none of its attempts", (s) => s.superseded);
  return {
    stepStarted: (item) => inFlight.inc({ status: item.status }),
    stepEnded: (item, ms) => {
      inFlight.dec({ status: item.status });
      duration.observe({ status: item.status }, ms / 1000);
    },
  };
}

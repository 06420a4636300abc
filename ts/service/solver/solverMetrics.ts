/**
 * The solver's Prometheus metrics, on the registry GET /metrics serves (../server.ts passes the
 * app's; tests and a solver without one get a private registry).
 *
 * Alerts an operator pages on, next to `ferry_solver_parked_requests` (read from the store):
 * - `ferry_solver_foreign_fills_total{chain_id}`: fills of a request the service did not sign and
 *   send (another signer's attestation, a leaked key, its own attestation submitted by someone
 *   else); the request is parked in `failure` with ORDER_ALREADY_FILLED, never repaid;
 * - `ferry_payouts_claimable_total{kind}`: payouts (`repayment`, `refund`, `stray-refund`) that landed
 *   with a part made claimable by the Depository (the payee rejected it or burned the gas cap);
 * - `ferry_solver_gas_cap_exceeded_total{chain_id}`: transactions not sent because their estimate
 *   exceeded `solver.maxGasPerTransaction`;
 * - `ferry_deposit_address_refunds_reverted_total{chain_id}`: deposit-address refunds mined and
 *   reverted (./depositAddress/revertedRefund.ts): the money is still at the address, for an operator;
 * - `ferry_depository_allocator_change_eta_seconds{chain_id, depository, new_allocator, expected}`:
 *   a proposed allocator change and when it can be applied (`expected` = "true" when the proposed
 *   allocator is the service's own); `ferry_depository_allocator_mismatch{chain_id, depository}`: 1
 *   while the Depository's allocator is not the service's configured allocator.
 *
 * Throughput (the solver loop and the nonce manager):
 * - `ferry_solver_steps_in_flight{status}`: requests this process is stepping now;
 * - `ferry_solver_step_seconds{status}`: how long steps took;
 * - with a store: `ferry_solver_work{status}`: requests the solver still has to act on, database-wide
 *   (`submitted` is the fills in flight: sent, not yet confirmed); `ferry_solver_pending_transactions{chain_id}`,
 *   `ferry_solver_transaction_replacements{chain_id}`, `ferry_solver_superseded_transactions{chain_id}`:
 *   the nonce manager's transactions not yet mined, the fee-bumped replacements it signed, the nonces
 *   lost to a transaction that was none of its own (database-wide, read at scrape time).
 *
 * Inventory gauges (balance, reserved per currency) are ../http/metrics/inventoryMetrics.ts's.
 * Every metric is created once per registry: several solvers (tests, benches) may share the app's.
 */
import { Counter, Gauge, Histogram, Registry, type Metric } from "prom-client";
import type { Store } from "../store/createStore.ts";
import type { SolverWorkItem } from "../store/solver/solverWork.ts";

export type SolverMetrics = {
  foreignFills: Counter<"chain_id">;
  payoutsClaimable: Counter<"kind">;
  gasCapExceeded: Counter<"chain_id">;
  depositAddressRefundsReverted: Counter<"chain_id">;
  allocatorChangeEta: Gauge<"chain_id" | "depository" | "new_allocator" | "expected">;
  allocatorMismatch: Gauge<"chain_id" | "depository">;
  stepStarted(item: SolverWorkItem): void;
  stepEnded(item: SolverWorkItem, ms: number): void;
};

/** What the database-wide gauges read at scrape time. */
export type SolverMetricsStore = Pick<Store, "countSolverWork" | "solverTransactionStats">;

/** The metric `name` of `registry`, created once (several solvers may share the app's registry). */
function once<T extends Metric>(registry: Registry, name: string, create: () => T): T {
  return (registry.getSingleMetric(name) as T | undefined) ?? create();
}

export function createSolverMetrics(registry: Registry = new Registry(), store?: SolverMetricsStore): SolverMetrics {
  const registers = [registry];
  const inFlight = once(registry, "ferry_solver_steps_in_flight", () =>
    new Gauge({ name: "ferry_solver_steps_in_flight", help: "Requests this process is stepping now, by the status they were listed in", labelNames: ["status"] as const, registers }),
  );
  const duration = once(registry, "ferry_solver_step_seconds", () =>
    new Histogram({
      name: "ferry_solver_step_seconds",
      help: "Duration of solver steps, by the status the request was listed in",
      labelNames: ["status"] as const,
      buckets: [0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
      registers,
    }),
  );
  if (store) installWorkGauges(registry, store);
  return {
    foreignFills: once(registry, "ferry_solver_foreign_fills_total", () =>
      new Counter({ name: "ferry_solver_foreign_fills_total", help: "Fills of a request the service did not sign and send (parked, never repaid)", labelNames: ["chain_id"] as const, registers }),
    ),
    payoutsClaimable: once(registry, "ferry_payouts_claimable_total", () =>
      new Counter({ name: "ferry_payouts_claimable_total", help: "Payouts that landed with a part made claimable by the Depository (payee rejected or burned the gas cap)", labelNames: ["kind"] as const, registers }),
    ),
    gasCapExceeded: once(registry, "ferry_solver_gas_cap_exceeded_total", () =>
      new Counter({ name: "ferry_solver_gas_cap_exceeded_total", help: "Transactions not sent because their gas estimate exceeded solver.maxGasPerTransaction", labelNames: ["chain_id"] as const, registers }),
    ),
    depositAddressRefundsReverted: once(registry, "ferry_deposit_address_refunds_reverted_total", () =>
      new Counter({ name: "ferry_deposit_address_refunds_reverted_total", help: "Deposit-address refunds mined and reverted (the funds stay at the address, for an operator)", labelNames: ["chain_id"] as const, registers }),
    ),
    allocatorChangeEta: once(registry, "ferry_depository_allocator_change_eta_seconds", () =>
      new Gauge({
        name: "ferry_depository_allocator_change_eta_seconds",
        help: "A proposed Depository allocator change: unix time from which it can be applied (expected = the service's own allocator)",
        labelNames: ["chain_id", "depository", "new_allocator", "expected"] as const,
        registers,
      }),
    ),
    allocatorMismatch: once(registry, "ferry_depository_allocator_mismatch", () =>
      new Gauge({ name: "ferry_depository_allocator_mismatch", help: "1 while the Depository's allocator is not the service's configured allocator", labelNames: ["chain_id", "depository"] as const, registers }),
    ),
    stepStarted: (item) => inFlight.inc({ status: item.status }),
    stepEnded: (item, ms) => {
      inFlight.dec({ status: item.status });
      duration.observe({ status: item.status }, ms / 1000);
    },
  };
}

/** The database-wide gauges, read from the store at scrape time (once per registry). */
function installWorkGauges(registry: Registry, store: SolverMetricsStore): void {
  const registers = [registry];
  once(registry, "ferry_solver_work", () =>
    new Gauge({
      name: "ferry_solver_work",
      help: "Requests the solver still has to act on, database-wide, by status (submitted = fills in flight)",
      labelNames: ["status"] as const,
      registers,
      async collect() {
        const counts = await store.countSolverWork();
        for (const [status, n] of Object.entries(counts)) this.set({ status }, n);
      },
    }),
  );
  const txGauge = (name: string, help: string, pick: (s: Awaited<ReturnType<Store["solverTransactionStats"]>>[number]) => number) =>
    once(registry, name, () =>
      new Gauge({
        name,
        help,
        labelNames: ["chain_id"] as const,
        registers,
        async collect() {
          for (const row of await store.solverTransactionStats()) this.set({ chain_id: String(row.chainId) }, pick(row));
        },
      }),
    );
  txGauge("ferry_solver_pending_transactions", "Solver transactions sent and not yet mined (nonce manager)", (s) => s.pending);
  txGauge("ferry_solver_transaction_replacements", "Fee-bumped replacements the nonce manager signed (same nonce)", (s) => s.replacements);
  txGauge("ferry_solver_superseded_transactions", "Solver nonces consumed by a transaction that was none of its attempts", (s) => s.superseded);
}

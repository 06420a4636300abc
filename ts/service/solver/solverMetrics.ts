/**
 * The solver's Prometheus metrics, on the registry GET /metrics serves (../server.ts passes the
 * app's; tests and a solver without one get a private registry). Each is an alert an operator pages
 * on, next to `ferry_solver_parked_requests` (read from the store):
 * - `ferry_solver_foreign_fills_total{chain_id}`: fills of a request the service did not sign and
 *   send (another signer's attestation, a leaked key, its own attestation submitted by someone
 *   else); the request is parked in `failure` with ORDER_ALREADY_FILLED, never repaid;
 * - `ferry_payouts_claimable_total{kind}`: payouts (`repayment`, `refund`, `stray-refund`) that landed
 *   with a part made claimable by the Depository (the payee rejected it or burned the gas cap);
 * - `ferry_solver_gas_cap_exceeded_total{chain_id}`: transactions not sent because their estimate
 *   exceeded `solver.maxGasPerTransaction`;
 * - `ferry_depository_allocator_change_eta_seconds{chain_id, depository, new_allocator, expected}`:
 *   a proposed allocator change and when it can be applied (`expected` = "true" when the proposed
 *   allocator is the service's own); `ferry_depository_allocator_mismatch{chain_id, depository}`: 1
 *   while the Depository's allocator is not the service's configured allocator.
 */
import { Counter, Gauge, Registry, type Metric } from "prom-client";

export type SolverMetrics = {
  foreignFills: Counter<"chain_id">;
  payoutsClaimable: Counter<"kind">;
  gasCapExceeded: Counter<"chain_id">;
  allocatorChangeEta: Gauge<"chain_id" | "depository" | "new_allocator" | "expected">;
  allocatorMismatch: Gauge<"chain_id" | "depository">;
};

/** The metric `name` of `registry`, created once (several solvers may share the app's registry). */
function once<T extends Metric>(registry: Registry, name: string, create: () => T): T {
  return (registry.getSingleMetric(name) as T | undefined) ?? create();
}

export function createSolverMetrics(registry: Registry = new Registry()): SolverMetrics {
  const registers = [registry];
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
  };
}

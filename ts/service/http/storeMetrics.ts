/**
 * Metrics read from the store at scrape time (GET /metrics), so every replica reports the same
 * database-wide figure: `ferry_solver_parked_requests`, the requests the solver parked after a
 * non-retryable error (see ../solver/startSolver.ts) and left for an operator.
 */
import { Gauge, type Registry } from "prom-client";
import type { Store } from "../store/createStore.ts";

export function installStoreMetrics(registry: Registry, store: Pick<Store, "countParkedRequests">): void {
  new Gauge({
    name: "ferry_solver_parked_requests",
    help: "Requests the solver parked after a non-retryable error, waiting for an operator (requests.parked)",
    registers: [registry],
    async collect() {
      this.set(await store.countParkedRequests());
    },
  });
}

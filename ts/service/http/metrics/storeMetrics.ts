/**
 * Metrics read from the store at scrape time (GET /metrics), so every replica reports the same
 * database-wide figures:
 * - `ferry_solver_parked_requests`: the requests the solver parked after a non-retryable error (see
 *   ../../solver/startSolver.ts) and left for an operator;
 * - the webhook backlog (../../store/webhooks/webhookOutbox.ts `webhookBacklog`, one read per scrape):
 *   `ferry_webhook_events{state}` (pending, delivered, failed, skipped),
 *   `ferry_webhook_oldest_pending_age_seconds` (0 with nothing pending), and per endpoint — labelled
 *   with its API key id, never its URL — `ferry_webhook_endpoint_pending_events`,
 *   `ferry_webhook_endpoint_consecutive_failures` and `ferry_webhook_endpoint_paused` (1 while its
 *   failures pause it), for endpoints with pending events, failures or a pause.
 */
import { Gauge, type Registry } from "prom-client";
import type { Store } from "../../store/createStore.ts";
import { webhookBacklog, type WebhookBacklog } from "../../store/webhooks/webhookOutbox.ts";

export function installStoreMetrics(registry: Registry, store: Pick<Store, "countParkedRequests" | "engine">, now: () => number = Date.now): void {
  new Gauge({
    name: "ferry_solver_parked_requests",
    help: "Requests the solver parked after a non-retryable error, waiting for an operator (requests.parked)",
    registers: [registry],
    async collect() {
      this.set(await store.countParkedRequests());
    },
  });

  // One read of the backlog per scrape, shared by the gauges below (each collects on its own).
  let read: { at: number; backlog: Promise<WebhookBacklog> } | undefined;
  const backlog = () => {
    const at = now();
    if (!read || at - read.at > 1_000) read = { at, backlog: webhookBacklog(store.engine) };
    return read.backlog;
  };
  new Gauge({
    name: "ferry_webhook_events",
    help: "Outbox events by webhook delivery state (pending: to be sent or retried; failed: retries used up)",
    labelNames: ["state"],
    registers: [registry],
    async collect() {
      const { byState } = await backlog();
      for (const [state, n] of Object.entries(byState)) this.set({ state }, n);
    },
  });
  new Gauge({
    name: "ferry_webhook_oldest_pending_age_seconds",
    help: "Age of the oldest event still pending webhook delivery (0 when none)",
    registers: [registry],
    async collect() {
      const { oldestPendingAt } = await backlog();
      this.set(oldestPendingAt === null ? 0 : Math.max(0, (now() - oldestPendingAt) / 1000));
    },
  });
  const perEndpoint = (name: string, help: string, value: (endpoint: WebhookBacklog["endpoints"][number]) => number) =>
    new Gauge({
      name,
      help,
      labelNames: ["key_id"],
      registers: [registry],
      async collect() {
        const { endpoints } = await backlog();
        this.reset();
        for (const endpoint of endpoints) this.set({ key_id: endpoint.keyId }, value(endpoint));
      },
    });
  perEndpoint("ferry_webhook_endpoint_pending_events", "Events pending delivery to the endpoint (webhook) of an API key", (e) => e.pending);
  perEndpoint("ferry_webhook_endpoint_consecutive_failures", "Failed attempts in a row to the endpoint of an API key (0 after a delivery)", (e) => e.consecutiveFailures);
  perEndpoint("ferry_webhook_endpoint_paused", "1 while the endpoint of an API key is paused after failures (its events wait)", (e) =>
    e.pausedUntil !== null && e.pausedUntil > now() ? 1 : 0,
  );
}

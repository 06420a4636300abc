/**
 * Prometheus metrics of the websocket, on the app's registry (GET /metrics): open connections and
 * subscriptions (gauges), and counters of accepted subscriptions, status updates sent and connections
 * closed by the server, by reason.
 */
import { Counter, Gauge, type Registry } from "prom-client";

/** Why the server closed a connection. */
export type ServerCloseReason = "slow_consumer" | "heartbeat_timeout" | "shutdown";

export type WebsocketMetrics = {
  connections: Gauge;
  subscriptions: Gauge;
  subscribes: Counter;
  updatesSent: Counter;
  serverCloses: Counter<"reason">;
};

export function createWebsocketMetrics(registry: Registry): WebsocketMetrics {
  return {
    connections: new Gauge({ name: "ferry_websocket_connections", help: "Open websocket connections", registers: [registry] }),
    subscriptions: new Gauge({
      name: "ferry_websocket_subscriptions",
      help: "Active websocket subscriptions (connection × requestId)",
      registers: [registry],
    }),
    subscribes: new Counter({
      name: "ferry_websocket_subscribes_total",
      help: "Subscriptions accepted (acked with status success)",
      registers: [registry],
    }),
    updatesSent: new Counter({
      name: "ferry_websocket_updates_sent_total",
      help: "request.status.updated messages sent (current status on subscribe included)",
      registers: [registry],
    }),
    serverCloses: new Counter({
      name: "ferry_websocket_server_closes_total",
      help: "Connections closed by the server, by reason",
      labelNames: ["reason"] as const,
      registers: [registry],
    }),
  };
}

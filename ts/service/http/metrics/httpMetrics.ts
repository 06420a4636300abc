/**
 * Prometheus metrics of the HTTP layer on a registry of the app's own (several apps in one process,
 * as in tests, do not collide): request count and latency by method, route pattern and status.
 * Unmatched requests share the route label `(unmatched)` so random URLs cannot grow the label set.
 */
import type { FastifyInstance } from "fastify";
import { Counter, Histogram, Registry } from "prom-client";

export type HttpMetrics = { registry: Registry };

export function installHttpMetrics(app: FastifyInstance, registry: Registry = new Registry()): HttpMetrics {
  const labelNames = ["method", "route", "status_code"] as const;
  const requests = new Counter({
    name: "ferry_http_requests_total",
    help: "HTTP requests answered, by method, route pattern and status code",
    labelNames,
    registers: [registry],
  });
  const duration = new Histogram({
    name: "ferry_http_request_duration_seconds",
    help: "HTTP request latency in seconds, by method, route pattern and status code",
    labelNames,
    buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
    registers: [registry],
  });
  app.addHook("onResponse", async (request, reply) => {
    const labels = {
      method: request.method,
      route: request.is404 ? "(unmatched)" : (request.routeOptions.url ?? "(unmatched)"),
      status_code: String(reply.statusCode),
    };
    requests.inc(labels);
    duration.observe(labels, reply.elapsedTime / 1000);
  });
  return { registry };
}

/** GET /metrics — Prometheus text exposition of the app's registry (see httpMetrics.ts). */
import type { Registry } from "prom-client";
import { Type } from "typebox";
import type { FerryApp } from "../ferryApp.ts";
import { NoQuery } from "../ferryApp.ts";
import { commonErrorResponses } from "../httpErrors.ts";

export const metricsSchema = {
  summary: "Prometheus metrics",
  tags: ["Operations"],
  querystring: NoQuery,
  produces: ["text/plain"],
  response: {
    200: { description: "Prometheus text format 0.0.4", content: { "text/plain": { schema: Type.String() } } },
    ...commonErrorResponses,
  },
};

export function registerMetricsRoute(app: FerryApp, registry: Registry): void {
  app.get("/metrics", { schema: metricsSchema }, async (_request, reply) => {
    const text = await registry.metrics();
    return reply.type(registry.contentType).send(text);
  });
}

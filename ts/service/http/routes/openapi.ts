/** GET /openapi.json — the OpenAPI 3 document @fastify/swagger generates from the route schemas. */
import type { FerryApp } from "../ferryApp.ts";

export function registerOpenApiRoute(app: FerryApp): void {
  app.get("/openapi.json", { schema: { hide: true } }, async () => app.swagger());
}

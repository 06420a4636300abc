/** GET /health — liveness: the process answers HTTP. Touches nothing else (see /ready). */
import { Type } from "typebox";
import type { FerryApp } from "../ferryApp.ts";
import { NoQuery } from "../ferryApp.ts";
import { commonErrorResponses } from "../httpErrors.ts";

export const healthSchema = {
  summary: "Liveness",
  description: "200 while the process serves HTTP. Checks no dependency (see /ready).",
  tags: ["Operations"],
  querystring: NoQuery,
  response: {
    200: Type.Object({ status: Type.Literal("ok") }),
    ...commonErrorResponses,
  },
};

export function registerHealthRoute(app: FerryApp): void {
  app.get("/health", { schema: healthSchema }, async () => ({ status: "ok" as const }));
}

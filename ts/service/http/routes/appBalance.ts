/**
 * GET /app-balance — the caller's app balance (x-api-key required): available, held, credited and
 * debited, in USD micro-units as decimal strings, and the most recent ledger lines (`limit`, default 20).
 */
import { Type } from "typebox";
import type { AppBalanceStore } from "../../store/appBalances.ts";
import { appBalanceRecord, AppBalanceSchema, callerKeyId } from "../appBalanceRecord.ts";
import type { FerryApp } from "../ferryApp.ts";
import { commonErrorResponses } from "../httpErrors.ts";

export const appBalanceSchema = {
  summary: "The caller's app balance",
  description:
    "What the app (the API key in x-api-key) has funded, holds for spends in flight, was debited and has available, in USD micro-units (6 decimals) as decimal strings, with its recent ledger lines newest first. 401 API_KEY_REQUIRED without a key.",
  tags: ["App balance"],
  querystring: Type.Object({ limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 500, default: 20 })) }, { additionalProperties: false }),
  response: { 200: AppBalanceSchema, ...commonErrorResponses },
};

export function registerAppBalanceRoute(app: FerryApp, options: { ledger: AppBalanceStore }): void {
  app.get("/app-balance", { schema: appBalanceSchema }, async (request) => {
    const apiKeyId = callerKeyId(request, "GET /app-balance");
    const [balance, entries] = await Promise.all([options.ledger.balance(apiKeyId), options.ledger.entries(apiKeyId, { limit: request.query.limit ?? 20 })]);
    return appBalanceRecord(apiKeyId, balance, entries);
  });
}

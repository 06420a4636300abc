/**
 * The app balance as the HTTP API and the admin API show it: amounts as decimal strings of USD
 * micro-units (6 decimals; bigints never travel as JSON numbers), and the recent ledger lines. Also
 * the one rule of the app-balance routes: they act on the caller's own key (x-api-key), never a named one.
 */
import type { FastifyRequest } from "fastify";
import { Type, type Static } from "typebox";
import { ServiceError } from "../errors/serviceError.ts";
import type { AppBalance, LedgerEntry } from "../store/appBalances.ts";

const UsdMicros = (description: string) => Type.String({ pattern: "^(0|[1-9][0-9]*)$", description: `${description} (USD micro-units, 6 decimals, decimal string)` });

export const LedgerEntrySchema = Type.Object(
  {
    kind: Type.Union([Type.Literal("credit"), Type.Literal("hold"), Type.Literal("debit"), Type.Literal("release")]),
    amountUsd: UsdMicros("The line's amount"),
    purpose: Type.Union([Type.Literal("execute"), Type.Literal("sponsorship"), Type.Literal("fastFill"), Type.Literal("withdrawal"), Type.Null()]),
    reference: Type.Union([Type.String(), Type.Null()], { description: "What the hold paid for (a request id, a withdrawal id)" }),
    source: Type.Union([Type.Object({ chainId: Type.Integer(), txHash: Type.String(), logIndex: Type.Integer() }, { additionalProperties: false }), Type.Null()], {
      description: "A credit's funding deposit log",
    }),
    currency: Type.Union([Type.String(), Type.Null()]),
    amount: Type.Union([Type.String(), Type.Null()], { description: "A credit's deposited amount in the currency's smallest units" }),
    createdAt: Type.String({ format: "date-time" }),
  },
  { additionalProperties: false },
);

export const AppBalanceSchema = Type.Object(
  {
    apiKeyId: Type.String(),
    availableUsd: UsdMicros("credited − debited − held: what holds may take now"),
    heldUsd: UsdMicros("Held for spends in flight"),
    creditedUsd: UsdMicros("Funded by deposits"),
    debitedUsd: UsdMicros("Spent on the app's behalf, withdrawals included"),
    entries: Type.Array(LedgerEntrySchema, { description: "The most recent ledger lines, newest first" }),
  },
  { additionalProperties: false },
);
export type AppBalanceRecord = Static<typeof AppBalanceSchema>;

export function appBalanceRecord(apiKeyId: string, balance: AppBalance, entries: readonly LedgerEntry[]): AppBalanceRecord {
  return {
    apiKeyId,
    availableUsd: balance.availableUsd.toString(),
    heldUsd: balance.heldUsd.toString(),
    creditedUsd: balance.creditedUsd.toString(),
    debitedUsd: balance.debitedUsd.toString(),
    entries: entries.map((e) => ({
      kind: e.kind,
      amountUsd: e.amountUsd.toString(),
      purpose: e.purpose,
      reference: e.reference,
      source: e.source,
      currency: e.currency,
      amount: e.amount === null ? null : e.amount.toString(),
      createdAt: e.createdAt,
    })),
  };
}

/** The caller's key id; 401 API_KEY_REQUIRED without x-api-key (a wrong key is already 401 INVALID_API_KEY). */
export function callerKeyId(request: FastifyRequest, what: string): string {
  if (!request.apiKey) throw new ServiceError("API_KEY_REQUIRED", `${what} acts on the caller's app balance: send its API key in x-api-key`);
  return request.apiKey.id;
}

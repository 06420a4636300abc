/**
 * Exposure budgets (config `appBalances.exposure`): per purpose, the most the service will expose in
 * one store-clock hour, per app and per solver currency (the currency the service itself spends:
 * native gas for relayed executions, the filled currency for fast fills, the fee currency for
 * sponsorship). Withdrawals are the app's own money and have no budget. Pure: which windows a hold
 * counts in and their limits; the store counts them (../store/appBalances.ts).
 */
import type { HoldPurpose } from "./holdPurpose.ts";

export type BudgetedPurpose = Exclude<HoldPurpose, "withdrawal">;
export const BUDGETED_PURPOSES: readonly BudgetedPurpose[] = ["execute", "sponsorship", "fastFill"];

/** USD micro-units per hour by purpose; a purpose left out is unlimited. */
export type ExposureLimits = Partial<Record<BudgetedPurpose, bigint>>;

export type ExposureBudgets = {
  /** Every app's budget … */
  perApp: ExposureLimits;
  /** … unless the app (API key id) has its own. */
  apps: Readonly<Record<string, ExposureLimits>>;
  /** Per solver currency (all apps together); `currency` canonical lowercase. */
  perCurrency: ReadonlyArray<{ chainId: number; currency: string; limits: ExposureLimits }>;
};

export const NO_EXPOSURE_BUDGETS: ExposureBudgets = { perApp: {}, apps: {}, perCurrency: [] };

export const HOUR_MS = 3_600_000;

/** The start of the hour window `now` falls in (UTC hours of the store's clock). */
export function exposureWindowStart(now: Date): Date {
  return new Date(Math.floor(now.getTime() / HOUR_MS) * HOUR_MS);
}

/** One counted window: its scope key and the limit in it. */
export type ExposureScope = { scope: string; limit: bigint; kind: "app" | "currency" };

/** The windows a hold counts in, with a limit each; empty for a withdrawal or when nothing is configured. */
export function exposureScopes(
  budgets: ExposureBudgets,
  hold: { apiKeyId: string; purpose: HoldPurpose; exposure?: { chainId: number; currency: string } },
): ExposureScope[] {
  if (hold.purpose === "withdrawal") return [];
  const purpose = hold.purpose;
  const scopes: ExposureScope[] = [];
  const appLimit = (budgets.apps[hold.apiKeyId] ?? budgets.perApp)[purpose];
  if (appLimit !== undefined) scopes.push({ scope: `app:${hold.apiKeyId}`, limit: appLimit, kind: "app" });
  if (hold.exposure) {
    const { chainId, currency } = hold.exposure;
    const entry = budgets.perCurrency.find((c) => c.chainId === chainId && c.currency === currency);
    const limit = entry?.limits[purpose];
    if (limit !== undefined) scopes.push({ scope: `currency:${chainId}:${currency}`, limit, kind: "currency" });
  }
  return scopes;
}

import { expect } from "chai";
import { exposureScopes, exposureWindowStart, type ExposureBudgets } from "../../../ts/service/balances/exposureBudget.ts";

const USDC = "0x" + "cd".repeat(20);
const budgets: ExposureBudgets = {
  perApp: { sponsorship: 10n, execute: 20n },
  apps: { key_big: { sponsorship: 100n } },
  perCurrency: [{ chainId: 1, currency: USDC, limits: { fastFill: 50n, execute: 70n } }],
};

describe("exposureBudget", () => {
  it("exposureWindowStart_isTheUtcHourOfTheClock", () => {
    expect(exposureWindowStart(new Date(Date.UTC(2026, 0, 1, 10, 59, 59, 999))).toISOString()).to.equal("2026-01-01T10:00:00.000Z");
    expect(exposureWindowStart(new Date(Date.UTC(2026, 0, 1, 11))).toISOString()).to.equal("2026-01-01T11:00:00.000Z");
  });

  it("exposureScopes_perAppOrItsOwn_andPerSolverCurrency", () => {
    expect(exposureScopes(budgets, { apiKeyId: "key_a", purpose: "execute", exposure: { chainId: 1, currency: USDC } })).to.deep.equal([
      { scope: "app:key_a", limit: 20n, kind: "app" },
      { scope: `currency:1:${USDC}`, limit: 70n, kind: "currency" },
    ]);
    // An app with its own budget: only what it sets (its execute is unlimited).
    expect(exposureScopes(budgets, { apiKeyId: "key_big", purpose: "execute" })).to.deep.equal([]);
    expect(exposureScopes(budgets, { apiKeyId: "key_big", purpose: "sponsorship" })).to.deep.equal([{ scope: "app:key_big", limit: 100n, kind: "app" }]);
    // Another chain's currency and purposes without a limit count nowhere; withdrawals never.
    expect(exposureScopes(budgets, { apiKeyId: "key_a", purpose: "fastFill", exposure: { chainId: 2, currency: USDC } })).to.deep.equal([]);
    expect(exposureScopes(budgets, { apiKeyId: "key_a", purpose: "withdrawal", exposure: { chainId: 1, currency: USDC } })).to.deep.equal([]);
  });
});

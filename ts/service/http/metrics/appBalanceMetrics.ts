/**
 * The app ledger's metrics (../../store/appBalances.ts), per hold purpose (execute, sponsorship,
 * fastFill, withdrawal), in USD:
 * - `ferry_app_balance_held_usd{purpose}`: held now by every app (read from the store at scrape time:
 *   the same figure on every replica);
 * - `ferry_app_balance_debited_usd{purpose}`: debited ever (settled holds' spend; store, scrape time);
 * - `ferry_app_balance_refused_usd_total{purpose,code}`: holds this process refused
 *   (SPONSOR_BALANCE_TOO_LOW, EXPOSURE_BUDGET_EXCEEDED), a counter of the amounts asked.
 */
import { Counter, Gauge, type Registry } from "prom-client";
import type { Store } from "../../store/createStore.ts";

const usd = (micros: bigint): number => Number(micros) / 1e6;

export function installAppBalanceMetrics(registry: Registry, store: Pick<Store, "appBalances" | "onLedgerObservation">): void {
  let read: { at: number; totals: ReturnType<Store["appBalances"]["totals"]> } | undefined;
  const totals = () => {
    const at = Date.now();
    if (!read || at - read.at > 1_000) read = { at, totals: store.appBalances.totals() };
    return read.totals;
  };
  new Gauge({
    name: "ferry_app_balance_held_usd",
    help: "USD held on app balances for spends in flight, by purpose (every app, from the store)",
    labelNames: ["purpose"],
    registers: [registry],
    async collect() {
      for (const t of await totals()) this.set({ purpose: t.purpose }, usd(t.heldUsd));
    },
  });
  new Gauge({
    name: "ferry_app_balance_debited_usd",
    help: "USD ever debited from app balances, by purpose (settled holds' spend, every app, from the store)",
    labelNames: ["purpose"],
    registers: [registry],
    async collect() {
      for (const t of await totals()) this.set({ purpose: t.purpose }, usd(t.debitedUsd));
    },
  });
  const refused = new Counter({
    name: "ferry_app_balance_refused_usd_total",
    help: "USD of app-balance holds this process refused, by purpose and code (SPONSOR_BALANCE_TOO_LOW, EXPOSURE_BUDGET_EXCEEDED)",
    labelNames: ["purpose", "code"],
    registers: [registry],
  });
  store.onLedgerObservation((o) => {
    if (o.kind === "refused") refused.inc({ purpose: o.purpose, code: o.code }, usd(o.amountUsd));
  });
}

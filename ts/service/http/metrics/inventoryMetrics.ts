/**
 * The solver's inventory in /metrics, read at scrape time (../../chains/solverInventory.ts, cached 1 s):
 * `ferry_solver_inventory{chain_id, currency, symbol, kind}` in whole units of the currency, `kind`
 * one of `balance` (the solver's), `reserved` (held by fills in flight, every replica's) and
 * `available` (what a new fill can count on). A chain that does not answer is left out of that scrape.
 */
import { Gauge, type Registry } from "prom-client";
import type { ChainConfig } from "../../config/configSchema.ts";
import type { SolverInventory } from "../../chains/solverInventory.ts";

export function installInventoryMetrics(registry: Registry, { chains, inventory }: { chains: readonly ChainConfig[]; inventory: SolverInventory }): void {
  new Gauge({
    name: "ferry_solver_inventory",
    help: "The solver's inventory per chain and currency, in whole units: balance, reserved (fills in flight) and available",
    labelNames: ["chain_id", "currency", "symbol", "kind"],
    registers: [registry],
    async collect() {
      this.reset();
      const perChain = await Promise.allSettled(chains.map((chain) => inventory.lines(chain.id)));
      for (const result of perChain) {
        if (result.status !== "fulfilled") continue;
        for (const line of result.value) {
          const whole = (amount: bigint) => Number(amount) / 10 ** line.decimals;
          const labels = { chain_id: String(line.chainId), currency: line.currency, symbol: line.symbol };
          this.set({ ...labels, kind: "balance" }, whole(line.balance));
          this.set({ ...labels, kind: "reserved" }, whole(line.reserved));
          this.set({ ...labels, kind: "available" }, whole(line.available));
        }
      }
    },
  });
}

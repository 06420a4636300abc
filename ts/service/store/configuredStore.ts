/**
 * The store a configuration names, for every process that opens the service's database (the service,
 * the `ferry keys` / `ferry webhooks` commands): PostgreSQL when `database.url` / DATABASE_URL is set,
 * else the embedded PGlite on disk under `database.dataDir` — never in memory. (The PGlite engine
 * creates the folder and takes its lock: ./pgliteEngine.ts.)
 */
import type { FerryConfig } from "../config/configSchema.ts";
import type { StoreOptions } from "./createStore.ts";

export function configuredStoreOptions(config: Pick<FerryConfig, "database"> & Partial<Pick<FerryConfig, "appBalances">>): StoreOptions {
  const { url, dataDir, ...postgres } = config.database;
  const databaseUrl = url?.reveal();
  // The app ledger's exposure budgets are enforced in the store, by every process that holds.
  const ledger = config.appBalances ? { appBalances: { exposure: config.appBalances.exposure } } : {};
  return databaseUrl ? { databaseUrl, postgres, ...ledger } : { dataDir, ...ledger };
}

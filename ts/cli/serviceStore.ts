/**
 * The service's database for operator commands pointed at it (`ferry keys|webhooks|requests` with a
 * data dir, DATABASE_URL or a config file: ./adminTarget.ts), opened exactly as the service opens
 * it: the configuration from `FERRY_CONFIG` plus the environment (loadConfig), then PostgreSQL when
 * `DATABASE_URL` / `database.url` is set, else the embedded PGlite under `database.dataDir`
 * (`FERRY_DATA_DIR`), with migrations applied. The store is always closed, so the PGlite folder lock
 * is released even when the command fails.
 */
import type { FerryConfig } from "../service/config/configSchema.ts";
import { loadConfig } from "../service/config/loadConfig.ts";
import { configuredStoreOptions } from "../service/store/configuredStore.ts";
import { createStore, type Store } from "../service/store/createStore.ts";
import type { CliIo } from "./cliIo.ts";

/**
 * Loads the configuration from `io.env`, opens the store, runs `fn`, and closes the store whatever
 * happens. `beforeOpen` may refuse the configuration before anything is opened (or created).
 */
export async function withServiceStore<T>(
  io: CliIo,
  fn: (store: Store, config: FerryConfig) => Promise<T>,
  options: { beforeOpen?: (config: FerryConfig) => void } = {},
): Promise<T> {
  const config = await loadConfig({ env: io.env });
  options.beforeOpen?.(config);
  const store = await createStore(configuredStoreOptions(config));
  let result: T;
  try {
    result = await fn(store, config);
  } catch (error) {
    // The command's error is the one to report, not a failure to close after it.
    await store.close().catch(() => {});
    throw error;
  }
  await store.close();
  return result;
}

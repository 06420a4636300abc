/**
 * The stack of a test that SIGKILLs the service process and restarts it on the same store: two EDR
 * chains (../service/solver/twoChains.ts), a proxy in front of the origin chain (./chainProxy.ts) that
 * the service reads it through (the destination directly), and the store on `engine` (PGlite in a
 * folder, or a scratch PostgreSQL database), which the test opens only while no service runs (PGlite
 * allows one process at a time). Mocha hooks: the chains before the suite (skipped unless
 * `npm run test:faults`); after each test the proxy passes again, the origin automines again and the
 * process is killed; after the suite everything is closed. The returned object's fields are set once
 * `before` has run.
 */
import { createStore, type Store } from "../../ts/service/store/createStore.ts";
import { startTwoChains, type TwoChains } from "../service/solver/twoChains.ts";
import { startChainProxy, type ChainProxy } from "./chainProxy.ts";
import { skipUnlessFaults } from "./faultSuite.ts";
import { createScratchDatabase } from "./loadPostgres.ts";
import { startLoadService, type LoadService } from "./loadService.ts";

export type RestartedService = {
  env: TwoChains;
  proxy: ChainProxy;
  /** The running process, if any. */
  service: LoadService | undefined;
  openStore(): Promise<Store>;
  /** The store for `use`, closed after it. */
  withStore<T>(use: (store: Store) => Promise<T>): Promise<T>;
  /** Starts the process (`name`: its log and config files; `solver`: config over the defaults) and sets `service`. */
  start(options: { name: string; solver?: Record<string, unknown> }): Promise<LoadService>;
  /** SIGKILLs the process, if any. */
  kill(): Promise<void>;
};

export function useRestartedService(engine: "pglite" | "postgres"): RestartedService {
  let database: { url: string; drop(): Promise<void> } | undefined;
  let dataDir = "";
  const run = {
    service: undefined,
    openStore: () => (database ? createStore({ databaseUrl: database.url }) : createStore({ dataDir })),
    async withStore(use) {
      const store = await run.openStore();
      try {
        return await use(store);
      } finally {
        await store.close();
      }
    },
    async start({ name, solver }) {
      const chains = run.env.config.chains.map((c) => (c.id === run.env.origin.chainId ? { ...c, rpcUrl: run.proxy.url } : c));
      run.service = await startLoadService(
        { ...run.env, config: { ...run.env.config, chains } },
        { ...(database ? { databaseUrl: database.url } : { dataDir }), config: { solver: { pollIntervalMs: 100, ...solver } }, name: `${name}-${engine}` },
      );
      return run.service;
    },
    async kill() {
      await run.service?.kill();
      run.service = undefined;
    },
  } as RestartedService;

  before(async function () {
    skipUnlessFaults(this);
    run.env = await startTwoChains();
    run.proxy = await startChainProxy(run.env.origin.rpcUrl);
    dataDir = `${run.env.dir}/service-data`;
    if (engine === "postgres") database = await createScratchDatabase();
  });
  afterEach(async () => {
    await run.proxy?.setMode({ kind: "pass" });
    await run.env?.origin.testClient.setAutomine(true);
    await run.kill();
  });
  after(async () => {
    await run.kill();
    await run.proxy?.close();
    await database?.drop().catch(() => {});
    await run.env?.close();
  });
  return run;
}

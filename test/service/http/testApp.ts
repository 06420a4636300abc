/** Shared fixture of the HTTP tests: a config built in memory and an app listening on loopback. */
import type { FastifyServerOptions } from "fastify";
import { parseConfig, resolveChainContracts, type Env } from "../../../ts/service/config/parseConfig.ts";
import type { FerryConfig } from "../../../ts/service/config/configSchema.ts";
import { buildApp, type AppDeps } from "../../../ts/service/http/app.ts";
import type { FerryApp } from "../../../ts/service/http/ferryApp.ts";
import { createChainClients } from "../../../ts/service/chains/chainClients.ts";
import { createTransactionIndexer } from "../../../ts/service/solver/indexer/indexTransaction.ts";
import { createFastFiller } from "../../../ts/service/solver/fill/fastFill.ts";

export const FIXTURE_ADDRESSES = {
  depository: "0x1111111111111111111111111111111111111111",
  attestedReceiver: "0x2222222222222222222222222222222222222222",
  multicaller: "0x3333333333333333333333333333333333333333",
} as const;

export const FIXTURE_STABLECOIN = "0x4444444444444444444444444444444444444444";

/** A two-chain config (contracts given in the file), with optional overrides of the file JSON. */
export function fixtureConfig(file: Record<string, unknown> = {}, env: Env = {}): FerryConfig {
  const chain = (id: number, name: string) => ({
    id,
    name,
    displayName: name[0]!.toUpperCase() + name.slice(1),
    rpcUrl: "http://127.0.0.1:1",
    nativeCurrency: { symbol: "ETH", name: "Ether", decimals: 18 },
    erc20Currencies: [{ address: FIXTURE_STABLECOIN, symbol: "USDC", name: "USD Coin", decimals: 6 }],
    contracts: FIXTURE_ADDRESSES,
  });
  return resolveChainContracts(
    parseConfig({ chains: [chain(31337, "origin"), chain(31338, "destination")], ...file }, env, "/tmp"),
    new Map(),
  );
}

export type Listening = { app: FerryApp; url: string; close: () => Promise<void> };

/** The deps `startServer` composes: with a store, POST /transactions/index gets the solver's indexer and POST /fast-fill its fast fill (over the config's chains). */
export function withServerDeps(config: FerryConfig, deps: AppDeps = {}): AppDeps {
  if (!deps.store || deps.transactionIndexer) return deps;
  const clients = deps.chainClients ?? createChainClients(config.chains);
  return {
    ...deps,
    transactionIndexer: createTransactionIndexer({ store: deps.store, clients, chains: config.chains }),
    fastFiller: createFastFiller({ store: deps.store, clients, chains: config.chains }),
  };
}

/** Builds the app (letting `setup` add test-only routes first) and listens on 127.0.0.1:<ephemeral>. */
export async function listen(options: {
  config?: FerryConfig;
  deps?: AppDeps;
  logger?: FastifyServerOptions["logger"];
  setup?: (app: FerryApp) => void;
}): Promise<Listening> {
  const config = options.config ?? fixtureConfig();
  const app = await buildApp({ config, deps: withServerDeps(config, options.deps), logger: options.logger ?? false });
  options.setup?.(app);
  const url = await app.listen({ host: "127.0.0.1", port: 0 });
  return { app, url, close: () => app.close() };
}

/** Collects pino's JSON lines. */
export function logCapture(): { lines: string[]; logger: FastifyServerOptions["logger"] } {
  const lines: string[] = [];
  return { lines, logger: { level: "trace", stream: { write: (line: string) => void lines.push(line) } } };
}

/** Asserts nothing about the body except that it is the service's error shape; returns it. */
export async function errorBody(response: Response): Promise<{ message: string; errorCode: string }> {
  const type = response.headers.get("content-type") ?? "";
  if (!type.startsWith("application/json")) throw new Error(`expected JSON, got ${type} (${response.status})`);
  const body = (await response.json()) as Record<string, unknown>;
  if (typeof body.message !== "string" || typeof body.errorCode !== "string") {
    throw new Error(`not an error body: ${JSON.stringify(body)}`);
  }
  return body as { message: string; errorCode: string };
}

/**
 * `store` with every repository call counted by name into `calls` (whatever the method): a test resets
 * `calls` and reads how many store calls a route made.
 */
export function countingStore<S extends object>(store: S, calls: { counts: Record<string, number> }): S {
  return new Proxy(store, {
    get(target, property, receiver) {
      const value = Reflect.get(target, property, receiver) as unknown;
      if (typeof value !== "function" || typeof property !== "string") return value;
      return (...args: unknown[]) => {
        calls.counts[property] = (calls.counts[property] ?? 0) + 1;
        return (value as (...a: unknown[]) => unknown).apply(target, args);
      };
    },
  });
}

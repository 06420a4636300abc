/**
 * The service process: loads the configuration, builds the HTTP app and listens (127.0.0.1 unless
 * FERRY_HOST / server.host say otherwise). Owns shutdown: SIGINT/SIGTERM close the server (in-flight
 * requests finish, new ones get 503), a second signal or a 10 s timeout forces the exit.
 *
 *   FERRY_CONFIG=ferry.json node ts/service/server.ts
 */
import { pathToFileURL } from "node:url";
import type { FastifyServerOptions } from "fastify";
import type { FerryConfig } from "./config/configSchema.ts";
import { loadConfig } from "./config/loadConfig.ts";
import { redactConfig } from "./config/redactConfig.ts";
import { buildApp, type AppDeps } from "./http/app.ts";
import type { FerryApp } from "./http/ferryApp.ts";
import { rpcReadinessCheck } from "./http/rpcReadinessCheck.ts";

export const SHUTDOWN_TIMEOUT_MS = 10_000;

export type RunningServer = { app: FerryApp; url: string; close: () => Promise<void> };

/** Builds the app and listens on `config.server`; `deps` default to RPC readiness checks per chain. */
export async function startServer(options: {
  config: FerryConfig;
  deps?: AppDeps;
  logger?: FastifyServerOptions["logger"];
}): Promise<RunningServer> {
  const { config } = options;
  const deps: AppDeps = { checks: config.chains.map(rpcReadinessCheck), ...options.deps };
  const app = await buildApp({ config, deps, logger: options.logger ?? false });
  const url = await app.listen({ host: config.server.host, port: config.server.port });
  app.log.info({ config: redactConfig(config) }, "ferry service listening");
  return { app, url, close: () => app.close() };
}

/** What delivers the signals (the process; an EventEmitter in tests). */
export type SignalSource = Pick<NodeJS.Process, "on" | "off">;

/** Closes `server` on SIGINT/SIGTERM; returns a function that removes the handlers. */
export function closeOnSignals(
  server: RunningServer,
  exit: (code: number) => void = process.exit,
  signals: SignalSource = process,
): () => void {
  let closing = false;
  const onSignal = (signal: NodeJS.Signals) => {
    if (closing) {
      server.app.log.warn({ signal }, "second signal: exiting now");
      exit(1);
      return;
    }
    closing = true;
    server.app.log.info({ signal }, "shutting down");
    const force = setTimeout(() => {
      server.app.log.error("shutdown timed out: exiting");
      exit(1);
    }, SHUTDOWN_TIMEOUT_MS);
    force.unref();
    server.close().then(
      () => {
        clearTimeout(force);
        exit(0);
      },
      (error: unknown) => {
        clearTimeout(force);
        server.app.log.error({ err: { message: (error as Error).message } }, "shutdown failed");
        exit(1);
      },
    );
  };
  signals.on("SIGINT", onSignal);
  signals.on("SIGTERM", onSignal);
  return () => {
    signals.off("SIGINT", onSignal);
    signals.off("SIGTERM", onSignal);
  };
}

async function main(): Promise<void> {
  let config: FerryConfig;
  try {
    config = await loadConfig();
  } catch (error) {
    // ConfigInvalidError messages name the field, never the value.
    process.stderr.write(`ferry: ${(error as Error).message}\n`);
    process.exit(1);
  }
  const server = await startServer({ config, logger: { level: process.env.FERRY_LOG_LEVEL ?? "info" } });
  closeOnSignals(server);
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  await main();
}

/**
 * `ferry serve [--config ferry.json]`: runs the service — HTTP API, solver, webhook worker, websocket,
 * admin API — against the chains of a configuration file (FERRY_CONFIG) plus the environment (keys,
 * DATABASE_URL, FERRY_* overrides: ts/service/config). Before it listens it checks what would make it
 * useless, each a one-line error with exit 2 naming the fix: the configuration, the solver's keys,
 * every chain's RPC answering with its configured id, Ferry's contracts at the configured addresses,
 * the database. Progress goes to stderr, one line per stage; the service's JSON log to stdout.
 * SIGINT/SIGTERM stop it cleanly (in-flight work finishes, then the store closes): exit 0; a second
 * signal, or a shutdown over 10 s, exits 1.
 */
import { resolve } from "node:path";
import { getAddress, type Address } from "viem";
import { FerryError, isFerryError } from "../../core/errors.ts";
import { connectRpcNetwork } from "../../deploy/rpcNetwork.ts";
import type { FerryConfig } from "../../service/config/configSchema.ts";
import { CONFIG_DEFAULTS } from "../../service/config/configSchema.ts";
import { loadConfig } from "../../service/config/loadConfig.ts";
import { redactUrl } from "../../service/config/redactConfig.ts";
import { isSecondSignal, SHUTDOWN_TIMEOUT_MS, startServer, type RunningServer } from "../../service/server.ts";
import { configuredStoreOptions } from "../../service/store/configuredStore.ts";
import { createStore, type Store } from "../../service/store/createStore.ts";
import { solverKeysConfigured } from "../../service/solver/startSolver.ts";
import { EXIT, type CliIo } from "../cliIo.ts";
import type { CommandGroup, GlobalFlags } from "../commandGroup.ts";
import { parseCommandArgs } from "../parseCommandArgs.ts";

const HELP = `Usage: ferry serve [--config <ferry.json>]

Runs the Ferry service: the HTTP API (and its websocket), the solver, the webhook worker and, with
FERRY_ADMIN_TOKEN, the admin API. Configuration: --config (or $FERRY_CONFIG), a JSON file with the
chains, plus environment overrides; keys come from the environment only:
  FERRY_SOLVER_KEY, FERRY_ATTESTER_KEY, FERRY_ALLOCATOR_KEY   the solver's keys (FERRY_SOLVER=off: none)
  FERRY_WEBHOOK_SECRET_KEY   64 hex chars: webhooks (the encryption key of stored API keys;
                             generate once, keep it: a key that cannot read them stops the start)
  FERRY_WEBHOOK_SECRET_KEY_PREVIOUS   the old key while ferry webhooks rotate-secret-key runs
  FERRY_ADMIN_TOKEN          32+ chars: the admin API (ferry keys|webhooks|requests --api-url)
  DATABASE_URL               PostgreSQL (else the embedded database under database.dataDir)
  FERRY_HOST, FERRY_PORT     where it listens (default 127.0.0.1:8080)
Contracts come from the file, else <deploymentsDir>/<chainId>.json (ferry deploy --config writes them).

Checked before it listens (exit 2, one line naming the fix): the configuration, the solver's keys,
each chain's RPC and chain id, code at the contracts' addresses, the database, that the webhook
secret key opens the stored webhook secrets, the port.
Progress on stderr; the service's log (JSON) on stdout. Ctrl-C / SIGTERM stop it: exit 0.

Options: --config <file>  -h, --help
`;

/** A check before listening failed: one line, exit 2. */
class ServeError extends FerryError {}

async function run(args: readonly string[], io: CliIo, _globals: GlobalFlags): Promise<number> {
  const parsed = parseCommandArgs(args, { config: { type: "string" } }, { min: 0, max: 0 });
  if (parsed.help) {
    io.stdout(HELP);
    return EXIT.OK;
  }
  const progress = (line: string) => io.stderr(`ferry serve: ${line}\n`);
  const configPath = typeof parsed.values.config === "string" && parsed.values.config !== "" ? parsed.values.config : io.env.FERRY_CONFIG || undefined;
  const env = { ...io.env, ...(configPath ? { FERRY_CONFIG: configPath } : {}) };

  const config = await loadConfig({ env });
  progress(`config ${configPath ? resolve(configPath) : "(none: defaults and environment)"}: ${config.chains.length} chain${config.chains.length === 1 ? "" : "s"}`);
  if (config.chains.length === 0) {
    throw new ServeError("NO_CHAINS", `${configPath ?? "the configuration"} has no chains: add chains[] (see examples/serve/ferry.two-nodes.json) or pass --config <ferry.json>`);
  }
  checkKeys(config);

  // Every chain reachable with its id first, then the contracts on each.
  const networks = [];
  for (const [index, chain] of config.chains.entries()) {
    const network = await connectRpcNetwork({ rpcUrl: chain.rpcUrl, env: {}, name: chain.name, source: `chains[${index}].rpcUrl`, expectedChainId: chain.id });
    const block = await network.publicClient.getBlockNumber();
    progress(`chain ${chain.id} ${chain.name}: ${new URL(chain.rpcUrl).origin} answers (block ${block})`);
    networks.push(network);
  }
  for (const [index, chain] of config.chains.entries()) {
    await checkContracts(networks[index]!.publicClient, chain, index, config.deploymentsDir);
    progress(`chain ${chain.id}: Depository ${getAddress(chain.contracts.depository)}, AttestedReceiver ${getAddress(chain.contracts.attestedReceiver)}, Multicaller ${getAddress(chain.contracts.multicaller)} found`);
  }

  const store = await openStore(config);
  let server: RunningServer;
  try {
    const { rows } = await store.engine.query<{ version: number | null }>("SELECT max(version) AS version FROM schema_migrations");
    const where = config.database.url ? `PostgreSQL ${redactUrl(config.database.url.reveal())}` : `embedded at ${config.database.dataDir}`;
    progress(`database ${where}: migrations applied (schema version ${rows[0]?.version ?? 0})`);
    server = await listen(config, store);
  } catch (error) {
    await store.close().catch(() => {});
    throw error;
  }
  progress(`listening on ${server.url} (websocket ${config.websocket.enabled ? server.url.replace(/^http/, "ws") + config.websocket.path : "off"}; admin API ${config.admin.token ? "on" : "off: set FERRY_ADMIN_TOKEN"})`);
  progress(
    server.solver
      ? `solver started: ${getAddress(config.accounts.solver!)} every ${config.solver.pollIntervalMs} ms`
      : `solver off (${config.solver.enabled ? "its keys are not all set" : "FERRY_SOLVER=off"})`,
  );
  progress(server.webhooks ? "webhook worker started" : `webhook worker off (${config.webhooks.enabled ? "FERRY_WEBHOOK_SECRET_KEY is not set" : "FERRY_WEBHOOKS=off"})`);
  if (server.webhookSecrets && server.webhookSecrets.previous > 0) {
    progress(`${server.webhookSecrets.previous} webhook secret(s) still under FERRY_WEBHOOK_SECRET_KEY_PREVIOUS: run ferry webhooks rotate-secret-key`);
  }
  progress("ready; Ctrl-C stops");
  return waitForSignal(server, store, progress);
}

function checkKeys(config: FerryConfig): void {
  if (!config.solver.enabled || solverKeysConfigured(config)) return;
  const missing = (["solver", "attester", "allocator"] as const).filter((role) => !config.keys[role]).map((role) => CONFIG_DEFAULTS.keyEnv[role]);
  throw new ServeError(
    "KEY_MISSING",
    `${missing.join(", ")} ${missing.length === 1 ? "is" : "are"} not set (or the names in keyEnv): set the solver's keys in the environment, or FERRY_SOLVER=off to serve without a solver`,
  );
}

async function checkContracts(
  publicClient: { getCode(args: { address: Address }): Promise<`0x${string}` | undefined> },
  chain: FerryConfig["chains"][number],
  index: number,
  deploymentsDir: string,
): Promise<void> {
  for (const name of ["depository", "attestedReceiver", "multicaller"] as const) {
    const address = getAddress(chain.contracts[name]);
    const code = await publicClient.getCode({ address });
    if (code === undefined || code === "0x") {
      throw new ServeError(
        "CONTRACTS_MISSING",
        `no code at chains[${index}].contracts.${name} ${address} on chain ${chain.id}: deploy with ferry deploy --config <ferry.json> (records in ${deploymentsDir}) or fix the address`,
      );
    }
  }
}

async function openStore(config: FerryConfig): Promise<Store> {
  try {
    return await createStore(configuredStoreOptions(config));
  } catch (error) {
    // The PostgreSQL engine reports a database it cannot reach as DATABASE_UNAVAILABLE (a request's
    // retryable 503); at startup it is the operator's fix, named with the driver's code.
    const unreachable = isFerryError(error) && error.code === "DATABASE_UNAVAILABLE";
    if (isFerryError(error) && !unreachable) throw error;
    if (config.database.url) {
      const cause = unreachable ? (error as { cause?: unknown }).cause : error;
      const code = (cause as { code?: string } | undefined)?.code;
      throw new ServeError("DATABASE_UNREACHABLE", `DATABASE_URL ${redactUrl(config.database.url.reveal())} does not answer (${code ?? "connection failed"}): start PostgreSQL or fix DATABASE_URL`);
    }
    throw error;
  }
}

async function listen(config: FerryConfig, store: Store): Promise<RunningServer> {
  try {
    return await startServer({ config, deps: { store }, logger: { level: config.log.level } });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "EADDRINUSE") {
      throw new ServeError("PORT_IN_USE", `${config.server.host}:${config.server.port} is in use: stop what listens there, or set FERRY_PORT (server.port)`);
    }
    throw error;
  }
}

/** Resolves with the exit code once a signal has stopped the server and the store. */
function waitForSignal(server: RunningServer, store: Store, progress: (line: string) => void): Promise<number> {
  return new Promise((resolveExit) => {
    let stoppingSince: number | undefined;
    const onSignal = (signal: NodeJS.Signals) => {
      if (stoppingSince !== undefined) {
        // The same Ctrl-C delivered twice (the process group, and npx forwarding it) is one.
        if (!isSecondSignal(stoppingSince, Date.now())) return;
        progress(`${signal} again: exiting now`);
        process.exit(1);
      }
      stoppingSince = Date.now();
      progress(`${signal}: stopping (in-flight work finishes)…`);
      const force = setTimeout(() => {
        progress(`shutdown took over ${SHUTDOWN_TIMEOUT_MS / 1000} s: exiting`);
        process.exit(1);
      }, SHUTDOWN_TIMEOUT_MS);
      force.unref();
      server
        .close()
        .then(() => store.close())
        .then(
          () => {
            clearTimeout(force);
            process.off("SIGINT", onSignal);
            process.off("SIGTERM", onSignal);
            progress("stopped");
            resolveExit(EXIT.OK);
          },
          (error: unknown) => {
            clearTimeout(force);
            progress(`stop failed: ${(error as Error).message}`);
            resolveExit(EXIT.INVALID);
          },
        );
    };
    process.on("SIGINT", onSignal);
    process.on("SIGTERM", onSignal);
  });
}

export const serve: CommandGroup = { help: HELP, run };

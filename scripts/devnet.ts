// `npm start`: the local two-chain devnet — two EDR chains on loopback with Ferry and the fUSD
// stablecoin deployed, funded test accounts and the service (embedded database). Prints progress,
// a summary (addresses only) and writes .devnet/devnet.json (with the public Hardhat test keys).
// Ctrl-C / SIGTERM stop everything and exit 0; a second Ctrl-C forces the exit.
//
//   FERRY_DEVNET_ORIGIN_PORT (8545)  FERRY_DEVNET_DESTINATION_PORT (8546)  FERRY_PORT (8080)  — 0 = any free port
//   FERRY_DEVNET_DIR (.devnet)  FERRY_DEPLOYMENTS_DIR (deployments)
//   FERRY_DEVNET_WEBHOOK_URL: the devnet API key's webhook endpoint (e.g. http://127.0.0.1:3000/webhooks/ferry,
//     where examples/webhook-receivers listen)
//   FERRY_DEVNET_API_KEY: pins the devnet API key (16-256 of A-Z a-z 0-9 _ -), the same across restarts
//   FERRY_ADMIN_TOKEN: pins the admin token (default: random per run, written to devnet.json)
//   FERRY_DEVNET_NODE: edr (default, in-process) or anvil (Foundry's Anvil, a child process per chain)
//   FERRY_DEVNET_BLOCK_TIME: seconds between blocks (1-60) once deployed; unset: a block per transaction
//   FERRY_DEVNET_LOG: the service's log (pino JSON lines): stdout, or a file to append to (default: off)
// Every start is fresh: new chains and an emptied .devnet/data (ts/devnet/devnetData.ts). A port in use
// or a bad variable is one line on stderr and exit 2.
import { relative } from "node:path";
import hre from "hardhat";
import { buildContracts, withoutDependencyWarnings } from "../ts/devnet/devnetBuild.ts";
import { devnetSummary } from "../ts/devnet/devnetSummary.ts";
import { isFerryError } from "../ts/core/errors.ts";
import { portFromEnv } from "../ts/devnet/devnetPorts.ts";
import type { RunningDevnet } from "../ts/devnet/startDevnet.ts";
import { parseDevnetNode, type DevnetNode } from "../ts/devnet/devnetNode.ts";
import { isSecondSignal } from "../ts/service/server.ts";
import { writeExplorerBundle } from "./build-explorer.ts";

const started = Date.now();
const log = (line: string) => process.stdout.write(`${line}\n`);

let devnet: RunningDevnet | undefined;
let stoppingSince: number | undefined;
const stop = (signal: NodeJS.Signals) => {
  if (stoppingSince !== undefined) {
    // The same Ctrl-C delivered twice (the terminal's process group, and npm forwarding it) is one.
    if (!isSecondSignal(stoppingSince, Date.now())) return;
    process.stderr.write(`${signal} again: exiting now\n`);
    process.exit(1);
  }
  stoppingSince = Date.now();
  log(`${signal}: stopping the service and both chains…`);
  const done = devnet?.close() ?? Promise.resolve();
  done.then(
    () => process.exit(0),
    (error: unknown) => {
      process.stderr.write(`devnet: stop failed: ${(error as Error).message}\n`);
      process.exit(1);
    },
  );
};
process.on("SIGINT", stop);
process.on("SIGTERM", stop);

/** One line on stderr: `devnet: CODE: message`; exit 2 for what the user fixes (ports, variables), else 1. */
function fail(error: unknown): never {
  if (isFerryError(error)) {
    process.stderr.write(`devnet: ${error.code}: ${error.message}\n`);
    process.exit(2);
  }
  const errno = error as NodeJS.ErrnoException & { port?: number; address?: string };
  if (errno?.code === "EADDRINUSE") {
    // A port taken between the check and the listen (the JSON-RPC server throws it uncaught).
    process.stderr.write(
      `devnet: PORT_IN_USE: ${errno.address ?? "127.0.0.1"}:${errno.port ?? "?"} is in use: move the devnet with FERRY_DEVNET_ORIGIN_PORT, FERRY_DEVNET_DESTINATION_PORT, FERRY_PORT (0 = any free port)\n`,
    );
    process.exit(2);
  }
  process.stderr.write(`devnet: ${(error as Error)?.message ?? String(error)}\n`);
  process.exit(1);
}
process.on("uncaughtException", fail);

const PINNED_API_KEY = process.env.FERRY_DEVNET_API_KEY || undefined;
if (PINNED_API_KEY !== undefined && !/^[A-Za-z0-9_-]{16,256}$/.test(PINNED_API_KEY)) {
  process.stderr.write("devnet: INVALID_API_KEY: FERRY_DEVNET_API_KEY must be 16 to 256 of A-Z a-z 0-9 _ - (e.g. ferry_devnet_0123456789)\n");
  process.exit(2);
}

let node: DevnetNode;
try {
  node = parseDevnetNode(process.env);
} catch (error) {
  process.stderr.write(`devnet: INVALID_DEVNET_NODE: ${(error as Error).message}\n`);
  process.exit(2);
}

const LOG_TARGET = process.env.FERRY_DEVNET_LOG || undefined;
const serviceLog = LOG_TARGET === undefined ? undefined : LOG_TARGET === "stdout" ? ("stdout" as const) : { file: LOG_TARGET };

try {
  // Build first (a no-op when up to date): the deploy code imports the compiled artifacts, so it is
  // loaded only afterwards. In-process, so that `npm start` is one process that Ctrl-C reaches.
  // Compiler warnings about dependencies (node_modules) are not ours to fix: not printed.
  hre.hooks.registerHandlers("solidity", {
    getCompilationJobErrors: async (context, job, output, next) => withoutDependencyWarnings(await next(context, job, output)),
  });
  await buildContracts({ build: () => hre.tasks.getTask("build").run({ quiet: true }), root: hre.config.paths.root, log });
  // The explorer page's script (/explorer), bundled from today's sources (about a second).
  await writeExplorerBundle();
  const { startDevnet } = await import("../ts/devnet/startDevnet.ts");
  devnet = await startDevnet({
    network: hre.network,
    originPort: portFromEnv("FERRY_DEVNET_ORIGIN_PORT", 8545),
    destinationPort: portFromEnv("FERRY_DEVNET_DESTINATION_PORT", 8546),
    apiPort: portFromEnv("FERRY_PORT", 8080),
    devnetDir: process.env.FERRY_DEVNET_DIR || ".devnet",
    deploymentsDir: process.env.FERRY_DEPLOYMENTS_DIR || "deployments",
    ...(process.env.FERRY_DEVNET_WEBHOOK_URL ? { webhookUrl: process.env.FERRY_DEVNET_WEBHOOK_URL } : {}),
    ...(PINNED_API_KEY ? { apiKey: PINNED_API_KEY } : {}),
    ...(serviceLog ? { serviceLog } : {}),
    node,
    log,
  });
} catch (error) {
  fail(error);
}
if (stoppingSince !== undefined) {
  // A signal arrived while starting: stop what startDevnet returned.
  await devnet.close();
  process.exit(0);
}
const shownPath = relative(process.cwd(), devnet.filePath);
log(devnetSummary(devnet.file, { devnetFilePath: shownPath.startsWith("..") ? devnet.filePath : shownPath, stablecoinSymbol: devnet.stablecoinSymbol, elapsedMs: Date.now() - started, ...(serviceLog ? { serviceLog } : {}) }));

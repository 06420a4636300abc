// `npm start`: the local two-chain devnet — two EDR chains on loopback with Ferry and the fUSD
// stablecoin deployed, funded test accounts and the service (embedded database). Prints progress,
// a summary (addresses only) and writes .devnet/devnet.json (with the public Hardhat test keys).
// Ctrl-C / SIGTERM stop everything and exit 0; a second Ctrl-C forces the exit.
//
//   FERRY_DEVNET_ORIGIN_PORT (8545)  FERRY_DEVNET_DESTINATION_PORT (8546)  FERRY_PORT (8080)  — 0 = any free port
//   FERRY_DEVNET_DIR (.devnet)  FERRY_DEPLOYMENTS_DIR (deployments)
//   FERRY_DEVNET_WEBHOOK_URL: the devnet API key's webhook endpoint (e.g. http://127.0.0.1:9000/hook)
import { relative } from "node:path";
import hre from "hardhat";
import { devnetSummary } from "../ts/devnet/devnetSummary.ts";
import { portFromEnv } from "../ts/devnet/devnetPorts.ts";
import type { RunningDevnet } from "../ts/devnet/startDevnet.ts";

const started = Date.now();
const log = (line: string) => process.stdout.write(`${line}\n`);

let devnet: RunningDevnet | undefined;
let stopping = false;
const stop = (signal: NodeJS.Signals) => {
  if (stopping) {
    process.stderr.write(`${signal} again: exiting now\n`);
    process.exit(1);
  }
  stopping = true;
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

try {
  // Build first (a no-op when up to date): the deploy code imports the compiled artifacts, so it is
  // loaded only afterwards. In-process, so that `npm start` is one process that Ctrl-C reaches.
  log("building the contracts…");
  await hre.tasks.getTask("build").run({ quiet: true });
  const { startDevnet } = await import("../ts/devnet/startDevnet.ts");
  devnet = await startDevnet({
    network: hre.network,
    originPort: portFromEnv("FERRY_DEVNET_ORIGIN_PORT", 8545),
    destinationPort: portFromEnv("FERRY_DEVNET_DESTINATION_PORT", 8546),
    apiPort: portFromEnv("FERRY_PORT", 8080),
    devnetDir: process.env.FERRY_DEVNET_DIR || ".devnet",
    deploymentsDir: process.env.FERRY_DEPLOYMENTS_DIR || "deployments",
    ...(process.env.FERRY_DEVNET_WEBHOOK_URL ? { webhookUrl: process.env.FERRY_DEVNET_WEBHOOK_URL } : {}),
    log,
  });
} catch (error) {
  process.stderr.write(`devnet: ${(error as Error).message}\n`);
  process.exit(1);
}
if (stopping) {
  // A signal arrived while starting: stop what startDevnet returned.
  await devnet.close();
  process.exit(0);
}
const shownPath = relative(process.cwd(), devnet.filePath);
log(devnetSummary(devnet.file, { devnetFilePath: shownPath.startsWith("..") ? devnet.filePath : shownPath, stablecoinSymbol: devnet.stablecoinSymbol, elapsedMs: Date.now() - started }));

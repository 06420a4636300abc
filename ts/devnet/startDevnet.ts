/**
 * Starts the devnet: two EDR chains on loopback (hardhat.config.ts "origin" 31337 and "destination"
 * 31338), Ferry deployed on both at the same addresses (ts/deploy, records in `deploymentsDir`), the
 * 6-decimal stablecoin at the same address on both, minted to the test accounts, then the service
 * (embedded PGlite, emptied first: the chains start fresh every run, ./devnetData.ts) with its admin
 * API on — and writes `devnet.json`. Ports are checked free first (./devnetPorts.ts). `close()` stops
 * the service, then both chains.
 */
import { randomBytes } from "node:crypto";
import { createWriteStream, type WriteStream } from "node:fs";
import { mkdir } from "node:fs/promises";
import { dirname, join, resolve } from "node:path";
import type { NetworkManager } from "hardhat/types/network";
import { startServer, type RunningServer } from "../service/server.ts";
import { apiKeyStore } from "../service/store/apiKeys.ts";
import { webhookStore } from "../service/store/webhooks/webhooks.ts";
import { parseWebhookSecretKey } from "../service/store/webhooks/webhookSecrets.ts";
import { startDevnetChains, type DevnetChains } from "./devnetChains.ts";
import type { DevnetNode } from "./devnetNode.ts";
import { devnetConfig } from "./devnetConfig.ts";
import { writeDevnetFile, type DevnetFile } from "./devnetFile.ts";
import { DEVNET_STABLECOIN } from "./devnetStablecoin.ts";
import { resetDevnetData } from "./devnetData.ts";
import { assertPortsFree } from "./devnetPorts.ts";

export type DevnetOptions = {
  network: NetworkManager;
  host?: string;
  originPort: number;
  destinationPort: number;
  apiPort: number;
  /** Where devnet.json and the database go. Default `.devnet`. */
  devnetDir?: string;
  /** Where the deployment records go (the service reads them from there). Default `deployments`. */
  deploymentsDir?: string;
  cwd?: string;
  /**
   * When set, the devnet API key's webhook endpoint (e.g. a receiver on loopback): every status change
   * of a request quoted with the key is POSTed there, signed with the key (ts/service/webhooks).
   */
  webhookUrl?: string;
  /** The devnet API key (FERRY_DEVNET_API_KEY): the same key across restarts. Default: a new random key each run. */
  apiKey?: string;
  /**
   * The service's log (pino JSON lines, at the config's level: FERRY_LOG_LEVEL): `"stdout"`, or
   * appended to a file. Default: not written (the terminal shows the devnet's progress and summary).
   */
  serviceLog?: "stdout" | { file: string };
  /** The node serving the chains and how they mine (./devnetNode.ts: FERRY_DEVNET_NODE, FERRY_DEVNET_BLOCK_TIME). Default EDR, a block per transaction. */
  node?: DevnetNode;
  /** The process environment: the service keys are set in it (FERRY_ALLOCATOR_KEY …). */
  env?: NodeJS.ProcessEnv;
  log?: (line: string) => void;
};
/** `server` is the running service (its store, solver and webhook worker), for in-process callers such as the tests. */
export type RunningDevnet = { file: DevnetFile; filePath: string; stablecoinSymbol: string; server: RunningServer; close: () => Promise<void> };

export { DEVNET_CHAINS } from "./devnetChains.ts";

export async function startDevnet(options: DevnetOptions): Promise<RunningDevnet> {
  const log = options.log ?? (() => {});
  const host = options.host ?? "127.0.0.1";
  const cwd = options.cwd ?? process.cwd();
  const env = options.env ?? process.env;
  const devnetDir = resolve(cwd, options.devnetDir ?? ".devnet");
  const deploymentsDir = resolve(cwd, options.deploymentsDir ?? "deployments");
  let devnetChains: DevnetChains | undefined;
  let server: RunningServer | undefined;
  let logFile: WriteStream | undefined;
  const close = async () => {
    await server?.close().catch(() => {});
    server = undefined;
    await devnetChains?.close();
    if (logFile) await new Promise((done) => logFile!.end(done));
    logFile = undefined;
  };

  try {
    await assertPortsFree(host, [
      { port: options.originPort, role: "the origin chain, FERRY_DEVNET_ORIGIN_PORT" },
      { port: options.destinationPort, role: "the destination chain, FERRY_DEVNET_DESTINATION_PORT" },
      { port: options.apiPort, role: "the API, FERRY_PORT" },
    ]);
    const dataDir = join(devnetDir, "data");
    if (resetDevnetData(dataDir)) log(`emptied ${dataDir}: the chains start fresh, so does the database`);
    devnetChains = await startDevnetChains({
      network: options.network,
      deploymentsDir,
      host,
      ports: [options.originPort, options.destinationPort],
      ...(options.node && { node: options.node }),
      log,
    });
    const { inputs, stablecoin, accounts, market, accountAbstraction } = devnetChains;
    // The service's keys, through the environment as for any deployment (never printed).
    Object.assign(env, devnetChains.serviceEnv);
    // Webhook signing keys are stored encrypted under this key (ts/service/webhooks/README.md): a fresh
    // one per devnet run unless the caller set one, so webhooks set in an earlier run must be set again.
    env.FERRY_WEBHOOK_SECRET_KEY ||= randomBytes(32).toString("hex");
    // The admin API (ferry keys|webhooks|requests on the running devnet): a fresh token per run unless set.
    env.FERRY_ADMIN_TOKEN ||= randomBytes(32).toString("hex");
    const config = devnetConfig({
      chains: inputs,
      stablecoin,
      market,
      dataDir,
      deploymentsDir,
      host,
      port: options.apiPort,
      env,
      cwd,
    });
    log("starting the service (embedded database)…");
    let logger: { level: string; stream?: WriteStream } | false = false;
    if (options.serviceLog === "stdout") logger = { level: config.log.level };
    else if (options.serviceLog) {
      const path = resolve(cwd, options.serviceLog.file);
      await mkdir(dirname(path), { recursive: true });
      logFile = createWriteStream(path, { flags: "a" });
      await new Promise<void>((opened, failed) => logFile!.once("open", () => opened()).once("error", failed));
      logger = { level: config.log.level, stream: logFile };
    }
    // Everything the service runs (the solver polling every DEVNET_SOLVER_POLL_MS) is in `config`.
    server = await startServer({ config, logger });
    // A real key in the service's store (only its hash is stored): requests made with it get the
    // higher rate limit. It is a devnet credential and goes only into devnet.json.
    const { key: apiKey } = await apiKeyStore(server.store).createApiKey("devnet", undefined, options.apiKey ? { key: options.apiKey } : {});
    if (options.webhookUrl) {
      const webhooks = webhookStore(server.store, { secretKey: parseWebhookSecretKey(env.FERRY_WEBHOOK_SECRET_KEY), allowHttp: config.webhooks.allowHttp, denyNetworks: config.webhooks.denyNetworks });
      await webhooks.setWebhook({ apiKey, url: options.webhookUrl });
    }

    const file: DevnetFile = {
      apiUrl: server.url,
      websocketUrl: `${server.url.replace(/^http/, "ws")}${config.websocket.path}`,
      chains: inputs.map((input) => ({
        id: input.id,
        name: input.name,
        rpcUrl: input.rpcUrl,
        contracts: {
          ...input.record.addresses,
          ...(input.record.multicall3 ? { multicall3: input.record.multicall3 } : {}),
          stablecoin,
          ...accountAbstraction,
          ...(input.id === market.chainId
            ? { wrappedNative: market.wrappedNative, uniswapV2Factory: market.uniswapV2Factory, uniswapV2Pair: market.uniswapV2Pair, vault: market.vault }
            : {}),
        },
      })),
      accounts,
      apiKey,
      adminToken: env.FERRY_ADMIN_TOKEN,
      ...(options.webhookUrl ? { webhookUrl: options.webhookUrl } : {}),
    };
    const filePath = join(devnetDir, "devnet.json");
    await writeDevnetFile(filePath, file);
    return { file, filePath, stablecoinSymbol: DEVNET_STABLECOIN.symbol, server, close };
  } catch (error) {
    await close();
    throw error;
  }
}

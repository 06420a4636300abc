/**
 * The whole service for a fault test, in process (`startServer`: HTTP API, solver, webhook worker) on
 * one store engine (PGlite on disk, or PostgreSQL in a fresh schema), reading each chain through the
 * RPC URLs the test gives it (proxies in front of the nodes of ./chainNodes.ts). An API key with a
 * webhook to a loopback receiver, so every status change is delivered somewhere the test can count.
 * Quotes go through POST /quote/v2 with the key; deposits are the quote's own deposit step, sent by a
 * user's wallet straight to the node.
 */
import { randomBytes } from "node:crypto";
import { join } from "node:path";
import pg from "pg";
import { Registry } from "prom-client";
import { zeroAddress, type Address, type Hex } from "viem";
import { devnetConfig } from "../../ts/devnet/devnetConfig.ts";
import type { FerryConfig, RpcSettings } from "../../ts/service/config/configSchema.ts";
import { startServer, type RunningServer } from "../../ts/service/server.ts";
import { apiKeyStore } from "../../ts/service/store/apiKeys.ts";
import { createStore, type Store } from "../../ts/service/store/createStore.ts";
import { webhookStore } from "../../ts/service/store/webhooks/webhooks.ts";
import { parseWebhookSecretKey } from "../../ts/service/store/webhooks/webhookSecrets.ts";
import { startReceiver, type Receiver } from "../service/webhooks/webhookReceiver.ts";
import type { ChainNode, FaultChains } from "./chainNodes.ts";

export type FaultEngine = "pglite" | "postgres";

/** The PostgreSQL the tests use (FERRY_TEST_DATABASE_URL, else the local server), or why not. */
export async function faultPostgresUrl(): Promise<{ url: string } | { reason: string }> {
  // As the store tests: TCP first, then the local socket (peer auth as root).
  const urls = process.env.FERRY_TEST_DATABASE_URL
    ? [process.env.FERRY_TEST_DATABASE_URL]
    : ["postgres://root@127.0.0.1:5432/ferry_test", "postgres://root@/ferry_test?host=/var/run/postgresql"];
  const reasons: string[] = [];
  for (const url of urls) {
    const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 3000 });
    try {
      await client.connect();
      await client.query("SELECT 1");
      return { url };
    } catch (error) {
      reasons.push((error as Error).message);
    } finally {
      await client.end().catch(() => {});
    }
  }
  return { reason: reasons.join("; ") };
}

/** A store on `engine`, and how to drop it afterwards. */
export async function faultStore(engine: FaultEngine, dir: string): Promise<{ store: Store; drop(): Promise<void> }> {
  if (engine === "pglite") return { store: await createStore({ dataDir: join(dir, `pglite-${randomBytes(4).toString("hex")}`) }), drop: async () => {} };
  const resolved = await faultPostgresUrl();
  if ("reason" in resolved) throw new Error(`PostgreSQL unreachable: ${resolved.reason}`);
  const schema = `ferry_faults_${process.pid}_${randomBytes(4).toString("hex")}`;
  return {
    store: await createStore({ databaseUrl: resolved.url, schema }),
    async drop() {
      const client = new pg.Client({ connectionString: resolved.url });
      await client.connect();
      await client.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
      await client.end();
    },
  };
}

export type Quote = { steps: { id: string; items: { data: { to: Address; data: Hex; value: string; chainId: number } }[] }[]; protocol: { v2: { orderId: Hex } } };

export type FaultService = {
  url: string;
  store: Store;
  config: FerryConfig;
  server: RunningServer;
  receiver: Receiver;
  /** Quotes `amount` wei native → native from origin to destination for `user`, with the API key (`ttl`: seconds to deposit). */
  quote(user: Address, amount: bigint, ttl?: number): Promise<{ quote: Quote; requestId: Hex; orderId: Hex }>;
  /** Sends the quote's deposit step from the user's wallet straight to the origin node; returns the hash once mined. */
  deposit(user: { privateKey: Hex }, quote: Quote): Promise<Hex>;
  /** POST /transactions/index for an origin transaction: the client's nudge; returns the body. */
  indexTransaction(txHash: Hex): Promise<{ requestIds: string[] }>;
  /** GET /metrics. */
  metrics(): Promise<string>;
  /** The service's log lines (JSON). */
  logs(): string[];
  close(): Promise<void>;
};

export async function startFaultService(args: {
  chains: FaultChains;
  engine: FaultEngine;
  rpcUrls: { origin: string[]; destination: string[] };
  confirmations?: { origin: number; destination: number };
  rpc?: Partial<RpcSettings>;
}): Promise<FaultService> {
  const { chains } = args;
  const secretKey = randomBytes(32).toString("hex");
  const base = devnetConfig({
    chains: [
      { id: chains.origin.chainId, name: "ferry-origin", displayName: "Ferry Origin", rpcUrl: args.rpcUrls.origin[0]!, record: chains.records.get(chains.origin.chainId)! },
      { id: chains.destination.chainId, name: "ferry-destination", displayName: "Ferry Destination", rpcUrl: args.rpcUrls.destination[0]!, record: chains.records.get(chains.destination.chainId)! },
    ],
    stablecoin: chains.stablecoin,
    dataDir: join(chains.dir, "unused-data"),
    deploymentsDir: chains.deploymentsDir,
    host: "127.0.0.1",
    port: 0,
    env: { ...chains.serviceEnv, FERRY_WEBHOOK_SECRET_KEY: secretKey },
    cwd: chains.dir,
  });
  const confirmations = args.confirmations ?? { origin: 3, destination: 2 };
  const config: FerryConfig = {
    ...base,
    rateLimits: { anonymousPerMinute: 1_000_000, apiKeyPerMinute: 1_000_000, failedPermitsPerUserPerHour: 1_000_000 },
    webhooks: { ...base.webhooks, baseDelayMs: 200, maxDelayMs: 2_000, pollIntervalMs: 50, timeoutMs: 2_000, leaseMs: 10_000 },
    chains: base.chains.map((c) => {
      const origin = c.id === chains.origin.chainId;
      const urls = origin ? args.rpcUrls.origin : args.rpcUrls.destination;
      return {
        ...c,
        rpcUrl: urls[0]!,
        rpcUrls: urls,
        confirmations: origin ? confirmations.origin : confirmations.destination,
        rpc: { ...c.rpc, timeoutMs: 1_500, retryCount: 1, retryDelayMs: 100, ...args.rpc },
      };
    }),
  };
  const { store, drop } = await faultStore(args.engine, chains.dir);
  const receiver = await startReceiver();
  const lines: string[] = [];
  let server: RunningServer;
  try {
    const { key } = await apiKeyStore(store).createApiKey("faults");
    await webhookStore(store, { secretKey: parseWebhookSecretKey(secretKey) }).setWebhook({ apiKey: key, url: receiver.url });
    server = await startServer({
      config,
      deps: { store, metricsRegistry: new Registry() },
      solver: { pollIntervalMs: 100 },
      logger: { level: process.env.FERRY_FAULT_LOG_LEVEL ?? "info", stream: { write: (line: string) => void lines.push(line) } },
    });
    const service: FaultService = {
      url: server.url,
      store,
      config,
      server,
      receiver,
      async quote(user, amount, ttl) {
        const response = await fetch(`${server.url}/quote/v2`, {
          method: "POST",
          headers: { "content-type": "application/json", "x-api-key": key },
          body: JSON.stringify({
            user,
            originChainId: chains.origin.chainId,
            destinationChainId: chains.destination.chainId,
            originCurrency: zeroAddress,
            destinationCurrency: zeroAddress,
            amount: amount.toString(),
            tradeType: "EXACT_INPUT",
            ...(ttl !== undefined && { ttl }),
          }),
        });
        const body = (await response.json()) as Quote & { requestId?: Hex; message?: string };
        if (response.status !== 200) throw new Error(`quote ${response.status}: ${JSON.stringify(body)}`);
        const endpoint = (body.steps.at(-1)!.items[0] as unknown as { check: { endpoint: string } }).check.endpoint;
        const requestId = new URL(endpoint, server.url).searchParams.get("requestId") as Hex;
        return { quote: body, requestId: requestId.toLowerCase() as Hex, orderId: body.protocol.v2.orderId.toLowerCase() as Hex };
      },
      async deposit(user, quote) {
        return sendDeposit(chains.origin, user, quote);
      },
      async indexTransaction(txHash) {
        const response = await fetch(`${server.url}/transactions/index`, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ chainId: chains.origin.chainId, txHash }),
        });
        const body = (await response.json()) as { requestIds: string[] };
        if (response.status !== 200) throw new Error(`index ${response.status}: ${JSON.stringify(body)}`);
        return body;
      },
      metrics: async () => (await fetch(`${server.url}/metrics`)).text(),
      logs: () => lines,
      async close() {
        await server.close().catch(() => {});
        await receiver.close().catch(() => {});
        await store.close().catch(() => {});
        await drop().catch(() => {});
      },
    };
    return service;
  } catch (error) {
    await receiver.close().catch(() => {});
    await store.close().catch(() => {});
    await drop().catch(() => {});
    throw error;
  }
}

/** The quote's deposit step sent from `user`'s wallet to `node`; the hash once mined. */
export async function sendDeposit(node: ChainNode, user: { privateKey: Hex }, quote: Quote): Promise<Hex> {
  const step = quote.steps.find((s) => s.id === "deposit")!.items[0]!.data;
  const wallet = node.walletClient(user.privateKey);
  const hash = await wallet.sendTransaction({ account: wallet.account, chain: wallet.chain, to: step.to, data: step.data, value: BigInt(step.value) });
  const receipt = await node.publicClient.waitForTransactionReceipt({ hash });
  if (receipt.status !== "success") throw new Error(`deposit ${hash} reverted`);
  return hash;
}

/**
 * Chain incidents on real chains over real HTTP: two EDR chains (the devnet's deployment, Multicall3
 * included), the destination's RPC behind a loopback proxy the test closes, the chain watch ticked by
 * hand on an injected clock. Each row of the issue: a chain that stops producing blocks (lagging, and
 * back), an RPC that dies (disabled, and back), a chain the solver halts after a deep reorg (disabled,
 * /ready 503, the waiting request's status says why) — each shown by GET /chains and GET /ready and
 * refused by POST /quote/v2 with 400 UNSUPPORTED_CHAIN.
 */
import { expect } from "chai";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { Hex } from "viem";
import { createChainClients, type ChainClients } from "../../../ts/service/chains/chainClients.ts";
import { createChainWatch, type ChainWatch } from "../../../ts/service/chains/chainWatch.ts";
import { RPC_FAILURES_TO_DISABLE } from "../../../ts/service/chains/chainHealth.ts";
import { resolveAccounts } from "../../../ts/service/chains/serviceAccounts.ts";
import { createSolverInventory } from "../../../ts/service/chains/solverInventory.ts";
import type { FerryConfig } from "../../../ts/service/config/configSchema.ts";
import { MULTICALL3_ADDRESS } from "../../../ts/deploy/multicall3.ts";
import { rpcReadinessCheck } from "../../../ts/service/http/rpcReadinessCheck.ts";
import { createSolver } from "../../../ts/service/solver/startSolver.ts";
import { createStore, type Store } from "../../../ts/service/store/createStore.ts";
import { SILENT_LOG } from "../../../ts/service/logging/logger.ts";
import { makeIntent, quoteNative, saveQuote, startTwoChains, type TwoChains } from "../solver/twoChains.ts";
import { errorBody, listen, type Listening } from "./testApp.ts";

type ChainView = { id: number; disabled: boolean; depositEnabled: boolean; blockProductionLagging: boolean; incident: string | null; contracts: { multicall3: string } };

/** A JSON-RPC proxy on loopback to `upstream`; `close()` makes every call to it fail (connection refused). */
async function rpcProxy(upstream: string, port = 0): Promise<{ url: string; port: number; close: () => Promise<void> }> {
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      fetch(upstream, { method: "POST", headers: { "content-type": "application/json" }, body: Buffer.concat(chunks) })
        .then(async (answer) => response.writeHead(answer.status, { "content-type": "application/json" }).end(await answer.text()))
        .catch(() => response.writeHead(502).end());
    });
  });
  await new Promise<void>((resolve) => server.listen(port, "127.0.0.1", resolve));
  const bound = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${bound}`,
    port: bound,
    close: () => new Promise((resolve) => { server.closeAllConnections(); server.close(() => resolve()); }),
  };
}

describe("GET /chains, GET /ready and the quote react to chain incidents", function () {
  this.timeout(300_000);
  let env: TwoChains;
  let store: Store;
  let proxy: Awaited<ReturnType<typeof rpcProxy>>;
  let config: FerryConfig;
  let clients: ChainClients;
  let watch: ChainWatch;
  let server: Listening;
  let nowMs = Date.now();

  before(async function () {
    env = await startTwoChains();
    store = await createStore();
    proxy = await rpcProxy(env.destination.rpcUrl);
    config = {
      ...env.config,
      chains: env.config.chains.map((chain) =>
        chain.id === env.origin.chainId
          ? { ...chain, confirmations: 1, expectedBlockTimeSeconds: 1 }
          : { ...chain, rpcUrl: proxy.url, rpcUrls: [proxy.url], rpc: { ...chain.rpc, timeoutMs: 3_000, retryCount: 0 } },
      ),
    };
    const solver = resolveAccounts(config).solver!;
    // Every tick reads the head (no shared head younger than a tick): the ticks here come back to back.
    clients = createChainClients(config.chains, { solver, headMaxAgeMs: 0 });
    const inventory = createSolverInventory({ chains: config.chains, clients, store, solver: solver.address, ttlMs: 0 });
    watch = createChainWatch({ chains: config.chains, clients, store, inventory, intervalMs: 60_000, headTimeoutMs: 5_000, now: () => nowMs });
    server = await listen({ config, deps: { store, chainClients: clients, inventory, chainWatch: watch, checks: clients.all().map(rpcReadinessCheck) } });
  });
  after(async function () {
    await server?.close();
    await proxy?.close();
    await store?.close();
    await env?.close();
  });

  const chains = async () => {
    const response = await fetch(`${server.url}/chains`);
    expect(response.status).to.equal(200);
    const body = (await response.json()) as { chains: ChainView[] };
    return { origin: body.chains.find((c) => c.id === env.origin.chainId)!, destination: body.chains.find((c) => c.id === env.destination.chainId)! };
  };
  const quote = () => quoteNative(server.url, env, 10n ** 16n);
  const ready = async () => {
    const response = await fetch(`${server.url}/ready`);
    return { status: response.status, body: (await response.json()) as { errorCode?: string; checks: { name: string; ok: boolean }[]; chains: { id: number; incident: string | null }[] } };
  };

  it("healthy chains: nothing flagged, multicall3 is the canonical Multicall3 with its code on both chains, quotes are served", async function () {
    await watch.tick();
    const { origin, destination } = await chains();
    for (const chain of [origin, destination]) {
      const { disabled, depositEnabled, blockProductionLagging, incident } = chain;
      expect({ disabled, depositEnabled, blockProductionLagging, incident }, `chain ${chain.id}`).to.deep.equal({ disabled: false, depositEnabled: true, blockProductionLagging: false, incident: null });
      expect(chain.contracts.multicall3).to.equal(MULTICALL3_ADDRESS);
    }
    for (const chain of [env.origin, env.destination]) expect((await chain.publicClient.getCode({ address: MULTICALL3_ADDRESS }))?.length).to.be.greaterThan(2);
    expect((await quote()).status).to.equal(200);
    const { status, body } = await ready();
    expect(status).to.equal(200);
    expect(body.chains.map((c) => c.incident)).to.deep.equal([null, null]);
  });

  it("a chain that stops producing blocks is lagging after 3 block times (deposits closed, quotes refused), and recovers when a block comes", async function () {
    await watch.tick();
    nowMs += 3_500; // 3.5 expected block times of 1 s without a new head
    await watch.tick();
    const { origin } = await chains();
    expect(origin).to.include({ blockProductionLagging: true, depositEnabled: false, disabled: false, incident: "BLOCK_PRODUCTION_LAGGING" });
    const refused = await errorBody(await quote());
    expect(refused.errorCode).to.equal("UNSUPPORTED_CHAIN");
    expect(refused.message).to.contain("BLOCK_PRODUCTION_LAGGING");
    expect((await ready()).body.chains.find((c) => c.id === env.origin.chainId)!.incident).to.equal("BLOCK_PRODUCTION_LAGGING");

    await env.origin.testClient.mine({ blocks: 1 });
    nowMs += 100;
    await watch.tick();
    expect((await chains()).origin).to.include({ blockProductionLagging: false, depositEnabled: true, incident: null });
    expect((await quote()).status).to.equal(200);
  });

  it("an RPC that dies on every URL disables its chain (quotes to it refused), and it comes back with the RPC", async function () {
    await proxy.close();
    // One failed read is not an incident (a busy node); RPC_FAILURES_TO_DISABLE in a row are.
    for (let i = 1; i < RPC_FAILURES_TO_DISABLE; i++) await watch.tick();
    expect((await chains()).destination).to.include({ disabled: false, incident: null });
    await watch.tick();
    const { destination } = await chains();
    expect(destination).to.include({ disabled: true, depositEnabled: false, incident: "RPC_UNREACHABLE" });
    const refused = await errorBody(await quote());
    expect(refused.errorCode).to.equal("UNSUPPORTED_CHAIN");
    expect(refused.message).to.contain(`destination chain ${env.destination.chainId}`).and.to.contain("RPC_UNREACHABLE");
    const { status, body } = await ready();
    expect(status).to.equal(503);
    expect(body.checks.find((c) => c.name.startsWith("rpc:") && !c.ok)).to.not.equal(undefined);

    proxy = await rpcProxy(env.destination.rpcUrl, proxy.port);
    // The transport cools a failed URL down (1 s after the first failure): the next tick after that reads it.
    await new Promise((resolve) => setTimeout(resolve, 1_100));
    await watch.tick();
    expect((await chains()).destination).to.include({ disabled: false, depositEnabled: true, incident: null });
  });

  it("a chain the solver halts after a deep reorg is disabled, /ready says so, and a waiting request's status names it", async function () {
    const solver = createSolver({ config, store, clients, log: SILENT_LOG });
    const origin = env.origin;
    // The indexer records a final block (1 confirmation: the head), then a reorg replaces it.
    const snap: Hex = await origin.testClient.snapshot();
    await origin.testClient.mine({ blocks: 3 });
    await solver.tick();
    await origin.testClient.revert({ id: snap });
    await origin.testClient.increaseTime({ seconds: 9 });
    await origin.testClient.mine({ blocks: 6 });
    await solver.tick();
    expect(await store.listHaltedChains()).to.deep.equal([origin.chainId]);

    const waiting = makeIntent(env);
    await saveQuote(store, waiting);
    nowMs += 100;
    await watch.tick();
    expect((await chains()).origin).to.include({ disabled: true, depositEnabled: false, incident: "CHAIN_HALTED" });
    const refused = await errorBody(await quote());
    expect(refused.errorCode).to.equal("UNSUPPORTED_CHAIN");
    expect(refused.message).to.contain("CHAIN_HALTED");

    const { status, body } = await ready();
    expect(status).to.equal(503);
    expect(body.errorCode).to.equal("NOT_READY");
    expect(body.checks).to.deep.include({ name: `chain:${config.chains[0]!.name}`, ok: false });
    expect(body.chains.find((c) => c.id === origin.chainId)!.incident).to.equal("CHAIN_HALTED");

    const record = (await (await fetch(`${server.url}/intents/status/v3?requestId=${waiting.requestId}`)).json()) as { status: string; details: { chainIncident?: unknown } | null };
    expect(record.status).to.equal("waiting");
    expect(record.details).to.deep.equal({ chainIncident: { chainId: origin.chainId, incident: "CHAIN_HALTED" } });
  });
});

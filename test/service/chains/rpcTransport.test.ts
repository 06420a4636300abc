// The chain transport over several RPC URLs (ts/service/chains/rpcTransport.ts) against a real EDR
// chain behind real proxies (test/faults/chainProxy.ts): failover on a refused, hanging or failing URL,
// a stale URL demoted and never asked for blocks it lacks, backoff rounds, the deadline, per-URL
// metrics with redacted labels; plus the pure parts (ranking, backoff, error shapes).
import { expect } from "chai";
import { network } from "hardhat";
import { Registry } from "prom-client";
import { createPublicClient, defineChain, keccak256, parseEther, type PublicClient } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { createChainMetrics } from "../../../ts/service/chains/chainMetrics.ts";
import { withRpcDeadline } from "../../../ts/service/chains/rpcDeadline.ts";
import { isEndpointFault, isLogRangeError } from "../../../ts/service/chains/rpcErrors.ts";
import { newEndpointHealth, rankEndpoints, recordAnswer, recordFailure, recordHead, retryDelayMs } from "../../../ts/service/chains/rpcHealth.ts";
import { createRpcEndpoints, HEDGE_UNKNOWN_MS, type RpcEndpoints } from "../../../ts/service/chains/rpcTransport.ts";
import { hardhatTestAccount } from "../../../ts/devnet/devnetAccounts.ts";
import { CONFIG_DEFAULTS, type RpcSettings } from "../../../ts/service/config/configSchema.ts";
import { RANGE_ERROR, startChainProxy, type ChainProxy } from "../../faults/chainProxy.ts";

const SETTINGS: RpcSettings = { timeoutMs: 800, retryCount: 1, retryDelayMs: 50, maxHeadLagBlocks: 5 };

describe("chain RPC transport (several URLs, failover, health)", function () {
  this.timeout(60_000);
  let server: { close(): Promise<void> };
  let upstream: string;
  let chainId: number;
  const proxies: ChainProxy[] = [];

  before(async () => {
    const created = await network.createServer("origin", "127.0.0.1", 0);
    const { address, port } = await created.listen();
    server = created;
    upstream = `http://${address}:${port}`;
    chainId = 31337;
    // Some history, so a frozen head can lag.
    await fetch(upstream, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "hardhat_mine", params: ["0x40"] }) });
  });
  after(async () => {
    for (const proxy of proxies) await proxy.close();
    await server?.close();
  });

  async function proxy(): Promise<ChainProxy> {
    const p = await startChainProxy(upstream);
    proxies.push(p);
    return p;
  }

  function client(urls: string[], settings: RpcSettings = SETTINGS, registry?: Registry): { client: PublicClient; rpc: RpcEndpoints } {
    const metrics = registry ? createChainMetrics(registry) : undefined;
    const rpc = createRpcEndpoints({ chainId, urls, settings, ...(metrics && { metrics }), probeIntervalMs: 60_000 });
    const chain = defineChain({ id: chainId, name: "t", nativeCurrency: { name: "E", symbol: "E", decimals: 18 }, rpcUrls: { default: { http: [urls[0]!] } } });
    return { client: createPublicClient({ chain, transport: rpc.transport, cacheTime: 0 }) as PublicClient, rpc };
  }

  it("failsOverFromARefusedUrl_andCoolsItDown_withRedactedMetricLabels", async () => {
    const [a, b] = [await proxy(), await proxy()];
    await a.setMode({ kind: "down" });
    const registry = new Registry();
    const { client: c, rpc } = client([`${a.url}/v2/s3cr3tk3yvalue`, b.url], SETTINGS, registry);
    expect((await c.getBlockNumber()) > 0n).to.equal(true);
    expect(rpc.order()[0]).to.equal(1);
    expect(rpc.health()[0]!.consecutiveFailures).to.be.at.least(1);
    const text = await registry.metrics();
    expect(text).not.to.contain("s3cr3tk3yvalue");
    expect(text).to.match(/ferry_rpc_errors_total\{chain_id="31337",rpc="0:http:\/\/127\.0\.0\.1:\d+\/\[redacted\]",kind="http"\} [1-9]/);
    expect(text).to.match(/ferry_rpc_up\{chain_id="31337",rpc="0:[^"]+"\} 0/);
    // The next call goes to the healthy URL first: the refused one is not asked again while it cools down.
    const before = b.counts.get("eth_blockNumber") ?? 0;
    await c.getBlockNumber();
    expect(b.counts.get("eth_blockNumber")).to.equal(before + 1);
  });

  it("aHangingUrlCostsTheHedgeDelayNotATimeout_forReadsSendsAndReceipts_thenTheOtherUrlAnswersAtOnce", async () => {
    // The default 4 s timeout: before, the first call (and every call after a cool-down) waited all of it.
    const settings = { ...SETTINGS, timeoutMs: 4_000 };
    const [a, b] = [await proxy(), await proxy()];
    await a.setMode({ kind: "hang" });
    const { client: c } = client([a.url, b.url], settings);
    let started = Date.now();
    await c.getBlockNumber();
    const first = Date.now() - started;
    expect(first).to.be.within(HEDGE_UNKNOWN_MS - 50, HEDGE_UNKNOWN_MS + 1500);
    started = Date.now();
    await c.getChainId();
    expect(Date.now() - started).to.be.below(HEDGE_UNKNOWN_MS);
    // A send and its receipt, the hanging URL first again (a fresh transport: nothing learnt yet).
    const { client: fresh } = client([a.url, b.url], settings);
    const account = privateKeyToAccount(hardhatTestAccount(9).privateKey);
    const nonce = await fresh.getTransactionCount({ address: account.address, blockTag: "pending" });
    const raw = await account.signTransaction({ chainId, nonce, to: account.address, value: parseEther("0.001"), gas: 21_000n, maxFeePerGas: 10n ** 10n, maxPriorityFeePerGas: 10n ** 9n, type: "eip1559" });
    started = Date.now();
    const hash = await fresh.sendRawTransaction({ serializedTransaction: raw });
    const receipt = await fresh.getTransactionReceipt({ hash });
    expect(Date.now() - started).to.be.below(settings.timeoutMs);
    expect([hash, receipt.status]).to.deep.equal([keccak256(raw), "success"]);
    expect(b.counts.get("eth_sendRawTransaction")).to.equal(1);
  });

  it("failsOverOnHttp5xxAndJsonRpcInternalErrors_butNeverOnTheRequestsOwnError", async () => {
    const [a, b] = [await proxy(), await proxy()];
    await a.setMode({ kind: "httpError", status: 503 });
    expect((await client([a.url, b.url]).client.getBlockNumber()) > 0n).to.equal(true);
    await a.setMode({ kind: "rpcError", code: -32603, message: "internal error" });
    expect((await client([a.url, b.url]).client.getBlockNumber()) > 0n).to.equal(true);
    // Invalid params: the node's answer to this request, the same everywhere; not retried elsewhere.
    await a.setMode({ kind: "pass" });
    const { client: c } = client([a.url, b.url]);
    const before = b.counts.get("eth_getBlockByNumber") ?? 0;
    const error = await c.request({ method: "eth_getBlockByNumber", params: ["0xnotablock" as `0x${string}`, false] }).catch((e: unknown) => e);
    expect(error).to.be.instanceOf(Error);
    expect(b.counts.get("eth_getBlockByNumber") ?? 0).to.equal(before);
  });

  it("aUrlAnsweringAHeadThatIsNoBlockNumber_isFailedOverAndCountedAgainstIt", async () => {
    for (const result of ["0xnothex", "", 12, null, "0x" + "f".repeat(40)]) {
      const [a, b] = [await proxy(), await proxy()];
      await a.setMode({ kind: "malformed", result, methods: ["eth_blockNumber"] });
      const registry = new Registry();
      const { client: c, rpc } = client([a.url, b.url], SETTINGS, registry);
      const answer = await c.getBlockNumber().catch((e: unknown) => e);
      expect(typeof answer, `head answered ${JSON.stringify(result)}`).to.equal("bigint");
      expect(b.counts.get("eth_blockNumber"), "asked the other URL").to.be.at.least(1);
      expect(rpc.health()[0]!.consecutiveFailures, "a fault of the URL").to.be.at.least(1);
      expect(await registry.metrics()).to.match(/ferry_rpc_errors_total\{chain_id="31337",rpc="0:[^"]+",kind="malformed"\} [1-9]/);
    }
  });

  it("demotesAStaleUrl_andNeverGivesItALogReadBeyondItsHead", async () => {
    const [a, b] = [await proxy(), await proxy()];
    const answer = (await (await fetch(upstream, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "eth_blockNumber", params: [] }) })).json()) as { result: string };
    const head = BigInt(answer.result);
    await a.setMode({ kind: "stale", head: head - 30n });
    const { client: c, rpc } = client([a.url, b.url]);
    // The first head read asks the stale URL first (nothing known yet); its head is then known to be behind.
    await c.getBlockNumber();
    await b.setMode({ kind: "pass" });
    // Another URL reports the real head: the stale URL is demoted and its answers are not taken.
    const fresh = await c.getBlockNumber();
    expect(fresh).to.equal(head);
    expect(rpc.order()).to.deep.equal([1, 0]);
    // A log read up to the head never reaches the URL that does not have it.
    const logsBefore = a.counts.get("eth_getLogs") ?? 0;
    await c.getLogs({ fromBlock: head - 10n, toBlock: head });
    expect(a.counts.get("eth_getLogs") ?? 0).to.equal(logsBefore);
    // With the fresh URL down, the read is refused rather than answered with the stale node's nothing.
    await b.setMode({ kind: "down" });
    const error = (await c.getLogs({ fromBlock: head - 10n, toBlock: head }).catch((e: unknown) => e)) as { code?: string; walk?: (fn: (e: unknown) => boolean) => unknown };
    const codes = JSON.stringify(error, Object.getOwnPropertyNames(error));
    expect(codes).to.match(/RPC_BLOCK_NOT_AVAILABLE|HttpRequestError|HTTP request failed/);
    expect(a.counts.get("eth_getLogs") ?? 0).to.equal(logsBefore);
    await b.setMode({ kind: "pass" });
  });

  it("aLatestBlockRead_recordsTheUrlsHead_andOneFarBehindAnotherUrlsHead_isNotTaken", async () => {
    // The chain's shared head (ts/service/chains/chainHead.ts) polls eth_getBlockByNumber("latest"):
    // the transport learns the answering URL's head from it, as from eth_blockNumber.
    const single = await proxy();
    const { client: one, rpc: oneRpc } = client([single.url]);
    const block = await one.getBlock({ blockTag: "latest" });
    expect(oneRpc.health()[0]!.head).to.equal(block.number);

    // Two URLs at the same head; then the one ranked first falls 30 blocks behind (a lagging backend
    // behind its load balancer): its latest block is not taken while another URL is known ahead.
    await fetch(upstream, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "hardhat_mine", params: ["0x1e"] }) });
    const [a, b] = [await proxy(), await proxy()];
    const { client: c, rpc } = client([a.url, b.url]);
    const head = await c.getBlockNumber();
    const deadline = Date.now() + 5_000;
    while (rpc.health().some((h) => h.head !== head) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
    expect(rpc.health().map((h) => h.head)).to.deep.equal([head, head]);
    const first = rpc.order()[0]!;
    const [behind, ahead] = first === 0 ? [a, b] : [b, a];
    await behind.setMode({ kind: "stale", head: head - 30n });
    const latest = await c.getBlock({ blockTag: "latest" });
    expect(latest.number).to.equal(head);
    expect(rpc.health()[first]!.head, "the answer far behind was recorded").to.equal(head - 30n);
    expect(ahead.counts.get("eth_getBlockByNumber"), "the other URL was asked").to.be.at.least(1);
  });

  it("retriesInRoundsWithBackoff_untilTheUrlRecovers", async () => {
    const a = await proxy();
    await a.setMode({ kind: "httpError", status: 502 });
    const { client: c } = client([a.url], { ...SETTINGS, retryCount: 3, retryDelayMs: 200 });
    setTimeout(() => void a.setMode({ kind: "pass" }), 250);
    const started = Date.now();
    expect((await c.getBlockNumber()) > 0n).to.equal(true);
    expect(Date.now() - started).to.be.at.least(250);
    expect(a.counts.get("eth_blockNumber")).to.be.at.least(2);
  });

  it("aDeadlineBoundsTheWholeCall_evenWithRetriesLeft", async () => {
    const a = await proxy();
    await a.setMode({ kind: "hang" });
    const { client: c } = client([a.url], { ...SETTINGS, timeoutMs: 5_000, retryCount: 5 });
    const started = Date.now();
    const error = await withRpcDeadline(600, "test step", () => c.getBlockNumber()).catch((e: unknown) => e);
    const elapsed = Date.now() - started;
    expect(elapsed).to.be.below(2_000);
    expect(JSON.stringify(error, Object.getOwnPropertyNames(error)) + String(error)).to.match(/RPC_DEADLINE_EXCEEDED|out of time|timed out|took too long/i);
  });

  it("rankEndpoints_putsCoolingThenStaleLast_andLeavesOutUrlsBehindTheNeededBlock", () => {
    const now = 100_000;
    let a = newEndpointHealth(0, "a");
    let b = newEndpointHealth(1, "b");
    let c = newEndpointHealth(2, "c");
    a = recordFailure(a, now);
    b = recordHead(recordAnswer(b, 50), 100n, now);
    c = recordHead(recordAnswer(c, 20), 80n, now);
    expect(rankEndpoints([a, b, c], now, { maxHeadLagBlocks: 10 }).order).to.deep.equal([1, 2, 0]);
    expect(rankEndpoints([a, b, c], now, { maxHeadLagBlocks: 50 }).order).to.deep.equal([2, 1, 0]);
    expect(rankEndpoints([a, b, c], now, { maxHeadLagBlocks: 50, needsBlock: 90n })).to.deep.equal({ order: [1, 0], behind: [2] });
    // After its cooldown (1 s after one failure) a URL is back ahead of a stale one, behind the stable ones.
    expect(rankEndpoints([a, b, c], now + 1_001, { maxHeadLagBlocks: 10 }).order).to.deep.equal([1, 0, 2]);
    expect(retryDelayMs(1, 250, 0)).to.equal(125);
    expect(retryDelayMs(2, 250, 0.999)).to.be.within(499, 500);
    expect(retryDelayMs(10, 250, 0.999)).to.be.at.most(5_000);
  });

  it("recognisesProvidersLogRangeErrors_andTellsNodeFaultsFromTheRequestsOwnErrors", () => {
    const rpc = (code: number, message: string) => Object.assign(new Error(message), { code });
    for (const message of [
      "query returned more than 10000 results",
      RANGE_ERROR.message,
      "eth_getLogs is limited to a 10,000 range",
      "block range is too wide",
      "exceed maximum block range: 50000",
      "Block range limit exceeded.",
      "range too large, max range: 800",
      "query exceeds max results 20000, retry with the range 100-200",
    ]) {
      expect(isLogRangeError(rpc(-32005, message)), message).to.equal(true);
      expect(isEndpointFault(rpc(-32005, message)), message).to.equal(false);
    }
    expect(isLogRangeError(Object.assign(new Error("HTTP request failed."), { name: "HttpRequestError", status: 413 }))).to.equal(true);
    expect(isEndpointFault(rpc(-32005, "rate limit exceeded"))).to.equal(true);
    expect(isEndpointFault(rpc(-32000, "header not found"))).to.equal(true);
    expect(isEndpointFault(Object.assign(new Error("The request took too long to respond."), { name: "TimeoutError" }))).to.equal(true);
    expect(isEndpointFault(rpc(3, "execution reverted"))).to.equal(false);
    expect(isEndpointFault(rpc(-32603, "Error: VM Exception while processing transaction: reverted"))).to.equal(false);
    expect(isEndpointFault(rpc(-32000, "nonce too low"))).to.equal(false);
    expect(isEndpointFault(rpc(-32602, "invalid argument 0"))).to.equal(false);
  });

  it("usesTheConfiguredDefaults", () => {
    expect(CONFIG_DEFAULTS.rpc).to.deep.equal({ timeoutMs: 4_000, retryCount: 2, retryDelayMs: 250, maxHeadLagBlocks: 10 });
  });
});

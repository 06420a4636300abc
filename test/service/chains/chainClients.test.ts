// createChainClients (ts/service/chains/chainClients.ts): the process's clients read through every
// configured RPC URL with the chain's timeouts. A hanging URL (accepts, never answers) costs one
// bounded timeout, not a stall; a refused first URL leaves reads working through the second.
import { expect } from "chai";
import { network } from "hardhat";
import { createChainClients } from "../../../ts/service/chains/chainClients.ts";
import { readChainFinality } from "../../../ts/service/chains/chainFinality.ts";
import type { ChainConfig } from "../../../ts/service/config/configSchema.ts";
import { startChainProxy, type ChainProxy } from "../../faults/chainProxy.ts";

const A = "0x1111111111111111111111111111111111111111";

function chainConfig(rpcUrls: string[], timeoutMs: number): ChainConfig {
  return {
    id: 31337,
    name: "origin",
    displayName: "Origin",
    rpcUrl: rpcUrls[0]!,
    rpcUrls,
    rpc: { timeoutMs, retryCount: 1, retryDelayMs: 50, maxHeadLagBlocks: 10 },
    confirmations: 1,
    finalityTag: null,
    maxLogRange: 2000,
    nativeCurrency: { symbol: "ETH", name: "Ether", decimals: 18, logoURI: "" },
    erc20Currencies: [],
    contracts: { depository: A, attestedReceiver: A, multicaller: A },
    depositEnabled: true,
    disabled: false,
    baseChainId: 31337,
    tags: [],
  };
}

describe("createChainClients", function () {
  this.timeout(60_000);
  let server: { close(): Promise<void> };
  let proxies: ChainProxy[];

  before(async () => {
    const created = await network.createServer("origin", "127.0.0.1", 0);
    const { address, port } = await created.listen();
    server = created;
    const upstream = `http://${address}:${port}`;
    await fetch(upstream, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "hardhat_mine", params: ["0x20"] }) });
    proxies = [await startChainProxy(upstream), await startChainProxy(upstream)];
  });
  after(async () => {
    for (const proxy of proxies) await proxy.close();
    await server?.close();
  });

  it("aHangingOnlyUrl_failsTheReadWithinItsTimeoutRounds_insteadOfStalling", async () => {
    const [hanging] = proxies;
    await hanging!.setMode({ kind: "hang" });
    const client = createChainClients([chainConfig([hanging!.url], 500)]).get(31337);
    const started = Date.now();
    const error = await client.publicClient.getBlockNumber().catch((e: unknown) => e);
    const elapsed = Date.now() - started;
    expect(error).to.be.instanceOf(Error);
    // Two rounds of 500 ms plus a short backoff; the old single-URL client took 10 s × 2.
    expect(elapsed).to.be.below(2_500);
    await hanging!.setMode({ kind: "pass" });
  });

  it("readChainFinality_isTheDeeperOfTheConfirmationsAndTheFinalityTagsBlock", async () => {
    const [proxy] = proxies;
    const config = { ...chainConfig([proxy!.url], 1_000), confirmations: 3 };
    const head = (await readChainFinality(createChainClients([config]).get(31337))).head.number;
    expect((await readChainFinality(createChainClients([config]).get(31337))).final).to.equal(head - 2n);
    proxy!.finalizedBlock = head - 10n;
    const tagged = createChainClients([{ ...config, finalityTag: "finalized" }]).get(31337);
    expect((await readChainFinality(tagged)).final).to.equal(head - 10n);
    proxy!.finalizedBlock = head;
    expect((await readChainFinality(tagged)).final).to.equal(head - 2n);
    proxy!.finalizedBlock = null;
  });

  it("aRefusedFirstUrl_leavesReadsAndTheSolversWalletWorkingThroughTheSecond", async () => {
    const [down, up] = proxies;
    await down!.setMode({ kind: "down" });
    const clients = createChainClients([chainConfig([down!.url, up!.url], 1_000)]);
    const client = clients.get(31337);
    expect(await client.publicClient.getChainId()).to.equal(31337);
    expect((await client.publicClient.getBlock({ blockTag: "latest" })).number >= 0n).to.equal(true);
    expect(client.rpc!.order()[0]).to.equal(1);
    await down!.setMode({ kind: "pass" });
  });
});

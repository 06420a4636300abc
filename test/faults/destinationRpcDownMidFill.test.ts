// Fault: the destination chain's RPC goes away in the middle of a fill. The fill transaction reaches
// the node (and is mined) but its answer never comes back; then the RPC is down (refused) for 15 s,
// while another deposit arrives. Once it is back, both requests succeed exactly once: the lost fill is
// found by its recorded hash (never sent a second time: the solver's destination nonce moves by one
// per request), each repaid once, every status change delivered by webhook.
import { expect } from "chai";
import { parseEther } from "viem";
import { assertSettledExactlyOnce, type Expected } from "./chainAccounting.ts";
import { describeChainFault, outageMs, sleep, until } from "./chainFaultSuite.ts";
import { startFaultChains, type FaultChains } from "./chainNodes.ts";
import { startChainProxy, type ChainProxy } from "./chainProxy.ts";
import { startFaultService, type FaultService } from "./chainService.ts";
import { canonicalHex } from "../../ts/service/model/values.ts";

describeChainFault("destination RPC down mid-fill", (engine) => {
  let chains: FaultChains;
  let origin: ChainProxy;
  let destination: ChainProxy;
  let service: FaultService;

  before(async () => {
    chains = await startFaultChains();
    origin = await startChainProxy(chains.origin.url);
    destination = await startChainProxy(chains.destination.url);
    service = await startFaultService({ chains, engine, rpcUrls: { origin: [origin.url], destination: [destination.url] } });
  });
  after(async () => {
    await service?.close();
    await origin?.close();
    await destination?.close();
    await chains?.close();
  });

  it("aFillWhoseAnswerIsLost_andADepositDuringTheOutage_settleExactlyOnce", async () => {
    const amount = parseEther("0.25");
    const solverNonceBefore = await chains.destination.publicClient.getTransactionCount({ address: chains.solver });
    const first = await service.quote(chains.user(0).address, amount);
    const second = await service.quote(chains.user(1).address, amount);
    const expected: Expected[] = [
      { requestId: first.requestId, orderId: first.orderId, outcome: "success" },
      { requestId: second.requestId, orderId: second.orderId, outcome: "success" },
    ];
    // The fill's broadcast reaches the node; its answer is lost.
    await destination.setMode({ kind: "forwardThenHang", methods: ["eth_sendRawTransaction"] });
    await service.deposit(chains.user(0), first.quote);
    await until("the fill to be broadcast", 60_000, () => (destination.counts.get("eth_sendRawTransaction") ?? 0) >= 1);
    const submitted = await service.store.getRequest(canonicalHex(first.requestId));
    expect(submitted?.status, "the fill's hash is recorded before its broadcast").to.equal("submitted");
    // Then the destination RPC is down.
    await destination.setMode({ kind: "down" });
    const outage = outageMs(15_000);
    const started = Date.now();
    await service.deposit(chains.user(1), second.quote);
    await sleep(Math.max(0, outage - (Date.now() - started)));
    await destination.setMode({ kind: "pass" });

    const totals = await assertSettledExactlyOnce(chains, service, expected);
    console.log(`      [${engine}] destination down ${Date.now() - started} ms (after a lost fill answer); ${JSON.stringify(totals)}`);
    const solverNonceAfter = await chains.destination.publicClient.getTransactionCount({ address: chains.solver });
    expect(solverNonceAfter - solverNonceBefore, "fill transactions sent").to.equal(expected.length);
    expect((await service.store.getRequest(canonicalHex(first.requestId)))!.txHashes).to.deep.equal(submitted!.txHashes);
  });
});

// Fault: a reorg moves a deposit the service saw into a later block (the very same transaction,
// included again after two other blocks). It is credited once, at its new block, filled once and
// repaid once; no stray deposit is recorded for it; every status change is delivered by webhook.
import { expect } from "chai";
import { parseEther } from "viem";
import { assertSettledExactlyOnce } from "./chainAccounting.ts";
import { describeChainFault, sleep } from "./chainFaultSuite.ts";
import { startFaultChains, type FaultChains } from "./chainNodes.ts";
import { startChainProxy, type ChainProxy } from "./chainProxy.ts";
import { reorg, sendSigned, signDeposit } from "./chainReorg.ts";
import { startFaultService, type FaultService } from "./chainService.ts";
import { canonicalHex } from "../../ts/service/model/values.ts";

describeChainFault("reorg moves a seen deposit", (engine) => {
  let chains: FaultChains;
  let origin: ChainProxy;
  let destination: ChainProxy;
  let service: FaultService;

  before(async () => {
    chains = await startFaultChains();
    origin = await startChainProxy(chains.origin.url);
    destination = await startChainProxy(chains.destination.url);
    service = await startFaultService({ chains, engine, rpcUrls: { origin: [origin.url], destination: [destination.url] }, confirmations: { origin: 4, destination: 2 } });
  });
  after(async () => {
    await service?.close();
    await origin?.close();
    await destination?.close();
    await chains?.close();
  });

  it("aDepositMovedToALaterBlock_isCreditedThereOnce_filledOnce_repaidOnce", async () => {
    const moved = await service.quote(chains.user(0).address, parseEther("0.4"));
    const raw = await signDeposit(chains.origin, chains.user(0), moved.quote);
    let first = { hash: "0x" as `0x${string}`, block: 0n };
    let again = { hash: "0x" as `0x${string}`, block: 0n };
    await reorg(chains.origin, {
      blockMs: 250,
      before: async () => {
        first = await sendSigned(chains.origin, raw);
        await service.indexTransaction(first.hash);
        await chains.origin.testClient.mine({ blocks: 2 });
      },
      seen: async () => {
        await sleep(1_000);
        expect((await service.store.getRequest(canonicalHex(moved.requestId)))?.status).to.equal("waiting");
      },
      after: async () => {
        await chains.origin.testClient.mine({ blocks: 2 });
        again = await sendSigned(chains.origin, raw);
      },
    });
    expect(again.hash).to.equal(first.hash);
    expect(again.block > first.block).to.equal(true);
    const totals = await assertSettledExactlyOnce(chains, service, [{ requestId: moved.requestId, orderId: moved.orderId, outcome: "success" }]);
    console.log(`      [${engine}] moved from block ${first.block} to ${again.block}; ${JSON.stringify(totals)}`);
    const request = (await service.store.getRequest(canonicalHex(moved.requestId)))!;
    expect(request.solver!.deposit!.block).to.equal(Number(again.block));
    expect(request.inTxHashes).to.deep.equal([first.hash.toLowerCase()]);
    expect(await service.store.listStrayDepositsByOrderId(canonicalHex(moved.orderId))).to.deep.equal([]);
  });
});

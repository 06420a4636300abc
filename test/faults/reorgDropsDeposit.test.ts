// Fault: a reorg drops a deposit after the service saw it. The user's deposit is mined and the client
// nudges POST /transactions/index (the request is `waiting` with its hash); one block later the chain
// reorganises and the deposit is gone. It is never credited and never filled, the reorg is counted
// (shallow: above the final block), and a deposit made afterwards settles exactly once.
import { expect } from "chai";
import { parseEther } from "viem";
import { assertSettledExactlyOnce } from "./chainAccounting.ts";
import { describeChainFault, sleep } from "./chainFaultSuite.ts";
import { startFaultChains, type FaultChains } from "./chainNodes.ts";
import { startChainProxy, type ChainProxy } from "./chainProxy.ts";
import { reorg, sendSigned, signDeposit } from "./chainReorg.ts";
import { startFaultService, type FaultService } from "./chainService.ts";
import { canonicalHex } from "../../ts/service/model/values.ts";

describeChainFault("reorg drops a seen deposit", (engine) => {
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

  it("aDepositDroppedAfterItWasSeen_isNeverCreditedOrFilled_andTheNextOneSettlesOnce", async () => {
    const amount = parseEther("0.3");
    const dropped = await service.quote(chains.user(0).address, amount);
    const raw = await signDeposit(chains.origin, chains.user(0), dropped.quote);
    await reorg(chains.origin, {
      blockMs: 250,
      before: async () => {
        const { hash } = await sendSigned(chains.origin, raw);
        expect((await service.indexTransaction(hash)).requestIds).to.deep.equal([dropped.requestId]);
        await chains.origin.testClient.mine({ blocks: 2 });
      },
      // The service follows the chain with the deposit on it for a moment.
      seen: async () => {
        await sleep(1_000);
        expect((await service.store.getRequest(canonicalHex(dropped.requestId)))?.status).to.equal("waiting");
      },
    });
    // Well past the depth on the new chain, then a deposit that stays.
    await sleep(3_000);
    const kept = await service.quote(chains.user(1).address, amount);
    await service.deposit(chains.user(1), kept.quote);
    const totals = await assertSettledExactlyOnce(chains, service, [
      { requestId: dropped.requestId, orderId: dropped.orderId, outcome: "never" },
      { requestId: kept.requestId, orderId: kept.orderId, outcome: "success" },
    ]);
    console.log(`      [${engine}] ${JSON.stringify(totals)}`);
    expect(totals.fills).to.equal(1);
    const metrics = await service.metrics();
    expect(metrics).to.match(new RegExp(`ferry_chain_reorgs_total\\{chain_id="${chains.origin.chainId}",kind="shallow"\\} [1-9]`));
    expect(metrics).not.to.match(/ferry_chain_reorgs_total\{[^}]*kind="deep"\} [1-9]/);
  });
});

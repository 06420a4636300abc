// Fault: a reorg deeper than the origin's confirmations takes away a deposit the service credited,
// filled and was repaid for (its repayment is gone with it), and the chain halts. Meanwhile another
// user deposits on the new chain. The operator runs the recovery (`ferry solver recover-reorg`'s
// service function): the vanished deposit is parked DEEP_REORG_DEPOSIT_GONE and never repaid — its
// repayment never executes on the canonical chain — while the other user's request settles exactly
// once, its repayment paid out of its own deposit.
import { expect } from "chai";
import { parseEther, type Hex } from "viem";
import { depositoryAbi } from "../../ts/abi/Depository.ts";
import { isFerryError } from "../../ts/core/errors.ts";
import { parkedAdmin } from "../../ts/service/admin/parkedAdmin.ts";
import { createChainClients } from "../../ts/service/chains/chainClients.ts";
import { resolveAccounts } from "../../ts/service/chains/serviceAccounts.ts";
import { SILENT_LOG } from "../../ts/service/logging/logger.ts";
import { recoverDeepReorg } from "../../ts/service/solver/indexer/recoverDeepReorg.ts";
import { assertSettledExactlyOnce } from "./chainAccounting.ts";
import { describeChainFault, sleep, until } from "./chainFaultSuite.ts";
import type { FaultService } from "./chainService.ts";
import { useFaultStack } from "./faultStack.ts";
import { canonicalHex } from "../../ts/service/model/values.ts";

const EXECUTED = depositoryAbi.find((i) => i.type === "event" && i.name === "RequestExecuted")!;

/** A quote, asked again while a loaded machine's node answers slower than the quote's chain-read deadline (503). */
async function quoteWhenAnswered(service: FaultService, user: Hex, amount: bigint): ReturnType<FaultService["quote"]> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await service.quote(user, amount);
    } catch (error) {
      if (attempt >= 10 || !/quote 503/.test((error as Error).message)) throw error;
      await sleep(1_000);
    }
  }
}

describeChainFault("deep reorg recovery", (engine) => {
  const stack = useFaultStack(engine, { confirmations: { origin: 2, destination: 2 } });

  it("aVanishedDepositIsNeverRepaid_andTheOtherUsersRepaymentIsPaidFromItsOwnDeposit", async () => {
    const { chains, service } = stack;
    const amount = parseEther("0.5");
    const depositoryAddress = service.config.chains.find((c) => c.id === chains.origin.chainId)!.contracts.depository;
    const node = chains.origin;

    // A fork the service follows to the end: A's deposit credited, filled, repaid, all final.
    await node.intervalMining(0);
    const snapshot = (await node.testClient.snapshot()) as Hex;
    const forkBlock = await node.publicClient.getBlockNumber();
    const vanished = await quoteWhenAnswered(service, chains.user(0).address, amount);
    await node.intervalMining(250);
    await service.deposit(chains.user(0), vanished.quote);
    await until("A's repayment to be confirmed", 120_000, async () => (await service.store.getRequest(canonicalHex(vanished.requestId)))?.solver?.repayment?.status === "confirmed");
    const repaid = (await service.store.getRequest(canonicalHex(vanished.requestId)))!;
    const repayment = repaid.solver!.repayment!;
    const checkpointBefore = (await service.store.getIndexerCheckpoint(node.chainId, depositoryAddress))!.block;

    // B's quote is taken before the reorg: once the indexer sees the reorg it halts the chain, and a
    // halted origin is quoted for no one (CHAIN_HALTED), so a quote asked after the revert races the halt.
    const kept = await quoteWhenAnswered(service, chains.user(1).address, amount);

    // The deep reorg: every block since the snapshot replaced, A's deposit and repayment with them.
    await node.intervalMining(0);
    await node.testClient.revert({ id: snapshot });
    await node.testClient.increaseTime({ seconds: 13 });
    await node.intervalMining(250);
    // B deposits on the new chain; it cannot be credited while the chain is halted.
    await service.deposit(chains.user(1), kept.quote);
    await until("the origin chain to halt", 120_000, async () => (await service.store.getIndexerCheckpoint(node.chainId, depositoryAddress))?.halted != null);
    const halt = (await service.store.getIndexerCheckpoint(node.chainId, depositoryAddress))!.halted!;
    expect(halt.block).to.be.at.least(checkpointBefore);
    expect(await node.publicClient.readContract({ address: depositoryAddress, abi: depositoryAbi, functionName: "executed", args: [repayment.nonce] })).to.equal(false);

    // The documented recovery.
    const clients = createChainClients(service.config.chains, { ...resolveAccounts(service.config) });
    // The halt names the newest recorded block still on the chain; when the reorg went below every one
    // the indexer still remembers, the operator gives the fork's block.
    const fromBlock = halt.lastGood ? {} : { fromBlock: Number(forkBlock) };
    const deps = { store: service.store, clients, log: SILENT_LOG };
    // A dry run reports the same and changes nothing: still halted, nothing parked.
    const dry = await recoverDeepReorg(deps, { chainId: node.chainId, apply: false, ...fromBlock });
    expect(dry.records.find((r) => r.id === vanished.requestId)).to.include({ deposit: "gone" });
    expect(dry.resumed).to.equal(false);
    expect((await service.store.getIndexerCheckpoint(node.chainId, depositoryAddress))!.halted).not.to.equal(null);
    expect((await service.store.getRequest(canonicalHex(vanished.requestId)))!.parked).to.equal(null);
    const report = await recoverDeepReorg(deps, { chainId: node.chainId, apply: true, ...fromBlock });
    console.log(`      [${engine}] ${JSON.stringify(report.records)}`);
    expect(report.resumed, JSON.stringify(report.waitingFor)).to.equal(true);
    const record = report.records.find((r) => r.id === vanished.requestId);
    expect(record).to.include({ deposit: "gone" });
    expect(record!.losses.join(" ")).to.match(/filled/);

    // B settles exactly once (credited, filled, repaid from its own deposit); A is never repaid.
    const totals = await assertSettledExactlyOnce(chains, service, [{ requestId: kept.requestId, orderId: kept.orderId, outcome: "success" }]);
    console.log(`      [${engine}] ${JSON.stringify(totals)}`);
    await sleep(3_000);
    const after = (await service.store.getRequest(canonicalHex(vanished.requestId)))!;
    expect(after.parked?.code).to.equal("DEEP_REORG_DEPOSIT_GONE");
    expect(after.solver?.repayment).to.include({ status: "reverted", failReason: "DEPOSIT_GONE" });
    const unpark = await parkedAdmin(service.store).unparkRequest(canonicalHex(vanished.requestId)).then(
      () => "unparked",
      (error: unknown) => (isFerryError(error) ? error.code : String(error)),
    );
    expect(unpark, "a vanished deposit's request stays parked").to.equal("REQUEST_DEPOSIT_GONE");
    expect(await node.publicClient.readContract({ address: depositoryAddress, abi: depositoryAbi, functionName: "executed", args: [repayment.nonce] }), "A's repayment executed").to.equal(false);
    const executions = await node.publicClient.getLogs({ address: depositoryAddress, event: EXECUTED, args: { requestHash: repayment.requestHash }, fromBlock: 0n, toBlock: "latest" });
    expect(executions, "A's repayment on the canonical chain").to.have.length(0);
    // B's repayment was paid in full (not made claimable for lack of funds).
    const b = (await service.store.getRequest(canonicalHex(kept.requestId)))!;
    expect(b.solver?.repayment?.claimable ?? []).to.deep.equal([]);
    expect(await node.publicClient.getBalance({ address: depositoryAddress })).to.equal(0n);
    const metrics = await service.metrics();
    expect(metrics).to.match(new RegExp(`ferry_chain_deep_reorg_alert\\{chain_id="${node.chainId}"\\} 0`));
  });
});

// A repayment batch under a reorg deeper than the confirmation depth (origin at 2 confirmations, then
// blocks replaced through evm_snapshot / evm_revert on a real EDR chain): one member's deposit is back on
// the new chain (the very same signed transaction), the other's is gone. `ferry solver recover-reorg`
// (ts/service/solver/indexer/recoverDeepReorg.ts) closes the whole batch — sending it again would repay
// the gone deposit out of the other users' — parks the gone member, reports the kept member's repayment
// as a loss for the operator, and after the resume nothing is ever executed for the batch.
import { expect } from "chai";
import { encodeFunctionData, zeroAddress, type Hex } from "viem";
import { depositoryAbi } from "../../../ts/abi/Depository.ts";
import { createChainClients } from "../../../ts/service/chains/chainClients.ts";
import { resolveAccounts } from "../../../ts/service/chains/serviceAccounts.ts";
import type { FerryConfig } from "../../../ts/service/config/configSchema.ts";
import { SILENT_LOG } from "../../../ts/service/logging/logger.ts";
import { recoverDeepReorg } from "../../../ts/service/solver/indexer/recoverDeepReorg.ts";
import { createSolver } from "../../../ts/service/solver/startSolver.ts";
import { createStore, type Store } from "../../../ts/service/store/createStore.ts";
import { depository } from "./solverHelpers.ts";
import { makeIntent, saveQuote, useTwoChainsAndStore, type TwoChains } from "./twoChains.ts";

describe("solver: a repayment batch after a reorg deeper than the confirmation depth", function () {
  this.timeout(300_000);
  let env: TwoChains;
  let store: Store;

  useTwoChainsAndStore((made) => ({ env, store } = made));

  it("oneMembersDepositGone_theWholeBatchIsClosed_neverSentAgain_theGoneDepositNeverRepaid", async () => {
    const config: FerryConfig = { ...env.config, chains: env.config.chains.map((c) => ({ ...c, confirmations: c.id === env.origin.chainId ? 2 : 1 })) };
    // Driven by hand: every read of the head asks the chain (as createSolver's own clients do).
    const clients = createChainClients(config.chains, { solver: resolveAccounts(config).solver!, headMaxAgeMs: 0 });
    const solver = createSolver({ config, store, clients, settings: { repaymentBatch: { maxSize: 2, maxWaitMs: 600_000 } } });
    const origin = env.origin;
    const mine = (blocks = 1) => origin.testClient.mine({ blocks });
    const wallet = origin.walletClient(env.user.privateKey);
    const signedDeposit = async (orderId: Hex, amount: bigint): Promise<Hex> => {
      const request = await wallet.prepareTransactionRequest({
        account: wallet.account!,
        chain: wallet.chain,
        to: depository(env, origin),
        data: encodeFunctionData({ abi: depositoryAbi, functionName: "depositNative", args: [zeroAddress, orderId] }),
        value: amount,
      });
      return wallet.signTransaction(request as Parameters<typeof wallet.signTransaction>[0]);
    };
    const send = async (raw: Hex) => origin.publicClient.waitForTransactionReceipt({ hash: await origin.publicClient.sendRawTransaction({ serializedTransaction: raw }) });

    await mine(3);
    await solver.tick();
    const snap: Hex = await origin.testClient.snapshot();
    const from = (await origin.publicClient.getBlockNumber()) + 1n;
    const kept = makeIntent(env);
    const gone = makeIntent(env);
    await saveQuote(store, kept);
    await saveQuote(store, gone);
    const keptRaw = await signedDeposit(kept.orderId, kept.originAmount);
    await send(keptRaw);
    await send(await signedDeposit(gone.orderId, gone.originAmount));
    const repaid = async () => (await Promise.all([kept, gone].map((i) => store.getRequest(i.requestId)))).every((r) => r?.solver?.repayment?.status === "confirmed");
    for (let i = 0; i < 20 && !(await repaid()); i++) {
      await mine(2);
      await solver.tick();
    }
    expect(await repaid(), "both repaid by one batch").to.equal(true);
    const batch = (await store.getRequest(kept.requestId))!.solver!.repayment!;
    expect(batch.batch).to.not.equal(undefined);
    const before = (await store.getIndexerCheckpoint(origin.chainId, depository(env, origin)))!;

    // The reorg: back before both deposits; the kept one's very transaction mined again, the other's never.
    await origin.testClient.revert({ id: snap });
    await origin.testClient.increaseTime({ seconds: 9 });
    await mine(2);
    await send(keptRaw);
    // Past every head the solver saw before the reorg (a head it read already is not read again).
    const seenBefore = Number(before.block) + 12;
    await mine(Math.max(seenBefore - Number(await origin.publicClient.getBlockNumber()), 4));
    for (let i = 0; i < 5 && (await store.listHaltedChains()).length === 0; i++) {
      await mine(1);
      await solver.tick();
    }
    expect(await store.listHaltedChains()).to.deep.equal([origin.chainId]);

    const report = await recoverDeepReorg({ store, clients, log: SILENT_LOG }, { chainId: origin.chainId, apply: true });
    const goneRecord = report.records.find((r) => r.id === gone.requestId)!;
    expect(goneRecord.deposit).to.equal("gone");
    expect(goneRecord.actions.join("; ")).to.contain(`repayment batch ${batch.nonce} closed`);
    expect(goneRecord.losses.join("; ")).to.contain("repay them by hand");
    const stored = await store.getRepaymentBatch(batch.nonce);
    expect(stored!.state).to.equal("done");
    expect(stored!.payout).to.include({ status: "reverted", failReason: "DEPOSIT_GONE" });
    expect((await store.getRequest(gone.requestId))!.parked?.code).to.equal("DEEP_REORG_DEPOSIT_GONE");

    // Resumed: the solver never sends the batch again; nothing is executed for it.
    for (let i = 0; i < 6; i++) {
      await mine(2);
      await solver.tick();
    }
    const executed = await origin.publicClient.getContractEvents({ address: depository(env, origin), abi: depositoryAbi, eventName: "RequestExecuted", fromBlock: from });
    expect(executed.map((e) => e.args.nonce)).to.not.include(batch.nonce);
    expect(await origin.publicClient.readContract({ address: depository(env, origin), abi: depositoryAbi, functionName: "executed", args: [batch.nonce] })).to.equal(false);
  });
});

// A reorg deeper than the confirmation depth (origin configured with 2 confirmations, then 4+ of its
// blocks replaced, on a real EDR chain through evm_snapshot / evm_revert): the indexer sees that the
// block it recorded as final changed, halts the chain (stored halt with the newest recorded block still
// on the chain, error log, alert gauge, deep reorg counted) and credits nothing more there, and
// POST /transactions/index only records `waiting`. The operator procedure (docs/operations.md "Deep reorgs"):
// find the requests credited above the last good block, resume from it — the new chain's deposits are
// then credited and filled once.
import { expect } from "chai";
import { Registry } from "prom-client";
import type { Hex } from "viem";
import { createChainClients } from "../../../ts/service/chains/chainClients.ts";
import { createChainMetrics } from "../../../ts/service/chains/chainMetrics.ts";
import { resolveAccounts } from "../../../ts/service/chains/serviceAccounts.ts";
import type { FerryConfig } from "../../../ts/service/config/configSchema.ts";
import { indexTransaction } from "../../../ts/service/solver/indexer/indexTransaction.ts";
import { createSolver } from "../../../ts/service/solver/startSolver.ts";
import { createStore, type Store } from "../../../ts/service/store/createStore.ts";
import type { Logger } from "../../../ts/service/logging/logger.ts";
import { depository, filledLogs } from "./solverHelpers.ts";
import { deposit, makeIntent, saveQuote, useTwoChainsAndStore, type TwoChains } from "./twoChains.ts";
import { canonicalHex } from "../../../ts/service/model/values.ts";

describe("solver after a reorg deeper than the confirmation depth", function () {
  this.timeout(300_000);
  let env: TwoChains;
  let store: Store;

  useTwoChainsAndStore((made) => ({ env, store } = made));

  it("haltsTheChain_alerts_creditsNothingMore_andAfterTheOperatorsResumeFillsTheNewChainsDepositOnce", async () => {
    const config: FerryConfig = { ...env.config, chains: env.config.chains.map((c) => ({ ...c, confirmations: c.id === env.origin.chainId ? 2 : 1 })) };
    const registry = new Registry();
    // Driven by hand (tick after mining): a head shared for 250 ms would hide the blocks just mined
    // from ticks that follow within it, as a solver made without clients does (headMaxAgeMs 0).
    const clients = createChainClients(config.chains, { solver: resolveAccounts(config).solver!, metrics: createChainMetrics(registry), headMaxAgeMs: 0 });
    const errors: Record<string, unknown>[] = [];
    const log: Logger = { debug() {}, info() {}, warn() {}, error: (obj) => void errors.push(obj) };
    const solver = createSolver({ config, store, clients, log });
    const origin = env.origin;
    const mine = (blocks = 1) => origin.testClient.mine({ blocks });

    // A recorded range end below the fork, then the deposit the reorg will take away, credited and filled.
    await mine(3);
    await solver.tick();
    const snap: Hex = await origin.testClient.snapshot();
    const lost = makeIntent(env);
    await saveQuote(store, lost);
    await deposit(env, { orderId: lost.orderId, amount: lost.originAmount });
    for (let i = 0; i < 10 && (await store.getRequest(lost.requestId))?.status !== "success"; i++) {
      await mine(2);
      await solver.tick();
    }
    expect((await store.getRequest(lost.requestId))!.status).to.equal("success");
    const before = (await store.getIndexerCheckpoint(origin.chainId, depository(env, origin)))!;

    // The reorg: back before the deposit, a longer chain without it, holding another deposit.
    await origin.testClient.revert({ id: snap });
    await origin.testClient.increaseTime({ seconds: 9 });
    await mine(2);
    const next = makeIntent(env);
    await saveQuote(store, next);
    const nextTx = await deposit(env, { orderId: next.orderId, amount: next.originAmount });
    await mine(before.block - Number(await origin.publicClient.getBlockNumber()) + 4);

    await solver.tick();
    const halted = (await store.getIndexerCheckpoint(origin.chainId, depository(env, origin)))!;
    expect(halted.halted, "the chain is halted").to.not.equal(null);
    expect(halted.halted!.block).to.equal(before.block);
    expect(halted.halted!.expectedHash).to.equal(before.hash);
    expect(halted.halted!.lastGood!.block < Number(await origin.publicClient.getBlockNumber())).to.equal(true);
    expect(await store.listHaltedChains()).to.deep.equal([origin.chainId]);
    expect(errors.some((e) => e.chainId === origin.chainId && e.block === before.block)).to.equal(true);
    const metrics = await registry.metrics();
    expect(metrics).to.contain(`ferry_chain_deep_reorg_alert{chain_id="${origin.chainId}"} 1`);
    expect(metrics).to.contain(`ferry_chain_reorgs_total{chain_id="${origin.chainId}",kind="deep"} 1`);

    // Halted: ticks credit nothing, the index route only records `waiting`.
    for (let i = 0; i < 3; i++) {
      await mine(2);
      await solver.tick();
    }
    const indexed = await indexTransaction({ store, client: clients.get(origin.chainId), chains: config.chains, log }, canonicalHex(nextTx));
    expect(indexed.state).to.equal("waiting");
    expect((await store.getRequest(next.requestId))?.status).to.equal("waiting");
    expect(await filledLogs(env, next.requestId)).to.have.length(0);

    // The operator: the requests credited from blocks above the last good one need a look by hand...
    const lastGood = halted.halted!.lastGood!;
    const { rows } = await store.engine.query<{ id: string }>(
      `SELECT id FROM requests WHERE origin_chain_id = $1 AND (solver_state->'deposit'->>'block')::bigint > $2 ORDER BY id`,
      [origin.chainId, lastGood.block],
    );
    expect(rows.map((r) => r.id)).to.deep.equal([lost.requestId.toLowerCase()]);
    // ...then indexing resumes from the last good block (its hash as the chain has it now).
    const current = await origin.publicClient.getBlock({ blockNumber: BigInt(lastGood.block) });
    expect(current.hash).to.equal(lastGood.hash);
    expect(await store.resumeIndexer(origin.chainId, depository(env, origin), { block: lastGood.block, hash: canonicalHex(current.hash) })).to.equal(true);
    for (let i = 0; i < 10 && (await store.getRequest(next.requestId))?.status !== "success"; i++) {
      await mine(2);
      await solver.tick();
    }
    expect((await store.getRequest(next.requestId))!.status).to.equal("success");
    expect(await filledLogs(env, next.requestId)).to.have.length(1);
    expect(await registry.metrics()).to.contain(`ferry_chain_deep_reorg_alert{chain_id="${origin.chainId}"} 0`);
  });
});

// Which requests a repayment batch takes (ts/service/solver/payout/repaymentBatch.ts `formRepaymentBatch`),
// on both store engines, no chain: only `success` requests whose fill was verified (queued), not parked,
// without a repayment, with a plain deposit on this very Depository — never a request written `success`
// without the verification, a reclaimable deposit's, a refund's, one on another Depository or chain.
import { expect } from "chai";
import { CONFIG_DEFAULTS } from "../../../../ts/service/config/configSchema.ts";
import { SILENT_LOG } from "../../../../ts/service/logging/logger.ts";
import type { CreditedDeposit } from "../../../../ts/service/model/solverState.ts";
import type { Bytes32 } from "../../../../ts/service/model/values.ts";
import { formRepaymentBatch } from "../../../../ts/service/solver/payout/repaymentBatch.ts";
import type { SolverContext } from "../../../../ts/service/solver/solverContext.ts";
import { addr, hex, testNewRequest } from "../../fixtures/testRequest.ts";
import { describeEachEngine } from "../../store/engines.ts";

const DEPOSITORY = addr(0xd0);

describeEachEngine("repayment batch forming", (engine) => {
  const deposit = (more: Partial<CreditedDeposit> = {}): CreditedDeposit => ({
    chainId: 31337,
    depository: DEPOSITORY,
    txHash: hex(0x5000),
    logIndex: 0,
    block: 10,
    blockTimestamp: 1_700_000_000,
    depositor: addr(0xaa),
    token: addr(0),
    amount: 10n ** 18n,
    ...more,
  });
  const ctx = () =>
    ({ store: engine.store, solver: addr(0x50), now: engine.clock.now, log: SILENT_LOG, settings: { ...CONFIG_DEFAULTS.solver, repaymentBatch: { maxSize: 10, maxWaitMs: 0 } } }) as unknown as SolverContext;

  /** A request moved along `path` with `solver` merged into its state at `pending`. */
  async function requestAt(n: number, path: ("pending" | "submitted" | "success" | "failure")[], solver: Record<string, unknown>, originChainId = 31337): Promise<Bytes32> {
    const created = await engine.store.createRequest(testNewRequest(n, { originChainId }));
    for (const status of path) await engine.store.transitionRequest(created.id, status, status === "pending" ? { solver: { ...created.solver!, deposit: deposit(), ...solver } } : {});
    return created.id;
  }

  it("takes only verified, plain, unpaid successes of this Depository", async () => {
    const queuedAt = engine.clock.now().getTime();
    const success = ["pending", "submitted", "success"] as const;
    const ok1 = await requestAt(0x41, [...success], { repaymentQueuedAt: queuedAt });
    const ok2 = await requestAt(0x42, [...success], { repaymentQueuedAt: queuedAt });
    // Written `success` without the fill's verification (no queued mark): never batched.
    await requestAt(0x43, [...success], {});
    // A reclaimable deposit: its repayment is its own release.
    await requestAt(0x44, [...success], { repaymentQueuedAt: queuedAt, deposit: deposit({ reclaimAt: 2_000_000_000n }) });
    // Another Depository; a refund (failure); a parked one; one repaid already.
    await requestAt(0x45, [...success], { repaymentQueuedAt: queuedAt, deposit: deposit({ depository: addr(0xd1) }) });
    await requestAt(0x46, ["pending", "failure"], { repaymentQueuedAt: queuedAt });
    const parked = await requestAt(0x47, [...success], { repaymentQueuedAt: queuedAt });
    await engine.store.parkRequest(parked, { code: "TEST", message: "parked" });
    const repaid = await requestAt(0x48, [...success], { repaymentQueuedAt: queuedAt });
    await engine.store.patchRequest(repaid, { solver: { repayment: { chainId: 31337, depository: DEPOSITORY, nonce: 1n, expiration: 1, calls: [], requestHash: hex(0x7000), status: "prepared" } } });

    const formed = await formRepaymentBatch(ctx(), 31337, DEPOSITORY);
    expect(formed.sort()).to.deep.equal([ok1, ok2].sort());
    const [a, b] = await Promise.all([engine.store.getRequest(ok1), engine.store.getRequest(ok2)]);
    expect(a!.solver!.repayment!.nonce).to.equal(b!.solver!.repayment!.nonce);
    expect(a!.solver!.repayment!.status).to.equal("prepared");
    expect([...a!.solver!.repayment!.batch!.calls, ...b!.solver!.repayment!.batch!.calls].sort()).to.deep.equal([0, 1]);
    // Nothing queued is left: forming again takes nothing.
    expect(await formRepaymentBatch(ctx(), 31337, DEPOSITORY)).to.deep.equal([]);
  });

  it("is not due before maxSize or maxWaitMs, and repays a lone due request alone", async () => {
    const queuedAt = engine.clock.now().getTime();
    const only = await requestAt(0x51, ["pending", "submitted", "success"], { repaymentQueuedAt: queuedAt });
    const waiting = { ...ctx(), settings: { ...CONFIG_DEFAULTS.solver, repaymentBatch: { maxSize: 10, maxWaitMs: 60_000 } } } as SolverContext;
    expect(await formRepaymentBatch(waiting, 31337, DEPOSITORY)).to.deep.equal([]);
    expect((await engine.store.getRequest(only))!.solver!.repayment).to.equal(undefined);
    // Due (maxWaitMs 0) with one request: its own repayment, its own nonce, no batch.
    expect(await formRepaymentBatch(ctx(), 31337, DEPOSITORY)).to.deep.equal([only]);
    const repayment = (await engine.store.getRequest(only))!.solver!.repayment!;
    expect(repayment.batch).to.equal(undefined);
    expect(repayment.calls[0]).to.deep.include({ to: addr(0x50) });
  });
});

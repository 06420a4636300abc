// The Depository's allocator signs every payout; an owner key (or a leaked one) can replace it after a
// 2-day delay (`proposeAllocator` → AllocatorChangeProposed(new, eta) → `applyAllocator`). The solver
// watches each Depository and alerts (error log, gauges) while a change is pending — above all one to
// an allocator that is not the service's — and while the allocator in force is not the service's own.
// A real EDR chain pair; the owner is the devnet's deployer.
import { expect } from "chai";
import { Registry } from "prom-client";
import type { Address, Hex } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { depositoryAbi } from "../../../ts/abi/Depository.ts";
import { accountWithRole, devnetAccounts } from "../../../ts/devnet/devnetAccounts.ts";
import type { Logger } from "../../../ts/service/logging/logger.ts";
import { createSolver } from "../../../ts/service/solver/startSolver.ts";
import { createStore, type Store } from "../../../ts/service/store/createStore.ts";
import { depository } from "./solverHelpers.ts";
import { freshAddress, startTwoChains, type TwoChains } from "./twoChains.ts";

describe("solver: allocator watch", function () {
  this.timeout(600_000);
  let env: TwoChains;
  let store: Store;
  let serviceAllocator: Address;

  before(async () => {
    env = await startTwoChains();
    store = await createStore();
    serviceAllocator = privateKeyToAccount(env.keyEnv.FERRY_ALLOCATOR_KEY as Hex).address.toLowerCase() as Address;
  });
  after(async () => {
    await store?.close();
    await env?.close();
  });

  async function owner(functionName: "proposeAllocator" | "applyAllocator" | "cancelAllocatorChange", args: readonly Address[] = []) {
    const wallet = env.origin.walletClient(accountWithRole(devnetAccounts(), "deployer").privateKey);
    const hash = await wallet.writeContract({ chain: wallet.chain, account: wallet.account, address: depository(env, env.origin), abi: depositoryAbi, functionName, args } as Parameters<typeof wallet.writeContract>[0]);
    const receipt = await env.origin.publicClient.waitForTransactionReceipt({ hash });
    expect(receipt.status).to.equal("success");
  }

  function watcher() {
    const registry = new Registry();
    const errors: { fields: Record<string, unknown>; message: string }[] = [];
    const log: Logger = { debug() {}, info() {}, warn() {}, error: (fields, message) => void errors.push({ fields, message }) };
    const solver = createSolver({ config: env.config, store, log, metricsRegistry: registry, allocatorCheckIntervalMs: 0 });
    const gauge = async (name: string) => (await registry.getSingleMetric(name)!.get()).values;
    return { solver, errors, gauge };
  }

  const originLabels = () => ({ chain_id: String(env.origin.chainId), depository: depository(env, env.origin).toLowerCase() });

  it("allocatorChangeProposed_toAForeignAllocator_isAnErrorAlertAndAGaugeWithItsEta_clearedWhenCancelled", async () => {
    const { solver, errors, gauge } = watcher();
    await solver.tick();
    expect(await gauge("ferry_depository_allocator_change_eta_seconds")).to.deep.equal([]);
    expect(errors).to.deep.equal([]);

    const foreign = freshAddress();
    await owner("proposeAllocator", [foreign]);
    const [, eta] = await env.origin.publicClient.readContract({ address: depository(env, env.origin), abi: depositoryAbi, functionName: "pendingAllocatorChange" });
    await solver.tick();
    expect(await gauge("ferry_depository_allocator_change_eta_seconds")).to.deep.equal([{ value: Number(eta), labels: { ...originLabels(), new_allocator: foreign, expected: "false" } }]);
    expect(errors.map((e) => e.fields)).to.deep.include({ ...originLabels(), chainId: env.origin.chainId, newAllocator: foreign, eta: Number(eta), expected: false, allocator: serviceAllocator });
    // Alerted once per proposal, not on every tick; the gauge stays while it is pending.
    await solver.tick();
    expect(errors).to.have.length(1);

    await owner("cancelAllocatorChange");
    await solver.tick();
    expect(await gauge("ferry_depository_allocator_change_eta_seconds")).to.deep.equal([]);
  });

  it("allocatorChangeProposed_toTheServicesOwnAllocator_isReportedAsExpected", async () => {
    const { solver, gauge } = watcher();
    await owner("proposeAllocator", [serviceAllocator]);
    await solver.tick();
    const values = await gauge("ferry_depository_allocator_change_eta_seconds");
    expect(values.map((v) => v.labels)).to.deep.equal([{ ...originLabels(), new_allocator: serviceAllocator, expected: "true" }]);
    await owner("cancelAllocatorChange");
  });

  it("allocatorApplied_notTheServicesOwn_setsTheMismatchGaugeAndAlerts_untilItIsTheServicesAgain", async () => {
    const { solver, errors, gauge } = watcher();
    const foreign = freshAddress();
    await owner("proposeAllocator", [foreign]);
    await env.origin.testClient.increaseTime({ seconds: 2 * 24 * 3600 + 1 });
    await env.origin.testClient.mine({ blocks: 1 });
    await owner("applyAllocator");
    try {
      await solver.tick();
      expect(await gauge("ferry_depository_allocator_mismatch")).to.deep.include({ value: 1, labels: originLabels() });
      expect(errors.some((e) => e.fields.onchainAllocator === foreign && e.fields.allocator === serviceAllocator)).to.equal(true);
    } finally {
      // Back to the service's allocator (another 2 days).
      await owner("proposeAllocator", [serviceAllocator]);
      await env.origin.testClient.increaseTime({ seconds: 2 * 24 * 3600 + 1 });
      await env.origin.testClient.mine({ blocks: 1 });
      await owner("applyAllocator");
    }
    await solver.tick();
    expect(await gauge("ferry_depository_allocator_mismatch")).to.deep.include({ value: 0, labels: originLabels() });
  });
});

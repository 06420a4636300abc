// What the operator pays for one transaction is bounded by configuration, whoever the payee is
// (issue 11, item 1): `solver.maxGasPerTransaction` caps every fill and payout the solver sends; an
// estimate above it is never sent (parked / left for the operator, alerted), and a payee that makes
// the node refuse to estimate (an inner call out of gas) is sent with the cap as its limit after an
// eth_call at the cap succeeded. Two EDR chains, a real store (PGlite).
import { expect } from "chai";
import { Registry } from "prom-client";
import { encodeFunctionData, parseEther, zeroAddress, type Hex } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { depositoryAbi } from "../../../ts/abi/Depository.ts";
import { signPayoutRequest } from "../../../ts/core/payoutRequest.ts";
import { createStore, type Store } from "../../../ts/service/store/createStore.ts";
import { GasCapExceededError, gasLimitWithin } from "../../../ts/service/transactions/gasCap.ts";
import { isRevert } from "../../../ts/service/transactions/revertReason.ts";
import { createSolver } from "../../../ts/service/solver/startSolver.ts";
import { deployGasBurningRecipient } from "../solver/hostileContracts.ts";
import { depository, filledLogs, tickUntil } from "../solver/solverHelpers.ts";
import { deposit, freshAddress, freshId, makeIntent, saveQuote, startTwoChains, type TwoChains } from "../solver/twoChains.ts";
import { canonicalHex } from "../../../ts/service/model/values.ts";

describe("solver: gas cap", function () {
  this.timeout(600_000);
  let env: TwoChains;
  let store: Store;

  before(async () => {
    env = await startTwoChains();
  });
  after(async () => {
    await env?.close();
  });
  beforeEach(async () => {
    store = await createStore();
    await createSolver({ config: env.config, store }).tick();
  });
  afterEach(async () => {
    await store.close();
  });

  /** An allocator-signed `execute` paying `amount` native to `to` from the origin Depository, as calldata. */
  async function executeCall(to: `0x${string}`, amount: bigint): Promise<{ to: `0x${string}`; data: Hex }> {
    const request = { calls: [{ to, token: zeroAddress, amount }], nonce: BigInt(freshId()), expiration: 99_999_999_999n };
    const signature = await signPayoutRequest({ account: privateKeyToAccount(env.keyEnv.FERRY_ALLOCATOR_KEY as Hex), chainId: env.origin.chainId, depository: depository(env, env.origin), request });
    return { to: depository(env, env.origin), data: encodeFunctionData({ abi: depositoryAbi, functionName: "execute", args: [request, signature] }) };
  }

  it("gasLimitWithin_anEstimateWithinTheCap_isTheLimit_andOneAboveIt_isRefused", async () => {
    await deposit(env, { orderId: freshId(), amount: parseEther("0.01") });
    const tx = await executeCall(freshAddress(), 1000n);
    const limit = await gasLimitWithin(env.origin.publicClient, env.origin.chainId, env.solver, tx, 500_000n);
    expect(limit > 21_000n && limit < 100_000n).to.equal(true);
    const refused = await gasLimitWithin(env.origin.publicClient, env.origin.chainId, env.solver, tx, limit - 1n).catch((e: unknown) => e);
    expect(refused).to.be.instanceOf(GasCapExceededError);
    expect(refused).to.include({ code: "GAS_CAP_EXCEEDED", estimate: limit, cap: limit - 1n, chainId: env.origin.chainId });
  });

  it("gasLimitWithin_aPayeeThatBurnsGasSoTheNodeCannotEstimate_getsTheCapAfterACallAtTheCapSucceeds", async () => {
    await deposit(env, { orderId: freshId(), amount: parseEther("0.01") });
    const burner = await deployGasBurningRecipient(env.origin, 5_000_000n);
    const tx = await executeCall(burner, 1000n);
    expect(await gasLimitWithin(env.origin.publicClient, env.origin.chainId, env.solver, tx, 300_000n)).to.equal(300_000n);
    // Below what the bounded payout needs (~143k), the call at the cap fails: nothing is sent.
    const tooLow = await gasLimitWithin(env.origin.publicClient, env.origin.chainId, env.solver, tx, 60_000n).catch((e: unknown) => e);
    expect(tooLow).to.be.instanceOf(Error);
  });

  it("gasLimitWithin_aRevert_isPassedOnForTheCallerToDecode", async () => {
    // More than the Depository holds of the native currency.
    const tx = await executeCall(freshAddress(), parseEther("1000000000"));
    const error = await gasLimitWithin(env.origin.publicClient, env.origin.chainId, env.solver, tx, 500_000n).catch((e: unknown) => e);
    expect(isRevert(error)).to.equal(true);
  });

  it("fill_whoseEstimateExceedsTheCap_isNeverSent_theRequestIsParked_andTheAlertCounts", async () => {
    const registry = new Registry();
    // A native fill measures ~69k: a 50,000 cap refuses it.
    const config = { ...env.config, solver: { ...env.config.solver, maxGasPerTransaction: 50_000 } };
    const intent = makeIntent(env);
    await saveQuote(store, intent);
    await deposit(env, { orderId: intent.orderId, amount: intent.originAmount });
    const nonceBefore = await env.destination.publicClient.getTransactionCount({ address: env.solver });
    const parked = await tickUntil(createSolver({ config, store, metricsRegistry: registry }), store, intent.requestId, (r) => r.parked !== null);
    expect({ status: parked.status, parked: parked.parked!.code }).to.deep.equal({ status: "pending", parked: "GAS_CAP_EXCEEDED" });
    expect(await env.destination.publicClient.getTransactionCount({ address: env.solver })).to.equal(nonceBefore);
    expect(await filledLogs(env, intent.requestId)).to.have.length(0);
    const counter = await registry.getSingleMetric("ferry_solver_gas_cap_exceeded_total")!.get();
    expect(counter.values).to.deep.equal([{ value: 1, labels: { chain_id: String(env.destination.chainId) } }]);
  });

  it("strayRefund_whoseEstimateExceedsTheCap_isNeverSent_andIsLeftForTheOperator", async () => {
    const config = { ...env.config, solver: { ...env.config.solver, maxGasPerTransaction: 40_000 } };
    const orderId = freshId();
    const hash = await deposit(env, { orderId, amount: parseEther("0.3") });
    const nonceBefore = await env.origin.publicClient.getTransactionCount({ address: env.solver });
    const solver = createSolver({ config, store });
    for (let i = 0; i < 3; i++) await solver.tick();
    const [stray] = await store.listStrayDepositsByOrderId(canonicalHex(orderId));
    expect(stray).to.include({ txHash: hash.toLowerCase(), state: "ignored", ignoredReason: "GAS_CAP_EXCEEDED" });
    // Planned (stored before signing), never sent.
    expect(stray!.refund).to.include({ status: "prepared" });
    expect(stray!.refund!.hash).to.equal(undefined);
    expect(await env.origin.publicClient.getTransactionCount({ address: env.solver })).to.equal(nonceBefore);
  });
});

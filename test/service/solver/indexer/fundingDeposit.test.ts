// Funding an app balance end to end on two real EDR chains, both store engines, real HTTP: the app asks
// POST /app-balance/deposits (x-api-key), a wallet sends the answered steps (native and the
// stablecoin), the solver's indexer credits the app at the configured USD price (stablecoin 1:1)
// once per deposit log — through restarts, a re-read range and POST /transactions/index — and a
// deposit under the funding order that does not fit it (another currency) is never credited (a stray).
import { expect } from "chai";
import { parseEther, type Hex } from "viem";
import { depositoryAbi } from "../../../../ts/abi/Depository.ts";
import { encodeReclaimableDeposit } from "../../../../ts/core/reclaimableDeposit.ts";
import { DEVNET_USD_PRICES } from "../../../../ts/devnet/devnetConfig.ts";
import { createChainClients } from "../../../../ts/service/chains/chainClients.ts";
import { SILENT_LOG } from "../../../../ts/service/logging/logger.ts";
import { canonicalHex, type Bytes32 } from "../../../../ts/service/model/values.ts";
import { indexTransaction } from "../../../../ts/service/solver/indexer/indexTransaction.ts";
import { createSolver } from "../../../../ts/service/solver/startSolver.ts";
import { apiKeyStore } from "../../../../ts/service/store/apiKeys.ts";
import { listen, type Listening } from "../../http/testApp.ts";
import { describeEachEngine } from "../../store/engines.ts";
import { depository } from "../solverHelpers.ts";
import { NATIVE, useTwoChains, type TwoChains } from "../twoChains.ts";

type DepositAnswer = { orderId: Hex; creditUsd: string; steps: Array<{ id: string; items: Array<{ data: { to: Hex; data: Hex; value: string; chainId: number } }> }> };

describeEachEngine("app balance funding (devnet)", (engine) => {
  let env: TwoChains;
  let server: Listening;
  let key: string;
  let keyId: string;

  useTwoChains((started) => (env = started));
  beforeEach(async function () {
    this.timeout(120_000);
    const created = await apiKeyStore(engine.store).createApiKey("funding app");
    key = created.key;
    keyId = created.id;
    server = await listen({ config: env.config, deps: { store: engine.store } });
    // The service runs before the deposits arrive (stray tracking starts with its first tick).
    await newSolver().tick();
  });
  afterEach(async () => {
    await server?.close();
  });

  const newSolver = () => createSolver({ config: env.config, store: engine.store, log: SILENT_LOG });

  const call = async (method: string, path: string, body?: unknown, apiKey: string | null = key) => {
    const response = await fetch(`${server.url}${path}`, {
      method,
      headers: { ...(body !== undefined && { "content-type": "application/json" }), ...(apiKey && { "x-api-key": apiKey }) },
      ...(body !== undefined && { body: JSON.stringify(body) }),
    });
    return { status: response.status, body: (await response.json()) as Record<string, unknown> };
  };

  /** Sends every step's transaction from the user's wallet; the deposit's hash. */
  async function sendSteps(answer: DepositAnswer): Promise<Bytes32> {
    const wallet = env.origin.walletClient(env.user.privateKey);
    let last: Hex = "0x";
    for (const step of answer.steps) {
      for (const { data } of step.items) {
        last = await wallet.sendTransaction({ chain: wallet.chain, to: data.to, data: data.data, value: BigInt(data.value) });
        const receipt = await env.origin.publicClient.waitForTransactionReceipt({ hash: last });
        expect(receipt.status, step.id).to.equal("success");
      }
    }
    return canonicalHex(last);
  }

  async function tickUntilCredited(atLeast: bigint): Promise<void> {
    for (let i = 0; i < 20; i++) {
      await newSolver().tick();
      if ((await engine.store.appBalances.balance(keyId)).creditedUsd >= atLeast) return;
    }
    throw new Error(`never credited ${atLeast}: ${JSON.stringify(await engine.store.appBalances.entries(keyId))}`);
  }

  it("funding_nativeAndStablecoin_creditedOnceAtTheConfiguredPrice", async function () {
    this.timeout(240_000);
    // Without the app's key there is nothing to fund.
    const anonymous = await call("POST", "/app-balance/deposits", { chainId: env.origin.chainId, currency: NATIVE, amount: "1" }, null);
    expect([anonymous.status, anonymous.body.errorCode]).to.deep.equal([401, "API_KEY_REQUIRED"]);

    const native = await call("POST", "/app-balance/deposits", { chainId: env.origin.chainId, currency: NATIVE, amount: parseEther("0.01").toString() });
    expect(native.status, JSON.stringify(native.body)).to.equal(200);
    const nativeUsd = (parseEther("0.01") * BigInt(DEVNET_USD_PRICES.eth) * 1_000_000n) / 10n ** 18n; // 30 USD
    expect(native.body.creditUsd).to.equal(nativeUsd.toString());
    expect((native.body as unknown as DepositAnswer).steps.map((s) => s.id)).to.deep.equal(["deposit"]);

    const stable = await call("POST", "/app-balance/deposits", { chainId: env.origin.chainId, currency: env.stablecoin, amount: "25000000" });
    expect(stable.status, JSON.stringify(stable.body)).to.equal(200);
    expect(stable.body.creditUsd).to.equal("25000000");
    expect((stable.body as unknown as DepositAnswer).steps.map((s) => s.id)).to.deep.equal(["approve", "deposit"]);

    const nativeTx = await sendSteps(native.body as unknown as DepositAnswer);
    const stableTx = await sendSteps(stable.body as unknown as DepositAnswer);
    const total = nativeUsd + 25_000_000n;
    await tickUntilCredited(total);

    // Restarts, a re-read of the whole range and the index route: nothing credits twice.
    await engine.store.setCheckpoint(env.origin.chainId, depository(env, env.origin), 0);
    for (let i = 0; i < 3; i++) await newSolver().tick();
    const client = createChainClients(env.config.chains).get(env.origin.chainId);
    for (const hash of [nativeTx, stableTx]) await indexTransaction({ store: engine.store, client, chains: env.config.chains, log: SILENT_LOG }, hash);

    const seen = await call("GET", "/app-balance");
    expect(seen.status).to.equal(200);
    expect(seen.body).to.deep.include({ apiKeyId: keyId, availableUsd: total.toString(), heldUsd: "0", creditedUsd: total.toString(), debitedUsd: "0" });
    const entries = seen.body.entries as Array<{ kind: string; amountUsd: string; source: { txHash: string } }>;
    expect(entries.map((e) => [e.kind, e.amountUsd, e.source.txHash])).to.deep.equal([
      ["credit", "25000000", stableTx],
      ["credit", nativeUsd.toString(), nativeTx],
    ]);
    // GET /app-balance is the caller's own only.
    expect((await call("GET", "/app-balance", undefined, null)).body.errorCode).to.equal("API_KEY_REQUIRED");
  });

  it("funding_aDepositThatDoesNotFitItsOrder_isNeverCredited_andIsAStray", async function () {
    this.timeout(240_000);
    const answer = (await call("POST", "/app-balance/deposits", { chainId: env.origin.chainId, currency: env.stablecoin, amount: "5000000" })).body as unknown as DepositAnswer;
    // An attacker reuses the app's funding order id with native ether worth far more or less: it is
    // not the order's currency, so it credits nothing (the depositor gets it back as a stray).
    const wallet = env.origin.walletClient(env.user.privateKey);
    const hash = await wallet.writeContract({
      chain: wallet.chain,
      address: depository(env, env.origin),
      abi: depositoryAbi,
      functionName: "depositNative",
      args: [env.user.address, answer.orderId],
      value: 1n,
    });
    await env.origin.publicClient.waitForTransactionReceipt({ hash });
    for (let i = 0; i < 3; i++) await newSolver().tick();
    expect(await engine.store.appBalances.balance(keyId)).to.deep.equal({ creditedUsd: 0n, debitedUsd: 0n, heldUsd: 0n, availableUsd: 0n });
    const strays = await engine.store.listStrayDepositsByOrderId(canonicalHex(answer.orderId));
    expect(strays.map((s) => s.reason)).to.deep.equal(["INCORRECT_DEPOSIT_CURRENCY"]);

    // A currency the chain does not fund balances with, and an unknown chain, are refused up front.
    const token = (await call("POST", "/app-balance/deposits", { chainId: env.origin.chainId, currency: depository(env, env.origin), amount: "1" })).body;
    expect(token.errorCode).to.equal("UNSUPPORTED_CURRENCY");
    expect((await call("POST", "/app-balance/deposits", { chainId: 999, currency: NATIVE, amount: "1" })).body.errorCode).to.equal("UNSUPPORTED_CHAIN");
    expect((await call("POST", "/app-balance/deposits", { chainId: env.origin.chainId, currency: NATIVE, amount: "1" })).body.errorCode).to.equal("AMOUNT_TOO_LOW");
    // The stablecoin itself is allowed; the approve is for exactly the amount.
    const [approve] = answer.steps;
    expect(approve!.items[0]!.data.to.toLowerCase()).to.equal(env.stablecoin.toLowerCase());
  });

  it("attack_aReclaimableDepositUnderAFundingOrder_isNeverCredited_theDepositorKeepsItsReclaim", async function () {
    this.timeout(240_000);
    // Credited, the app would spend the balance and then take the deposit back with `reclaim`: free money.
    const answer = (await call("POST", "/app-balance/deposits", { chainId: env.origin.chainId, currency: NATIVE, amount: parseEther("0.01").toString() })).body as unknown as DepositAnswer;
    const reclaimAt = BigInt(Math.floor(Date.now() / 1000) + 86_400);
    const { data, value } = encodeReclaimableDeposit({ currency: NATIVE, amount: parseEther("0.01"), id: answer.orderId, reclaimAt });
    const wallet = env.origin.walletClient(env.user.privateKey);
    const hash = await wallet.sendTransaction({ chain: wallet.chain, to: depository(env, env.origin), data, value });
    expect((await env.origin.publicClient.waitForTransactionReceipt({ hash })).status).to.equal("success");
    for (let i = 0; i < 3; i++) await newSolver().tick();
    expect(await engine.store.appBalances.balance(keyId)).to.deep.equal({ creditedUsd: 0n, debitedUsd: 0n, heldUsd: 0n, availableUsd: 0n });
    const strays = await engine.store.listStrayDepositsByOrderId(canonicalHex(answer.orderId));
    expect(strays.map((s) => [s.reason, s.state, s.ignoredReason])).to.deep.equal([["INCORRECT_PAYMENT", "ignored", "RECLAIMABLE"]]);
  });
});

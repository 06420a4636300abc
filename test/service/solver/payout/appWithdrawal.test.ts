// App-balance withdrawals end to end on two real EDR chains, both store engines, real HTTP. The
// attacks first: withdrawing more than is available, two concurrent withdrawals of the whole balance,
// a withdrawal with another key, a withdrawal naming its own recipient, one without a funding address.
// Then the payout: allocator-signed Depository.execute to the key's funding address, the hold settled
// when it is mined — once, across a restart with the payout in the mempool.
import { expect } from "chai";
import { type Hex } from "viem";
import { SILENT_LOG } from "../../../../ts/service/logging/logger.ts";
import { canonicalAddress } from "../../../../ts/service/model/values.ts";
import { createSolver } from "../../../../ts/service/solver/startSolver.ts";
import { apiKeyStore } from "../../../../ts/service/store/apiKeys.ts";
import { listen, type Listening } from "../../http/testApp.ts";
import { describeEachEngine } from "../../store/engines.ts";
import { freshAddress, startTwoChains, tokenBalance, type TwoChains } from "../twoChains.ts";

type Steps = { steps: Array<{ items: Array<{ data: { to: Hex; data: Hex; value: string } }> }> };

describeEachEngine("app balance withdrawals (devnet)", (engine) => {
  let env: TwoChains;
  let server: Listening;
  let app: { id: string; key: string };
  let other: { id: string; key: string };
  let payee: ReturnType<typeof freshAddress>;

  before(async function () {
    this.timeout(300_000);
    env = await startTwoChains();
  });
  after(async () => {
    await env?.close();
  });

  const newSolver = () => createSolver({ config: env.config, store: engine.store, log: SILENT_LOG });

  const call = async (method: string, path: string, body: unknown, apiKey: string | null) => {
    const response = await fetch(`${server.url}${path}`, {
      method,
      headers: { "content-type": "application/json", ...(apiKey && { "x-api-key": apiKey }) },
      body: JSON.stringify(body),
    });
    return { status: response.status, body: (await response.json()) as Record<string, unknown> };
  };
  const withdraw = (amountUsd: string, apiKey: string | null, extra: Record<string, unknown> = {}) =>
    call("POST", "/app-balance/withdrawals", { chainId: env.origin.chainId, currency: env.stablecoin, amountUsd, ...extra }, apiKey);

  beforeEach(async function () {
    this.timeout(120_000);
    const keys = apiKeyStore(engine.store);
    app = await keys.createApiKey("withdrawing app");
    other = await keys.createApiKey("another app");
    payee = freshAddress();
    await keys.setFundingAddress(app.id, payee);
    await keys.setFundingAddress(other.id, freshAddress());
    server = await listen({ config: env.config, deps: { store: engine.store } });
    await newSolver().tick();
    // The app funds 25 fUSD onchain (the Depository holds what it will pay back).
    const answer = (await call("POST", "/app-balance/deposits", { chainId: env.origin.chainId, currency: env.stablecoin, amount: "25000000" }, app.key)).body as unknown as Steps;
    const wallet = env.origin.walletClient(env.user.privateKey);
    for (const step of answer.steps) {
      const { data } = step.items[0]!;
      const hash = await wallet.sendTransaction({ chain: wallet.chain, to: data.to, data: data.data, value: BigInt(data.value) });
      await env.origin.publicClient.waitForTransactionReceipt({ hash });
    }
    for (let i = 0; i < 10 && (await engine.store.appBalances.balance(app.id)).creditedUsd === 0n; i++) await newSolver().tick();
    expect((await engine.store.appBalances.balance(app.id)).availableUsd).to.equal(25_000_000n);
  });
  afterEach(async () => {
    await server?.close();
  });

  it("withdrawal_attacks_areRefused_andMoveNothing", async function () {
    this.timeout(120_000);
    // More than available.
    expect((await withdraw("25000001", app.key)).body.errorCode).to.equal("SPONSOR_BALANCE_TOO_LOW");
    // Another key cannot withdraw this app's balance (it has none of its own).
    expect((await withdraw("1000000", other.key)).body.errorCode).to.equal("SPONSOR_BALANCE_TOO_LOW");
    // No key, or a recipient named by the caller: refused before anything is held.
    expect((await withdraw("1000000", null)).body.errorCode).to.equal("API_KEY_REQUIRED");
    const named = await withdraw("1000000", app.key, { recipient: env.user.address });
    expect([named.status, named.body.errorCode]).to.deep.equal([400, "INVALID_REQUEST"]);
    // Without a funding address: 409, nothing held.
    await apiKeyStore(engine.store).setFundingAddress(app.id, null);
    expect((await withdraw("1000000", app.key)).body.errorCode).to.equal("APP_FUNDING_ADDRESS_MISSING");
    await apiKeyStore(engine.store).setFundingAddress(app.id, payee);
    expect(await engine.store.appBalances.balance(app.id)).to.deep.equal({ creditedUsd: 25_000_000n, debitedUsd: 0n, heldUsd: 0n, availableUsd: 25_000_000n });

    // Two concurrent withdrawals of the whole balance: one is held, the other refused.
    const both = await Promise.all([withdraw("25000000", app.key), withdraw("25000000", app.key)]);
    expect(both.map((r) => r.status).sort()).to.deep.equal([200, 400]);
    expect(both.find((r) => r.status === 400)!.body.errorCode).to.equal("SPONSOR_BALANCE_TOO_LOW");
    expect(await engine.store.appBalances.balance(app.id)).to.deep.equal({ creditedUsd: 25_000_000n, debitedUsd: 0n, heldUsd: 25_000_000n, availableUsd: 0n });
  });

  it("withdrawal_paidToTheFundingAddress_once_acrossARestartWithThePayoutInTheMempool", async function () {
    this.timeout(180_000);
    const answered = await withdraw("10000000", app.key);
    expect(answered.status, JSON.stringify(answered.body)).to.equal(200);
    expect(answered.body).to.deep.include({ state: "pending", amount: "10000000", amountUsd: "10000000", recipient: payee });
    const id = answered.body.withdrawalId as string;

    // The payout is sent but not mined; the process "restarts".
    await env.origin.testClient.setAutomine(false);
    try {
      for (let i = 0; i < 5 && !(await engine.store.getAppWithdrawal(id))?.payout?.hash; i++) await newSolver().payAppWithdrawals();
      expect((await engine.store.getAppWithdrawal(id))!.payout!.status).to.equal("sent");
      await newSolver().payAppWithdrawals();
      expect((await engine.store.appBalances.balance(app.id)).heldUsd).to.equal(10_000_000n);
      await env.origin.testClient.mine({ blocks: 1 });
    } finally {
      await env.origin.testClient.setAutomine(true);
    }
    for (let i = 0; i < 10 && (await engine.store.getAppWithdrawal(id))!.state === "pending"; i++) await newSolver().tick();

    const paid = (await engine.store.getAppWithdrawal(id))!;
    expect(paid.state).to.equal("paid");
    expect(await tokenBalance(env.origin, env.stablecoin, canonicalAddress(payee))).to.equal(10_000_000n);
    expect(await engine.store.appBalances.balance(app.id)).to.deep.equal({ creditedUsd: 25_000_000n, debitedUsd: 10_000_000n, heldUsd: 0n, availableUsd: 15_000_000n });
    const hold = (await engine.store.appBalances.getHold(paid.holdId))!;
    expect(hold).to.include({ state: "settled", spentUsd: 10_000_000n });
    // More ticks pay nothing more.
    for (let i = 0; i < 3; i++) await newSolver().tick();
    expect(await tokenBalance(env.origin, env.stablecoin, canonicalAddress(payee))).to.equal(10_000_000n);
  });
});

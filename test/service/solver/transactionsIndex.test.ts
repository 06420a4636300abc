// POST /transactions/index over real HTTP on loopback, against two real chains and a real store:
// malformed bodies, unknown chains and transactions, non-deposits, and deposits mined, unconfirmed
// and not yet mined.
import { expect } from "chai";
import { encodeFunctionData, erc20Abi, maxUint256, parseEther, parseSignature, type Address, type Hex } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { depositoryAbi } from "../../../ts/abi/Depository.ts";
import { eip2612PermitTypedData, PERMIT2_ADDRESS, permit2DepositTypedData, permit2Nonce, signPermitDeposit } from "../../../ts/core/permitDeposit.ts";
import type { FerryConfig } from "../../../ts/service/config/configSchema.ts";
import { buildApp } from "../../../ts/service/http/app.ts";
import type { FerryApp } from "../../../ts/service/http/ferryApp.ts";
import { createSolver } from "../../../ts/service/solver/startSolver.ts";
import { createStore, type Store } from "../../../ts/service/store/createStore.ts";
import { tickUntil } from "./solverHelpers.ts";
import { deposit, freshAddress, makeIntent, saveQuote, startTwoChains, type TwoChains } from "./twoChains.ts";
import { withServerDeps } from "../http/testApp.ts";
import { mockStablecoinAbi } from "../../../ts/abi/MockStablecoin.ts";
import { hardhatTestAccount } from "../../../ts/devnet/devnetAccounts.ts";
import { canonicalAddress } from "../../../ts/service/model/values.ts";

describe("POST /transactions/index", function () {
  this.timeout(300_000);
  let env: TwoChains;
  let store: Store;
  let app: FerryApp;
  let url: string;

  async function serve(config: FerryConfig) {
    app = await buildApp({ config, deps: withServerDeps(config, { store }) });
    url = await app.listen({ host: "127.0.0.1", port: 0 });
  }
  const post = async (body: unknown, raw?: string) => {
    const response = await fetch(`${url}/transactions/index`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: raw ?? JSON.stringify(body),
    });
    return { status: response.status, body: (await response.json()) as Record<string, unknown> };
  };

  before(async () => {
    env = await startTwoChains();
  });
  after(async () => {
    await env?.close();
  });
  beforeEach(async () => {
    store = await createStore();
    await serve(env.config);
  });
  afterEach(async () => {
    await app.close();
    await store.close();
  });

  const HASH = `0x${"ab".repeat(32)}`;

  it("rejectsMalformedBodiesWith400InvalidRequest", async () => {
    for (const [body, raw] of [
      [{}, undefined],
      [{ chainId: 31337 }, undefined],
      [{ txHash: HASH }, undefined],
      [{ chainId: "0x7a69", txHash: HASH }, undefined],
      [{ chainId: "031337", txHash: HASH }, undefined],
      [{ chainId: 31337, txHash: HASH, referrer: 5 }, undefined],
      [{ chainId: 31337, txHash: "0x1234" }, undefined],
      [{ chainId: 31337, txHash: `${HASH}00` }, undefined],
      [{ chainId: -1, txHash: HASH }, undefined],
      [{ chainId: 1.5, txHash: HASH }, undefined],
      [{ chainId: 31337, txHash: HASH, extra: 1 }, undefined],
      [[], undefined],
      [null, "{not json"],
    ] as const) {
      const response = await post(body, raw);
      expect(response.status, JSON.stringify(body ?? raw)).to.equal(400);
      expect(response.body).to.have.all.keys("message", "errorCode");
      expect(response.body.errorCode).to.equal("INVALID_REQUEST");
    }
  });

  it("acceptsTheRelaySdkBody_aStringChainIdAndAReferrer", async () => {
    const intent = makeIntent(env);
    await saveQuote(store, intent);
    const txHash = await deposit(env, { orderId: intent.orderId, amount: BigInt(intent.originAmount) });
    const response = await post({ txHash, chainId: String(env.origin.chainId), referrer: "relay-sdk" });
    expect(response.status).to.equal(200);
    expect(response.body).to.deep.equal({ message: "deposit indexed", requestIds: [intent.requestId] });
  });

  it("rejectsAnUnknownChainWith400UnknownChain", async () => {
    const response = await post({ chainId: 999, txHash: HASH });
    expect(response).to.deep.include({ status: 400 });
    expect(response.body.errorCode).to.equal("UNKNOWN_CHAIN");
  });

  it("rejectsATransactionTheChainDoesNotKnowWith400TransactionNotFound", async () => {
    const response = await post({ chainId: env.origin.chainId, txHash: HASH });
    expect(response.status).to.equal(400);
    expect(response.body.errorCode).to.equal("TRANSACTION_NOT_FOUND");
  });

  it("rejectsATransactionThatIsNotADepositWith400NotADeposit", async () => {
    const wallet = env.origin.walletClient(env.user.privateKey);
    const hash = await wallet.sendTransaction({ chain: wallet.chain, to: freshAddress(), value: 1n });
    await env.origin.publicClient.waitForTransactionReceipt({ hash });
    const response = await post({ chainId: env.origin.chainId, txHash: hash });
    expect(response.status).to.equal(400);
    expect(response.body.errorCode).to.equal("NOT_A_DEPOSIT");
  });

  it("indexesAConfirmedDepositNow_idempotently", async () => {
    const intent = makeIntent(env);
    await saveQuote(store, intent);
    const txHash = await deposit(env, { orderId: intent.orderId, amount: BigInt(intent.originAmount) });
    for (let i = 0; i < 2; i++) {
      const response = await post({ chainId: env.origin.chainId, txHash });
      expect(response.status).to.equal(200);
      expect(response.body).to.deep.equal({ message: "deposit indexed", requestIds: [intent.requestId] });
    }
    const request = await store.getRequest(intent.requestId);
    expect(request!.status).to.equal("pending");
    expect(request!.inTxHashes).to.deep.equal([txHash.toLowerCase()]);
    // The indexer later finds it credited already; the solver takes it to success.
    const done = await tickUntil(createSolver({ config: env.config, store }), store, intent.requestId, (r) => r.status === "success");
    expect((await store.requestEvents(done.id)).map((e) => e.status)).to.deep.equal(["waiting", "pending", "submitted", "success"]);
  });

  it("answersEmptyRequestIdsForADepositWithoutAQuote", async () => {
    const txHash = await deposit(env, { orderId: makeIntent(env).orderId, amount: parseEther("0.01") });
    const response = await post({ chainId: env.origin.chainId, txHash });
    expect(response.status).to.equal(200);
    expect(response.body.requestIds).to.deep.equal([]);
  });

  it("recordsAnUnminedDepositAsWaiting_andTheIndexerFinishesIt", async () => {
    const intent = makeIntent(env);
    await saveQuote(store, intent);
    await env.origin.testClient.setAutomine(false);
    let txHash: Hex;
    try {
      txHash = await deposit(env, { orderId: intent.orderId, amount: BigInt(intent.originAmount), wait: false });
      const response = await post({ chainId: env.origin.chainId, txHash });
      expect(response.status).to.equal(200);
      expect(response.body).to.deep.equal({ message: "transaction seen; it is indexed once confirmed", requestIds: [intent.requestId] });
      const waiting = await store.getRequest(intent.requestId);
      expect(waiting).to.deep.include({ status: "waiting", inTxHashes: [txHash.toLowerCase()] });
      expect(waiting!.solver!.intent).to.deep.include({ originAmount: intent.originAmount, destinationAmount: intent.destinationAmount });
      await env.origin.testClient.mine({ blocks: 1 });
    } finally {
      await env.origin.testClient.setAutomine(true);
    }
    const done = await tickUntil(createSolver({ config: env.config, store }), store, intent.requestId, (r) => r.status === "success");
    expect(done.inTxHashes).to.deep.equal([txHash!.toLowerCase()]);
  });

  /** The calldata a relayer sends for a permit deposit of `intent` (valid signatures: it succeeds once mined). */
  async function permitDepositCall(intent: ReturnType<typeof makeIntent>, kind: "eip2612" | "permit2"): Promise<{ to: Address; data: Hex }> {
    const depository = env.config.chains.find((c) => c.id === env.origin.chainId)!.contracts.depository;
    const user = privateKeyToAccount(env.user.privateKey);
    const deadline = BigInt(intent.expiresAt);
    if (kind === "permit2") {
      const wallet = env.origin.walletClient(env.user.privateKey);
      const approve = await wallet.writeContract({ chain: wallet.chain, address: env.stablecoin, abi: erc20Abi, functionName: "approve", args: [PERMIT2_ADDRESS, maxUint256] });
      await env.origin.publicClient.waitForTransactionReceipt({ hash: approve });
      const nonce = permit2Nonce(intent.orderId);
      const signature = await user.signTypedData(
        permit2DepositTypedData({ chainId: env.origin.chainId, deposit: { token: env.stablecoin, amount: intent.originAmount, depository, orderId: intent.orderId, nonce, deadline } }),
      );
      return {
        to: depository,
        data: encodeFunctionData({
          abi: depositoryAbi,
          functionName: "depositPermit2",
          args: [user.address, env.stablecoin, intent.originAmount, intent.orderId, nonce, deadline, signature],
        }),
      };
    }
    const [, name, version] = await env.origin.publicClient.readContract({ address: env.stablecoin, abi: mockStablecoinAbi, functionName: "eip712Domain" });
    const nonce = await env.origin.publicClient.readContract({ address: env.stablecoin, abi: mockStablecoinAbi, functionName: "nonces", args: [user.address] });
    const permit = await user.signTypedData(
      eip2612PermitTypedData(
        { name, version, chainId: BigInt(env.origin.chainId), verifyingContract: env.stablecoin },
        { owner: user.address, spender: depository, value: intent.originAmount, nonce, deadline },
      ),
    );
    const deposit = { depositor: user.address, token: env.stablecoin, amount: intent.originAmount, id: intent.orderId, deadline };
    const authorization = await signPermitDeposit({ account: privateKeyToAccount(env.keyEnv.FERRY_ALLOCATOR_KEY as Hex), chainId: env.origin.chainId, depository, deposit });
    const { v, r, s } = parseSignature(permit);
    return { to: depository, data: encodeFunctionData({ abi: depositoryAbi, functionName: "depositErc20Permit", args: [deposit, Number(v), r, s, authorization] }) };
  }

  for (const kind of ["eip2612", "permit2"] as const) {
    it(`recordsAnUnminedPermitDeposit_${kind}_asDepositing_andTheIndexerCreditsIt`, async () => {
      const intent = makeIntent(env, { originCurrency: canonicalAddress(env.stablecoin), originAmount: 5_000_000n, destinationCurrency: canonicalAddress(env.stablecoin), destinationAmount: 4_900_000n });
      await saveQuote(store, intent);
      const call = await permitDepositCall(intent, kind);
      // Someone relays the user's signed permit (here a third account): the calldata is all the nudge sees.
      const relayer = env.origin.walletClient(hardhatTestAccount(9).privateKey);
      await env.origin.testClient.setAutomine(false);
      let txHash: Hex;
      try {
        txHash = await relayer.sendTransaction({ chain: relayer.chain, to: call.to, data: call.data, gas: 400_000n });
        const response = await post({ chainId: env.origin.chainId, txHash });
        expect(response.status, JSON.stringify(response.body)).to.equal(200);
        expect(response.body).to.deep.equal({ message: "transaction seen; it is indexed once confirmed", requestIds: [intent.requestId] });
        expect(await store.getRequest(intent.requestId)).to.deep.include({ status: "depositing", inTxHashes: [txHash.toLowerCase()] });
        await env.origin.testClient.mine({ blocks: 1 });
      } finally {
        await env.origin.testClient.setAutomine(true);
      }
      expect((await env.origin.publicClient.getTransactionReceipt({ hash: txHash! })).status).to.equal("success");
      const again = await post({ chainId: env.origin.chainId, txHash: txHash! });
      expect(again.body).to.deep.equal({ message: "deposit indexed", requestIds: [intent.requestId] });
      expect((await store.getRequest(intent.requestId))!.status).to.equal("pending");
      expect((await store.requestEvents(intent.requestId)).map((e) => e.status)).to.deep.equal(["depositing", "pending"]);
    });
  }

  it("recordsAMinedButUnconfirmedDepositAsWaiting", async () => {
    await app.close();
    const config: FerryConfig = { ...env.config, chains: env.config.chains.map((c) => (c.id === env.origin.chainId ? { ...c, confirmations: 3 } : c)) };
    await serve(config);
    const intent = makeIntent(env);
    await saveQuote(store, intent);
    const txHash = await deposit(env, { orderId: intent.orderId, amount: BigInt(intent.originAmount) });
    const response = await post({ chainId: env.origin.chainId, txHash });
    expect(response.status).to.equal(200);
    expect(response.body.requestIds).to.deep.equal([intent.requestId]);
    expect((await store.getRequest(intent.requestId))!.status).to.equal("waiting");
    // Two more blocks: now confirmed, the same call indexes it once the service's head has moved on
    // (a polled head is reused for up to a solver poll, so the first call after mining may still
    // answer "seen"; it never answers anything else).
    await env.origin.testClient.mine({ blocks: 2 });
    let again = await post({ chainId: env.origin.chainId, txHash });
    for (let tries = 0; again.body.message !== "deposit indexed" && tries < 50; tries++) {
      expect(again.body).to.deep.equal({ message: "transaction seen; it is indexed once confirmed", requestIds: [intent.requestId] });
      await new Promise((resolve) => setTimeout(resolve, 100));
      again = await post({ chainId: env.origin.chainId, txHash });
    }
    expect(again.body).to.deep.equal({ message: "deposit indexed", requestIds: [intent.requestId] });
    expect((await store.getRequest(intent.requestId))!.status).to.equal("pending");
  });
});

// POST /fast-fill over real HTTP on loopback, against two real EDR chains and both store engines: the
// solver fills before the origin deposit is final, the app's hold is released when the deposit is
// indexed and settled when it never lands; attacks (another app's request, no balance, two calls at
// once, a deposit replaced by a smaller one) send nothing; the SDK's own `fastFill` action works.
import { createServer, request as httpRequest, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { expect } from "chai";
import { createClient, fastFill as sdkFastFill } from "@relayprotocol/relay-sdk";
import { parseEther, parseGwei, zeroAddress, type Hex } from "viem";
import { depositoryAbi } from "../../../ts/abi/Depository.ts";
import type { FerryConfig } from "../../../ts/service/config/configSchema.ts";
import { buildApp } from "../../../ts/service/http/app.ts";
import type { FerryApp } from "../../../ts/service/http/ferryApp.ts";
import type { QuotedIntent } from "../../../ts/service/model/quotedIntent.ts";
import { createSolver } from "../../../ts/service/solver/startSolver.ts";
import { apiKeyStore } from "../../../ts/service/store/apiKeys.ts";
import type { Store } from "../../../ts/service/store/createStore.ts";
import { withServerDeps } from "../http/testApp.ts";
import { describeEachEngine } from "../store/engines.ts";
import { filledLogs, tickUntil } from "./solverHelpers.ts";
import { chainNow, makeIntent, startTwoChains, type TwoChains } from "./twoChains.ts";
import { testOrder } from "../fixtures/testOrder.ts";

const CONFIRMATIONS = 3;
/** 0.0099 ETH at the devnet's $3000: 29.7 USD = 29,700,000 micro-units. */
const OUT = parseEther("0.0099");
const OUT_USD = 29_700_000n;

describe("POST /fast-fill", function () {
  this.timeout(600_000);
  let env: TwoChains;
  let config: FerryConfig;
  before(async () => {
    env = await startTwoChains();
    config = { ...env.config, chains: env.config.chains.map((c) => (c.id === env.origin.chainId ? { ...c, confirmations: CONFIRMATIONS } : c)) };
  });
  after(async () => {
    await env?.close();
  });

  describeEachEngine("fast fill", (engine) => {
    let store: Store;
    let app: FerryApp;
    let url: string;
    let solver: ReturnType<typeof createSolver>;
    let appKey: { id: string; key: string };
    let otherKey: { id: string; key: string };
    let fundLog = 0;

    beforeEach(async () => {
      store = await (await engine.freshDatabase()).open(() => new Date());
      app = await buildApp({ config, deps: withServerDeps(config, { store }) });
      url = await app.listen({ host: "127.0.0.1", port: 0 });
      solver = createSolver({ config, store });
      appKey = await apiKeyStore(store).createApiKey("app");
      otherKey = await apiKeyStore(store).createApiKey("other");
    });
    afterEach(async () => {
      await app.close();
      await store.close();
      await env.origin.testClient.setAutomine(true);
    });

    const post = async (path: string, body: unknown, key?: string) => {
      const response = await fetch(`${url}${path}`, {
        method: "POST",
        headers: { "content-type": "application/json", ...(key && { "x-api-key": key }) },
        body: JSON.stringify(body),
      });
      return { status: response.status, body: (await response.json()) as Record<string, unknown> };
    };
    const fund = (apiKeyId: string, amountUsd: bigint) =>
      store.appBalances.credit({ apiKeyId, amountUsd, source: { chainId: 1, txHash: `0x${"f1".repeat(32)}`, logIndex: fundLog++ }, currency: zeroAddress, amount: amountUsd });

    /** A quote made with `apiKeyId`, valid on the origin chain's clock for `ttl` seconds. */
    async function quote(apiKeyId: string, ttl = 86_400): Promise<QuotedIntent> {
      const expiresAt = (await chainNow(env.origin)) + ttl;
      const intent = makeIntent(env, { originAmount: parseEther("0.01"), destinationAmount: OUT, expiresAt, fillDeadline: (await chainNow(env.destination)) + 86_400 });
      await store.saveQuote({ requestId: intent.requestId, orderId: intent.orderId, orderData: testOrder(intent), quote: { test: true }, intent, expiresAt: new Date(Date.now() + ttl * 1000), apiKeyId });
      return intent;
    }
    /** The user's deposit of `amount` (default: as quoted), sent now; mined only when the origin automines. */
    async function sendDeposit(intent: QuotedIntent, options: { amount?: bigint; nonce?: number; gasPrice?: bigint } = {}): Promise<Hex> {
      const wallet = env.origin.walletClient(env.user.privateKey);
      return wallet.writeContract({
        chain: wallet.chain,
        address: config.chains.find((c) => c.id === env.origin.chainId)!.contracts.depository,
        abi: depositoryAbi,
        functionName: "depositNative",
        args: [zeroAddress, intent.orderId],
        value: options.amount ?? intent.originAmount,
        ...(options.nonce !== undefined && { nonce: options.nonce }),
        ...(options.gasPrice !== undefined && { gasPrice: options.gasPrice }),
      });
    }
    /** Deposit seen, not final: POST /transactions/index leaves it `waiting` with its hash. */
    async function seen(intent: QuotedIntent, txHash: Hex) {
      const indexed = await post("/transactions/index", { chainId: env.origin.chainId, txHash });
      expect(indexed.status, JSON.stringify(indexed.body)).to.equal(200);
      expect(indexed.body.requestIds).to.deep.equal([intent.requestId]);
      expect((await store.getRequest(intent.requestId))!.status).to.equal("waiting");
    }

    it("fastFill_fillsBeforeTheDepositIsFinal_thenRepaysAndReleasesTheHold", async () => {
      await fund(appKey.id, 100_000_000n);
      const intent = await quote(appKey.id);
      const txHash = await sendDeposit(intent);
      const depositBlock = (await env.origin.publicClient.waitForTransactionReceipt({ hash: txHash })).blockNumber;
      await seen(intent, txHash);

      const response = await post("/fast-fill", { requestId: intent.requestId, maxFillAmountUsd: OUT_USD.toString() }, appKey.key);
      expect(response).to.deep.equal({ status: 200, body: { message: "fast fill queued" } });
      expect(await store.appBalances.balance(appKey.id)).to.deep.include({ heldUsd: OUT_USD, debitedUsd: 0n });

      const filled = await tickUntil(solver, store, intent.requestId, (r) => r.status === "success");
      // Filled while the deposit was still short of its confirmations: not credited yet.
      const originHead = await env.origin.publicClient.getBlockNumber();
      expect(Number(originHead - depositBlock) + 1).to.be.lessThan(CONFIRMATIONS);
      expect(filled.solver!.deposit).to.equal(undefined);
      expect(filled.solver!.repayment).to.equal(undefined);
      expect(await filledLogs(env, intent.requestId)).to.have.length(1);

      await env.origin.testClient.mine({ blocks: CONFIRMATIONS });
      // The origin mines a block per tick, so the repayment's own block becomes final too.
      const mining = { tick: async () => (await solver.tick(), await env.origin.testClient.mine({ blocks: 1 })) };
      const repaid = await tickUntil(mining, store, intent.requestId, (r) => r.solver?.repayment?.status === "confirmed");
      expect(repaid.solver!.deposit!.txHash).to.equal(txHash.toLowerCase());
      expect(repaid.solver!.fastFill!.hold).to.equal("released");
      expect(await store.appBalances.balance(appKey.id)).to.deep.equal({ creditedUsd: 100_000_000n, debitedUsd: 0n, heldUsd: 0n, availableUsd: 100_000_000n });
      expect((await store.requestEvents(intent.requestId)).map((e) => e.status)).to.deep.equal(["waiting", "pending", "submitted", "success"]);
    });

    it("fastFill_depositNeverLands_holdSettled_recordSaysSo_nothingElseMoves", async () => {
      await fund(appKey.id, 100_000_000n);
      const intent = await quote(appKey.id, 120);
      await env.origin.testClient.setAutomine(false);
      const txHash = await sendDeposit(intent);
      await seen(intent, txHash);
      expect((await post("/fast-fill", { requestId: intent.requestId }, appKey.key)).status).to.equal(200);
      await tickUntil(solver, store, intent.requestId, (r) => r.status === "success");
      expect(await filledLogs(env, intent.requestId)).to.have.length(1);

      // The deposit is dropped from the mempool: it never lands. The quote expires on the origin chain.
      await env.origin.testClient.request({ method: "hardhat_dropTransaction", params: [txHash] } as never);
      await env.origin.testClient.setAutomine(true);
      const depository = config.chains.find((c) => c.id === env.origin.chainId)!.contracts.depository;
      const depositoryBefore = await env.origin.publicClient.getBalance({ address: depository });
      await env.origin.testClient.increaseTime({ seconds: 600 });
      await env.origin.testClient.mine({ blocks: CONFIRMATIONS + 1 });

      const settled = await tickUntil(solver, store, intent.requestId, (r) => r.solver?.fastFill?.hold === "settled");
      expect(settled.status).to.equal("success");
      expect(settled.details).to.deep.include({ fastFill: "settled", fastFillReason: "DEPOSIT_NEVER_LANDED", fastFillAmountUsd: OUT_USD.toString() });
      expect(await store.appBalances.balance(appKey.id)).to.deep.equal({ creditedUsd: 100_000_000n, debitedUsd: OUT_USD, heldUsd: 0n, availableUsd: 100_000_000n - OUT_USD });
      // Nothing else: no repayment, no refund, no deposit moved; the request leaves the work list.
      await solver.tick();
      const after = (await store.getRequest(intent.requestId))!;
      expect(after.solver!.repayment).to.equal(undefined);
      expect(after.solver!.refund).to.equal(undefined);
      expect(await env.origin.publicClient.getBalance({ address: depository })).to.equal(depositoryBefore);
      expect((await store.listSolverWork()).map((w) => w.id)).to.not.include(intent.requestId);
    });

    it("attack_fastFillOfAnotherAppsRequest_is404_andNothingIsHeldOrSent", async () => {
      await fund(appKey.id, 100_000_000n);
      await fund(otherKey.id, 100_000_000n);
      const intent = await quote(appKey.id);
      await env.origin.testClient.setAutomine(false);
      await seen(intent, await sendDeposit(intent));
      const response = await post("/fast-fill", { requestId: intent.requestId }, otherKey.key);
      expect(response.status).to.equal(404);
      expect(response.body.errorCode).to.equal("REQUEST_NOT_FOUND");
      expect((await post("/fast-fill", { requestId: intent.requestId })).body.errorCode).to.equal("API_KEY_REQUIRED");
      await solver.tick();
      expect((await store.getRequest(intent.requestId))!.status).to.equal("waiting");
      expect(await store.appBalances.balance(otherKey.id)).to.deep.include({ heldUsd: 0n, debitedUsd: 0n });
      expect(await filledLogs(env, intent.requestId)).to.have.length(0);
    });

    it("attack_fastFillWithoutBalance_is403_andNothingIsSent", async () => {
      await fund(appKey.id, OUT_USD - 1n);
      const intent = await quote(appKey.id);
      await env.origin.testClient.setAutomine(false);
      await seen(intent, await sendDeposit(intent));
      const response = await post("/fast-fill", { requestId: intent.requestId }, appKey.key);
      expect(response.status).to.equal(403);
      expect(response.body.errorCode).to.equal("FAST_FILL_BALANCE_TOO_LOW");
      const above = await post("/fast-fill", { requestId: intent.requestId, maxFillAmountUsd: (OUT_USD - 1n).toString() }, appKey.key);
      expect(above.status).to.equal(400);
      expect(above.body.errorCode).to.equal("FAST_FILL_ABOVE_MAX");
      await solver.tick();
      expect((await store.getRequest(intent.requestId))!.status).to.equal("waiting");
      expect(await store.appBalances.balance(appKey.id)).to.deep.include({ heldUsd: 0n, debitedUsd: 0n });
      expect(await filledLogs(env, intent.requestId)).to.have.length(0);
    });

    it("attack_twoFastFillsAtOnce_holdOnce_fillOnce", async () => {
      await fund(appKey.id, 100_000_000n);
      const intent = await quote(appKey.id);
      await env.origin.testClient.setAutomine(false);
      await seen(intent, await sendDeposit(intent));
      const responses = await Promise.all(Array.from({ length: 4 }, () => post("/fast-fill", { requestId: intent.requestId }, appKey.key)));
      expect(responses.map((r) => r.status)).to.deep.equal([200, 200, 200, 200]);
      expect(responses.filter((r) => r.body.message === "fast fill queued")).to.have.length(1);
      expect(await store.appBalances.balance(appKey.id)).to.deep.include({ heldUsd: OUT_USD });
      await Promise.all([solver.tick(), createSolver({ config, store }).tick()]);
      await tickUntil(solver, store, intent.requestId, (r) => r.status === "success");
      expect(await filledLogs(env, intent.requestId)).to.have.length(1);
      expect((await post("/fast-fill", { requestId: intent.requestId }, appKey.key)).body).to.deep.equal({ message: "fast fill already queued or executed" });
    });

    it("attack_depositReplacedBySmallerOne_beforeTheFastFill_isRefused", async () => {
      await fund(appKey.id, 100_000_000n);
      const intent = await quote(appKey.id);
      await env.origin.testClient.setAutomine(false);
      const nonce = await env.origin.publicClient.getTransactionCount({ address: env.user.address, blockTag: "pending" });
      await seen(intent, await sendDeposit(intent, { nonce, gasPrice: parseGwei("2") }));
      // The same nonce, a higher fee, 1 wei: the seen deposit is gone from the mempool.
      await sendDeposit(intent, { nonce, gasPrice: parseGwei("20"), amount: 1n });
      const response = await post("/fast-fill", { requestId: intent.requestId }, appKey.key);
      expect(response.status).to.equal(400);
      expect(response.body.errorCode).to.equal("FAST_FILL_DEPOSIT_NOT_SEEN");
      await solver.tick();
      expect(await store.appBalances.balance(appKey.id)).to.deep.include({ heldUsd: 0n, debitedUsd: 0n });
      expect(await filledLogs(env, intent.requestId)).to.have.length(0);
    });

    it("theSdksFastFillAction_throughTheAppsKeyProxy_answers200_andTheRequestSucceeds", async () => {
      await fund(appKey.id, 100_000_000n);
      const intent = await quote(appKey.id);
      const txHash = await sendDeposit(intent);
      await env.origin.publicClient.waitForTransactionReceipt({ hash: txHash });
      await seen(intent, txHash);
      // The SDK sends x-api-key only to the reference's hosts: the app's backend adds it (docs/api.md).
      const proxy = await keyAddingProxy(url, appKey.key);
      try {
        createClient({ baseApiUrl: proxy.url, source: "ferry-test" });
        const answer = await sdkFastFill({ requestId: intent.requestId, maxFillAmountUsd: OUT_USD.toString() } as never);
        expect(answer).to.deep.equal({ message: "fast fill queued" });
      } finally {
        await new Promise((resolve) => proxy.server.close(resolve));
      }
      await tickUntil(solver, store, intent.requestId, (r) => r.status === "success");
    });
  });
});

/** A minimal app backend: forwards every request to `target` with the app's `x-api-key` added. */
async function keyAddingProxy(target: string, key: string): Promise<{ server: Server; url: string }> {
  const upstream = new URL(target);
  const server = createServer((req, res) => {
    const forward = httpRequest(
      { host: upstream.hostname, port: upstream.port, path: req.url, method: req.method, headers: { ...req.headers, host: upstream.host, "x-api-key": key } },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    forward.on("error", () => res.writeHead(502).end());
    req.pipe(forward);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

/**
 * executeQuote against a real chain (Hardhat's in-process EDR, Ferry from deployFerry) and the real
 * service app over loopback (PGlite store). The solver is not part of this test: the test plays the
 * indexer and solver by writing the request's transitions into the store once the deposit is mined,
 * so each outcome (success, failure, no answer) is driven deterministically.
 */
import { expect } from "chai";
import { network } from "hardhat";
import { encodeFunctionData, zeroAddress, type Account, type Chain, type Transport, type WalletClient } from "viem";
import { DEPOSITORY_DEPOSIT_ABI } from "../../ts/core/depositoryAbi.ts";
import { getOrderId } from "../../ts/core/orderId.ts";
import type { ChainRecord, Quote } from "../../ts/client/apiTypes.ts";
import { ExecuteQuoteError, RequestFailedError } from "../../ts/client/clientErrors.ts";
import { createFerryClient, type FerryClient } from "../../ts/client/createFerryClient.ts";
import type { ExecuteProgress } from "../../ts/client/executeQuote.ts";
import { createStore, type Store } from "../../ts/service/store/createStore.ts";
import { deployFerry, type FerryFixture } from "../../ts/testing/deployFerry.ts";
import { fixtureConfig, listen, type Listening } from "../service/http/testApp.ts";
import { loadOrderIdVectors } from "../vectors/vectorFiles.ts";
import { withIntent } from "../service/fixtures/testRequest.ts";
import type { Bytes32 } from "../../ts/service/model/values.ts";
import { getAddress } from "viem";
import { canonicalAddress, canonicalHex } from "../../ts/service/model/values.ts";

const { viem } = await network.create();
const publicClient = await viem.getPublicClient();
const wallets = (await viem.getWalletClients()) as unknown as WalletClient<Transport, Chain, Account>[];
const CHAIN_ID = await publicClient.getChainId();
const CHAINS = [{ id: CHAIN_ID, name: "ferry-origin", protocol: { v2: { chainId: "ferry-origin", depository: "" } } }] as unknown as ChainRecord[];
const AMOUNT = 10n ** 18n;

let requestCounter = 0;

describe("executeQuote (real chain, real service app)", function () {
  this.timeout(60_000);
  let ferry: FerryFixture;
  let store: Store;
  let server: Listening;
  let client: FerryClient;

  before(async function () {
    ferry = await deployFerry(viem);
    store = await createStore({});
    server = await listen({ config: fixtureConfig({ rateLimits: { anonymousPerMinute: 100_000 } }), deps: { store } });
    client = createFerryClient({ baseUrl: server.url });
  });
  after(async () => {
    await server?.close();
    await store?.close();
  });

  /** A native deposit quote for `from`, built as the service builds one (the vectors' orderData). */
  function nativeQuote(from: string, overrides: { chainId?: number } = {}): Quote {
    const vector = structuredClone(loadOrderIdVectors().cases.find((c) => c.name === "native bridge")!);
    const orderData = vector.orderData as unknown as Quote["protocol"]["v2"]["orderData"];
    orderData.salt = `0x${(++requestCounter).toString(16).padStart(64, "0")}`;
    const orderId = getOrderId(orderData);
    const requestId = `0x${(0xabc000 + requestCounter).toString(16).padStart(64, "0")}`;
    const depository = ferry.addresses.depository;
    return {
      steps: [
        {
          id: "deposit",
          action: "Confirm transaction in your wallet",
          description: "Deposit",
          kind: "transaction",
          requestId,
          depositAddress: "",
          items: [
            {
              status: "incomplete",
              data: {
                from,
                to: depository,
                data: encodeFunctionData({ abi: DEPOSITORY_DEPOSIT_ABI, functionName: "depositNative", args: [zeroAddress, orderId] }),
                value: AMOUNT.toString(),
                chainId: overrides.chainId ?? CHAIN_ID,
              },
              check: { endpoint: `/intents/status?requestId=${requestId}`, method: "GET" },
            },
          ],
        },
      ],
      fees: {},
      details: { operation: "bridge", sender: from, recipient: from } as unknown as Quote["details"],
      protocol: { v2: { orderId, orderData, paymentDetails: { chainId: "ferry-origin", depository, currency: zeroAddress, amount: AMOUNT.toString() } } },
    };
  }

  /** Plays indexer + solver: once the deposit is confirmed, stores the request and walks it through `statuses`. */
  function solverStub(quote: Quote, statuses: { status: "pending" | "submitted" | "success" | "failure" | "refund"; failReason?: string; refundFailReason?: string }[]) {
    let started: Promise<void> | undefined;
    // Each status stays until the client has reported it (at most 10 s), so a poll slowed down by a
    // busy machine cannot miss one.
    const seen = new Set<string>();
    const reported = async (status: string) => {
      for (const deadline = Date.now() + 10_000; !seen.has(status) && Date.now() < deadline; ) await new Promise((resolve) => setTimeout(resolve, 20));
    };
    const onProgress = (p: ExecuteProgress) => {
      if (p.phase === "status") seen.add(p.status!.status);
      if (p.phase !== "confirmed" || started) return;
      const step = quote.steps[0]!;
      started = (async () => {
        await store.createRequest(
          withIntent({
            id: step.requestId as Bytes32,
            orderId: quote.protocol.v2.orderId as Bytes32,
            user: canonicalAddress(step.items[0]!.data.from as string),
            recipient: canonicalAddress(step.items[0]!.data.from as string),
            originChainId: CHAIN_ID,
            destinationChainId: 31338,
            inTxHashes: [p.txHashes[0]!.txHash as Bytes32],
            data: {},
          }),
        );
        for (const { status, failReason, refundFailReason } of statuses) {
          await new Promise((resolve) => setTimeout(resolve, 250));
          await store.transitionRequest(canonicalHex(step.requestId), status, {
            ...(failReason && { failReason }),
            ...(refundFailReason && { refundFailReason }),
            ...(status === "submitted" && { txHashes: [canonicalHex(`0x${"ee".repeat(32)}`)] }),
          });
          await reported(status);
        }
      })();
    };
    return { onProgress, done: () => started };
  }

  async function rejection<T extends Error>(promise: Promise<unknown>, type: new (...args: never[]) => T): Promise<T> {
    try {
      await promise;
    } catch (error) {
      expect(error).to.be.instanceOf(type);
      return error as T;
    }
    throw new Error("expected a rejection");
  }

  it("sends the deposit, follows check.endpoint and resolves on success, reporting every change", async () => {
    const wallet = wallets[4]!;
    const quote = nativeQuote(wallet.account.address);
    const stub = solverStub(quote, [{ status: "pending" }, { status: "submitted" }, { status: "success" }]);
    const progress: ExecuteProgress[] = [];
    const depositoryBefore = await publicClient.getBalance({ address: ferry.addresses.depository });

    const result = await executeWith(wallet, quote, (p) => {
      progress.push(p);
      stub.onProgress(p);
    });
    await stub.done();

    expect(result.status.status).to.equal("success");
    expect(result.requestId).to.equal(quote.steps[0]!.requestId);
    expect(result.txHashes).to.have.length(1);
    const receipt = await publicClient.getTransactionReceipt({ hash: result.txHashes[0]!.txHash });
    expect(receipt.status).to.equal("success");
    expect(await publicClient.getBalance({ address: ferry.addresses.depository })).to.equal(depositoryBefore + AMOUNT);

    const phases = progress.map((p) => (p.phase === "status" ? `status:${p.status!.status}` : p.phase));
    expect(phases.slice(0, 3)).to.deep.equal(["sending", "sent", "confirmed"]);
    // The nudge (POST /transactions/index) failing against this app is ignored.
    expect(phases.filter((p) => p.startsWith("status:")).at(-1)).to.equal("status:success");
    expect(phases).to.include("status:submitted");
    expect(progress.every((p) => p.step.id === "deposit" && p.itemIndex === 0)).to.equal(true);
  });

  it("rejects with RequestFailedError carrying the status record on failure", async () => {
    const wallet = wallets[5]!;
    const quote = nativeQuote(wallet.account.address);
    // A failure with no refund coming (a failure whose refund is in progress shows as pending).
    const stub = solverStub(quote, [{ status: "pending" }, { status: "failure", failReason: "ORDER_EXPIRED", refundFailReason: "AMOUNT_TOO_LOW_TO_REFUND" }]);
    const error = await rejection(executeWith(wallet, quote, stub.onProgress), RequestFailedError);
    expect(error.code).to.equal("REQUEST_FAILED");
    expect(error.failReason).to.equal("ORDER_EXPIRED");
    expect(error.status.status).to.equal("failure");
    expect(error.requestId).to.equal(quote.steps[0]!.requestId);
  });

  it("times out with TIMEOUT and the last status when the request never ends", async () => {
    const wallet = wallets[6]!;
    const quote = nativeQuote(wallet.account.address);
    const stub = solverStub(quote, [{ status: "pending" }]);
    const error = await rejection(executeWith(wallet, quote, stub.onProgress, { timeoutMs: 1_500 }), ExecuteQuoteError);
    expect(error.code).to.equal("TIMEOUT");
    expect(error.lastStatus?.status).to.equal("pending");
  });

  describe("refuses before sending anything", () => {
    async function expectRefused(wallet: WalletClient<Transport, Chain, Account>, quote: Quote, code: string, chains = CHAINS) {
      const nonce = await publicClient.getTransactionCount({ address: wallet.account.address });
      const error = await rejection(executeWith(wallet, quote, () => {}, { chains }), ExecuteQuoteError);
      expect(error.code).to.equal(code);
      expect(await publicClient.getTransactionCount({ address: wallet.account.address })).to.equal(nonce);
      return error;
    }

    it("WALLET_MISMATCH when the wallet's account is not the transaction's from", async () => {
      await expectRefused(wallets[7]!, nativeQuote(wallets[8]!.account.address), "WALLET_MISMATCH");
    });

    it("CHAIN_MISMATCH when the transaction is for another chain than the wallet's", async () => {
      const wallet = wallets[7]!;
      // A consistent quote for another chain (verifyQuote passes): the wallet is on the wrong one.
      const otherChains = [{ ...CHAINS[0]!, id: CHAIN_ID + 1 }];
      await expectRefused(wallet, nativeQuote(wallet.account.address, { chainId: CHAIN_ID + 1 }), "CHAIN_MISMATCH", otherChains);
    });

    it("QUOTE_INVALID when the deposit's chainId is not the payment chain's", async () => {
      const wallet = wallets[7]!;
      const error = await expectRefused(wallet, nativeQuote(wallet.account.address, { chainId: CHAIN_ID + 1 }), "QUOTE_INVALID");
      expect((error.cause as { code: string; field: string }).field).to.equal("chain");
    });

    it("QUOTE_INVALID when the orderData does not hash to the orderId the deposit uses", async () => {
      const wallet = wallets[7]!;
      const quote = nativeQuote(wallet.account.address);
      quote.protocol.v2.orderData.output.payments[0]!.recipient = wallets[8]!.account.address.toLowerCase();
      const error = await expectRefused(wallet, quote, "QUOTE_INVALID");
      expect((error.cause as { code: string }).code).to.equal("ORDER_ID_MISMATCH");
    });

    it("QUOTE_INVALID when the deposit pays another amount than the quote", async () => {
      const wallet = wallets[7]!;
      const quote = nativeQuote(wallet.account.address);
      quote.steps[0]!.items[0]!.data.value = (AMOUNT + 1n).toString();
      const error = await expectRefused(wallet, quote, "QUOTE_INVALID");
      expect((error.cause as { code: string }).code).to.equal("DEPOSIT_MISMATCH");
    });

    it("UNSUPPORTED_STEP for a signature step that is not a permit posted to /execute/permits", async () => {
      const wallet = wallets[7]!;
      const quote = nativeQuote(wallet.account.address);
      quote.steps.unshift({ ...quote.steps[0]!, id: "authorize", kind: "signature" });
      await expectRefused(wallet, quote, "UNSUPPORTED_STEP");
    });
  });

  function executeWith(
    wallet: WalletClient<Transport, Chain, Account>,
    quote: Quote,
    onProgress: (p: ExecuteProgress) => void,
    extra: { timeoutMs?: number; chains?: ChainRecord[] } = {},
  ) {
    return client.executeQuote({ quote, walletClient: wallet, publicClient, chains: extra.chains ?? CHAINS, onProgress, pollIntervalMs: 50, timeoutMs: extra.timeoutMs ?? 20_000 });
  }
});

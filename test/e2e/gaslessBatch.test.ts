/**
 * End to end, issue 22 item 5: the official SDK's `executeGaslessBatch` (@relayprotocol/relay-sdk,
 * unmodified) against the devnet, through an app backend's proxy (examples/gasless-proxy) that adds the
 * app's x-api-key — the SDK sends the key only to the reference service's own hosts. The SDK signs an
 * EIP-7702 authorization delegating the user's EOA to Uniswap's Calibur at its canonical address (on
 * the devnet: Calibur v1.0.0 built from its sources, ts/devnet/devnetCalibur.ts), signs Calibur's
 * EIP-712 `SignedBatchedCall` over the quote's calls, and POSTs /execute; the service's relayer sends
 * the type-4 transaction and pays the gas, debited from the app balance; the SDK polls to `success`.
 *
 * Two users that hold no ETH for gas: one with exactly the native amount it bridges (its balance ends
 * at 0: it paid the deposit and not one wei of gas), one with fUSD only and no ETH at all (approve +
 * deposit batched). The recipients get the quoted amounts on the destination chain.
 */
import { expect } from "chai";
import type { Server } from "node:http";
import { createClient, executeGaslessBatch, getClient, LogLevel, type GaslessBatchProgress } from "@relayprotocol/relay-sdk";
import { configureDynamicChains } from "@relayprotocol/relay-sdk/chain-utils";
import { erc20Abi, parseEther, parseUnits, type Address, type Hex } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { startGaslessProxy } from "../../examples/gasless-proxy/node-http.ts";
import { CALIBUR_ADDRESS } from "../../ts/devnet/devnetCalibur.ts";
import { DEVNET_RELAYER_INDEX } from "../../ts/devnet/devnetChains.ts";
import { hardhatTestAccount } from "../../ts/devnet/devnetAccounts.ts";
import { DESTINATION, NATIVE, ORIGIN, freshRecipient, startE2eDevnet, type E2eDevnet } from "./e2eDevnet.ts";

type AppBalance = { availableUsd: string; heldUsd: string; debitedUsd: string; entries: { kind: string; reference: string | null; amountUsd: string }[] };

describe("e2e: the SDK's executeGaslessBatch (Calibur, EIP-7702) through an app's proxy", function () {
  this.timeout(300_000);
  let devnet: E2eDevnet;
  let proxy: { server: Server; url: string };
  const relayer = hardhatTestAccount(DEVNET_RELAYER_INDEX).address;

  before(async function () {
    this.timeout(180_000);
    devnet = await startE2eDevnet();
    proxy = await startGaslessProxy({ ferryUrl: devnet.file.apiUrl, apiKey: devnet.file.apiKey });
    createClient({
      baseApiUrl: proxy.url,
      // Required by executeGaslessBatch before it starts; never sent to a non-reference host: the proxy adds the real key.
      apiKey: "held-by-the-app-backend",
      source: "ferry-e2e",
      logLevel: LogLevel.None,
      pollingInterval: 200,
      maxPollingAttemptsBeforeTimeout: 300,
    });
    await configureDynamicChains();
  });
  after(async () => {
    if (proxy) await new Promise((resolve) => proxy.server.close(resolve));
    await devnet?.close();
  });

  const appBalance = async (): Promise<AppBalance> => {
    const response = await fetch(`${devnet.file.apiUrl}/app-balance?limit=50`, { headers: { "x-api-key": devnet.file.apiKey } });
    expect(response.status).to.equal(200);
    return (await response.json()) as AppBalance;
  };

  const freshUser = () => {
    const key: Hex = generatePrivateKey();
    return { key, address: privateKeyToAccount(key).address, wallet: devnet.origin.wallet(key) };
  };

  /** The relayed transaction of a request: the one in its inTxs, sent by the relayer as a type-4 transaction to the user. */
  const relayedTransaction = async (requestId: string) => {
    const status = await devnet.client.getStatus(requestId as Hex);
    expect(status.status).to.equal("success");
    expect(status.inTxHashes).to.have.length(1);
    const hash = status.inTxHashes[0]! as Hex;
    return { tx: await devnet.origin.publicClient.getTransaction({ hash }), receipt: await devnet.origin.publicClient.getTransactionReceipt({ hash }) };
  };

  it("the devnet has Calibur's code at the SDK's executor address on both chains", async () => {
    expect(devnet.origin.file.contracts.calibur).to.equal(CALIBUR_ADDRESS);
    for (const chain of [devnet.origin, devnet.destination]) {
      const code = await chain.publicClient.getCode({ address: CALIBUR_ADDRESS });
      expect(code?.length ?? 0).to.be.greaterThan(1000);
    }
  });

  it("funds the app balance onchain (POST /app-balance/deposits, 0.01 ETH)", async () => {
    const funder = devnet.users[3]!;
    const response = await fetch(`${devnet.file.apiUrl}/app-balance/deposits`, {
      method: "POST",
      headers: { "content-type": "application/json", "x-api-key": devnet.file.apiKey },
      body: JSON.stringify({ chainId: ORIGIN, currency: NATIVE, amount: parseEther("0.01").toString() }),
    });
    const order = (await response.json()) as { steps: { items: { data: { to: Address; data: Hex; value: string } }[] }[] };
    expect(response.status, JSON.stringify(order)).to.equal(200);
    const wallet = devnet.origin.wallet(funder);
    for (const step of order.steps) for (const item of step.items) {
      const hash = await wallet.sendTransaction({ to: item.data.to, data: item.data.data, value: BigInt(item.data.value ?? "0") });
      await devnet.origin.publicClient.waitForTransactionReceipt({ hash });
    }
    for (let i = 0; i < 300 && (await appBalance()).availableUsd === "0"; i++) await new Promise((resolve) => setTimeout(resolve, 100));
    expect((await appBalance()).availableUsd).to.equal("30000000");
  });

  it("native: a user holding only the amount it bridges delegates to Calibur and bridges without paying gas", async () => {
    const user = freshUser();
    const recipient = freshRecipient();
    const amount = parseEther("0.01");
    // Exactly the deposit, nothing for gas.
    const fund = await devnet.origin.wallet(devnet.users[3]!).sendTransaction({ to: user.address, value: amount });
    await devnet.origin.publicClient.waitForTransactionReceipt({ hash: fund });
    const before = await appBalance();

    const quote = await getClient().actions.getQuote({ chainId: ORIGIN, toChainId: DESTINATION, currency: NATIVE, toCurrency: NATIVE, amount: amount.toString(), tradeType: "EXACT_INPUT", user: user.address, recipient });
    const progress: GaslessBatchProgress["status"][] = [];
    const result = await executeGaslessBatch({ quote, walletClient: user.wallet, onProgress: (p) => progress.push(p.status) });

    expect(result.requestId).to.equal(quote.steps![0]!.requestId);
    expect(progress).to.deep.equal(["signing_authorization", "signing_batch", "submitting", "polling", "success"]);
    expect(await devnet.origin.publicClient.getBalance({ address: user.address })).to.equal(0n);
    expect((await devnet.origin.publicClient.getCode({ address: user.address }))?.toLowerCase()).to.equal(`0xef0100${CALIBUR_ADDRESS.slice(2).toLowerCase()}`);
    const { tx, receipt } = await relayedTransaction(result.requestId);
    expect(tx.type).to.equal("eip7702");
    expect(tx.from.toLowerCase()).to.equal(relayer.toLowerCase());
    expect(tx.to?.toLowerCase()).to.equal(user.address.toLowerCase());
    expect(receipt.status).to.equal("success");
    expect(await devnet.destination.publicClient.getBalance({ address: recipient })).to.equal(BigInt(quote.details!.currencyOut!.amount!));
    await expectDebited(before, result.requestId, receipt.gasUsed * receipt.effectiveGasPrice);
  });

  it("stablecoin: a user with fUSD and no ETH at all batches approve + deposit through Calibur", async () => {
    const user = freshUser();
    const recipient = freshRecipient();
    const fusd = devnet.origin.file.contracts.stablecoin!;
    const amount = parseUnits("25", 6);
    const give = await devnet.origin.wallet(devnet.users[3]!).writeContract({ address: fusd, abi: erc20Abi, functionName: "transfer", args: [user.address, amount] });
    await devnet.origin.publicClient.waitForTransactionReceipt({ hash: give });
    expect(await devnet.origin.publicClient.getBalance({ address: user.address })).to.equal(0n);
    const before = await appBalance();

    const quote = await getClient().actions.getQuote({ chainId: ORIGIN, toChainId: DESTINATION, currency: fusd, toCurrency: fusd, amount: amount.toString(), tradeType: "EXACT_INPUT", user: user.address, recipient });
    const calls = quote.steps!.filter((s) => s.kind === "transaction").flatMap((s) => s.items ?? []);
    expect(calls.length).to.be.greaterThan(1);
    const result = await executeGaslessBatch({ quote, walletClient: user.wallet });

    expect(await devnet.origin.publicClient.getBalance({ address: user.address })).to.equal(0n);
    expect(await devnet.origin.publicClient.readContract({ address: fusd, abi: erc20Abi, functionName: "balanceOf", args: [user.address] })).to.equal(0n);
    const { tx, receipt } = await relayedTransaction(result.requestId);
    expect(tx.type).to.equal("eip7702");
    expect(tx.from.toLowerCase()).to.equal(relayer.toLowerCase());
    const destinationFusd = devnet.destination.file.contracts.stablecoin!;
    expect(await devnet.destination.publicClient.readContract({ address: destinationFusd, abi: erc20Abi, functionName: "balanceOf", args: [recipient] })).to.equal(BigInt(quote.details!.currencyOut!.amount!));
    await expectDebited(before, result.requestId, receipt.gasUsed * receipt.effectiveGasPrice);
  });

  /** The app balance paid the relayed gas (at the devnet's 3000 USD/ETH, rounded up), once, nothing left held. */
  async function expectDebited(before: AppBalance, requestId: string, paidWei: bigint): Promise<void> {
    const expected = (paidWei * 3000n * 10n ** 8n + 10n ** 20n - 1n) / 10n ** 20n;
    let after = await appBalance();
    for (let i = 0; i < 100 && BigInt(after.debitedUsd) === BigInt(before.debitedUsd); i++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      after = await appBalance();
    }
    expect(BigInt(after.debitedUsd) - BigInt(before.debitedUsd)).to.equal(expected);
    expect(expected > 0n).to.equal(true);
    expect(after.heldUsd).to.equal("0");
    const lines = after.entries.filter((e) => e.reference === requestId).map((e) => e.kind).sort();
    expect(lines).to.deep.equal(["debit", "hold", "release"]);
  }
});

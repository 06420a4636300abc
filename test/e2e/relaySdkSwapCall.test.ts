/**
 * The official client (`@relayprotocol/relay-sdk`, unmodified) on the devnet beyond a bridge:
 * - a swap: ETH (31337) → fUSD (31338), priced by the destination's Uniswap V2 pool, executed to
 *   `success`, the recipient paid at least the quoted minimum;
 * - a cross-chain call: fUSD bridged and deposited into the ERC-4626 vault through `txs`;
 * - a same-chain swap, which the SDK follows with POST /transactions/single;
 * - attribution: the SDK sends no x-api-key to a non-reference host, but sends its `source` as the
 *   quote's `referrer`. The operator ties that referrer to the devnet API key (what `ferry keys
 *   referrer` does), so the key's webhooks fire for the SDK's requests, signed with the key.
 * Also: /chains and the signature route publish the attestation signer.
 */
import { expect } from "chai";
import { createHmac } from "node:crypto";
import { adaptViemWallet, createClient, getClient, LogLevel } from "@relayprotocol/relay-sdk";
import { configureDynamicChains } from "@relayprotocol/relay-sdk/chain-utils";
import { encodeFunctionData, erc20Abi, parseAbi, parseEther, recoverMessageAddress, type Address, type Hex } from "viem";
import { requestDigest } from "../../ts/core/attestationDigest.ts";
import { apiKeyStore } from "../../ts/service/store/apiKeys.ts";
import { startReceiver, waitUntil, type Receiver } from "../service/webhooks/webhookReceiver.ts";
import { DESTINATION, NATIVE, ORIGIN, freshRecipient, startE2eDevnet, type E2eDevnet } from "./e2eDevnet.ts";

const SOURCE = "ferry-e2e-app";
const VAULT_ABI = parseAbi(["function deposit(uint256 assets, address receiver) returns (uint256)", "function balanceOf(address) view returns (uint256)"]);

describe("e2e: @relayprotocol/relay-sdk — swap, call, attribution", function () {
  this.timeout(300_000);
  let devnet: E2eDevnet;
  let receiver: Receiver;
  let fusd: Address;

  before(async function () {
    this.timeout(150_000);
    receiver = await startReceiver(() => 200);
    devnet = await startE2eDevnet({ webhookUrl: receiver.url });
    fusd = devnet.destination.file.contracts.stablecoin!;
    // The operator's step: tie the SDK's source to the devnet API key (ferry keys referrer <keyId> <referrer>).
    const keys = apiKeyStore(devnet.server.store!);
    const [key] = await keys.listApiKeys();
    expect(await keys.setReferrer(key!.id, SOURCE)).to.equal(true);
    createClient({ baseApiUrl: devnet.file.apiUrl, source: SOURCE, logLevel: LogLevel.None, pollingInterval: 300, maxPollingAttemptsBeforeTimeout: 200, confirmationPollingInterval: 100 });
    await configureDynamicChains();
  });
  after(async () => {
    await devnet?.close();
    await receiver?.close();
  });

  const webhookStatuses = (requestId: string) =>
    receiver.received.map((r) => JSON.parse(r.rawBody) as { data: { requestId: string; status: string } }).filter((b) => b.data.requestId === requestId.toLowerCase()).map((b) => b.data.status);

  it("swaps ETH → fUSD across chains through the SDK; the referrer's app gets the signed webhooks", async () => {
    const user = devnet.users[0]!;
    const recipient = freshRecipient();
    const wallet = devnet.origin.wallet(user);
    const quote = await getClient().actions.getQuote({
      chainId: ORIGIN,
      toChainId: DESTINATION,
      currency: NATIVE,
      toCurrency: fusd,
      amount: parseEther("0.5").toString(),
      tradeType: "EXACT_INPUT",
      wallet,
      user: user.address,
      recipient,
      options: { slippageTolerance: "100" },
    });
    expect(quote.details!.operation).to.equal("swap");
    const requestId = quote.steps![0]!.requestId!;
    const { data } = await getClient().actions.execute({ quote, wallet: adaptViemWallet(wallet), onProgress: () => {} });
    expect(data.steps!.at(-1)!.items!.at(-1)!.checkStatus).to.equal("success");
    const received = await devnet.destination.publicClient.readContract({ address: fusd, abi: erc20Abi, functionName: "balanceOf", args: [recipient] });
    expect(received >= BigInt(quote.details!.currencyOut!.minimumAmount!)).to.equal(true);
    expect(received).to.equal(BigInt(quote.details!.currencyOut!.amount!));

    // No x-api-key was sent (the SDK sends it only to the reference's hosts): the referrer attributed it.
    await waitUntil(() => webhookStatuses(requestId).includes("success"), 20_000, "the success webhook");
    expect(webhookStatuses(requestId)).to.deep.equal(["waiting", "pending", "submitted", "success"]);
    const last = receiver.received.at(-1)!;
    const expected = createHmac("sha256", devnet.file.apiKey).update(`${last.headers["x-signature-timestamp"]}.${last.rawBody}`).digest("hex");
    expect(last.headers["x-signature-sha256"]).to.equal(expected);
  });

  it("bridges fUSD and deposits it into the vault (txs) through the SDK", async () => {
    const user = devnet.users[1]!;
    const wallet = devnet.origin.wallet(user);
    const vault = devnet.destination.file.contracts.vault!;
    const amount = 200_000_000n;
    const quote = await getClient().actions.getQuote({
      chainId: ORIGIN,
      toChainId: DESTINATION,
      currency: fusd,
      toCurrency: fusd,
      amount: amount.toString(),
      tradeType: "EXACT_OUTPUT",
      wallet,
      user: user.address,
      recipient: user.address,
      txs: [
        { to: fusd, value: "0", data: encodeFunctionData({ abi: erc20Abi, functionName: "approve", args: [vault, amount] }) },
        { to: vault, value: "0", data: encodeFunctionData({ abi: VAULT_ABI, functionName: "deposit", args: [amount, user.address] }) },
      ],
    });
    expect(quote.steps!.map((s) => s.id)).to.deep.equal(["approve", "deposit"]);
    const { data } = await getClient().actions.execute({ quote, wallet: adaptViemWallet(wallet), onProgress: () => {} });
    expect(data.steps!.at(-1)!.items!.at(-1)!.checkStatus).to.equal("success");
    expect(await devnet.destination.publicClient.readContract({ address: vault, abi: VAULT_ABI, functionName: "balanceOf", args: [user.address] })).to.equal(amount);
  });

  it("a same-chain swap through the SDK (it posts /transactions/single), to success", async () => {
    const user = devnet.users[2]!;
    const recipient = freshRecipient();
    const wallet = devnet.origin.wallet(user);
    const quote = await getClient().actions.getQuote({
      chainId: ORIGIN,
      toChainId: ORIGIN,
      currency: NATIVE,
      toCurrency: fusd,
      amount: parseEther("0.1").toString(),
      tradeType: "EXACT_INPUT",
      wallet,
      user: user.address,
      recipient,
    });
    const requestId = quote.steps![0]!.requestId!;
    const { data } = await getClient().actions.execute({ quote, wallet: adaptViemWallet(wallet), onProgress: () => {} });
    // The SDK finishes a same-chain transaction at its receipt; the fill follows.
    await waitUntil(async () => (await devnet.client.getStatus(requestId)).status === "success", 30_000, "the same-chain fill");
    // The body the SDK posted to /transactions/single, once more by hand: it indexes the deposit.
    const item = data.steps!.at(-1)!.items!.at(-1)!;
    const txHash = item.txHashes![0]!.txHash;
    const single = (body: unknown) => fetch(`${devnet.file.apiUrl}/transactions/single`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
    const ok = await single({ tx: JSON.stringify({ ...item.data, txHash }), chainId: String(ORIGIN), requestId, referrer: SOURCE });
    expect(ok.status).to.equal(200);
    expect(((await ok.json()) as { requestIds: string[] }).requestIds).to.deep.equal([requestId.toLowerCase()]);
    const bad = await single({ tx: "{}", chainId: String(ORIGIN), requestId });
    expect(bad.status).to.equal(400);
    expect(((await bad.json()) as { errorCode: string }).errorCode).to.equal("INVALID_REQUEST");
    expect(await devnet.origin.publicClient.readContract({ address: fusd, abi: erc20Abi, functionName: "balanceOf", args: [recipient] })).to.equal(BigInt(quote.details!.currencyOut!.amount!));
  });

  it("publishes the attestation signer in /chains and the signature route, and it signs", async () => {
    const chains = (await (await fetch(`${devnet.file.apiUrl}/chains`)).json()) as { chains: { id: number; attestationSigners: string[] }[] };
    const attester = devnet.account("attester").address;
    for (const chain of chains.chains) expect(chain.attestationSigners).to.deep.equal([attester]);
    const quote = await devnet.client.getQuote({
      user: devnet.users[3]!.address,
      originChainId: ORIGIN,
      destinationChainId: DESTINATION,
      originCurrency: NATIVE,
      destinationCurrency: fusd,
      amount: parseEther("0.1").toString(),
      tradeType: "EXACT_INPUT",
    });
    const requestId = quote.steps.at(-1)!.requestId as Hex;
    const record = (await (await fetch(`${devnet.file.apiUrl}/requests/${requestId}/signature`)).json()) as {
      signer: string;
      signature: Hex;
      requestData: { originChainId: number; originUser: Address; originCurrency: Address; originAmount: string; destinationChainId: number; destinationUser: Address };
    };
    expect(record.signer).to.equal(attester);
    const pad = (a: Address) => `0x${a.slice(2).toLowerCase().padStart(64, "0")}` as Hex;
    const digest = requestDigest({
      requestId,
      originChainId: BigInt(record.requestData.originChainId),
      originUser: pad(record.requestData.originUser),
      originCurrency: pad(record.requestData.originCurrency),
      originAmount: BigInt(record.requestData.originAmount),
      destinationChainId: BigInt(record.requestData.destinationChainId),
      destinationUser: pad(record.requestData.destinationUser),
    });
    expect(await recoverMessageAddress({ message: { raw: digest }, signature: record.signature })).to.equal(attester);
  });
});

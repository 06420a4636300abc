/**
 * Compatibility (docs/architecture.md "Service"): the official client of the public service this API follows,
 * `@relayprotocol/relay-sdk`, pointed at the devnet's apiUrl, fetches the chains (GET /chains through
 * configureDynamicChains), gets a quote for a native bridge and executes it with a viem wallet
 * (adaptViemWallet) to `success`. Nothing in the SDK is patched: if this fails, the server is what
 * must change. `source` is set as the SDK's docs ask every integration to (it becomes `referrer` on
 * /chains, /quote/v2, the status polls and /transactions/index).
 */
import { expect } from "chai";
import { adaptViemWallet, createClient, LogLevel, type ProgressData } from "@relayprotocol/relay-sdk";
import { configureDynamicChains } from "@relayprotocol/relay-sdk/chain-utils";
import { parseEther } from "viem";
import { DESTINATION, NATIVE, ORIGIN, freshRecipient, startE2eDevnet, type E2eDevnet } from "./e2eDevnet.ts";

describe("e2e: @relayprotocol/relay-sdk against the devnet", function () {
  this.timeout(240_000);
  let devnet: E2eDevnet;

  before(async function () {
    this.timeout(120_000);
    devnet = await startE2eDevnet();
    createClient({
      baseApiUrl: devnet.file.apiUrl,
      source: "ferry-e2e",
      logLevel: LogLevel.None,
      pollingInterval: 500,
      maxPollingAttemptsBeforeTimeout: 60,
      confirmationPollingInterval: 100,
    });
  });
  after(async () => devnet?.close());

  it("configureDynamicChains loads both devnet chains from GET /chains", async () => {
    const chains = await configureDynamicChains();
    const byId = new Map(chains.map((c) => [c.id, c]));
    for (const id of [ORIGIN, DESTINATION]) {
      const chain = byId.get(id);
      expect(chain, `chain ${id}`).to.not.equal(undefined);
      expect(chain!.vmType).to.equal("evm");
      expect(chain!.httpRpcUrl).to.equal(devnet.chain(id).file.rpcUrl);
      expect(chain!.viemChain?.id).to.equal(id);
    }
  });

  // What the SDK sends besides GET /chains and POST /quote/v2 (relay-sdk 7.0.3,
  // src/utils/transaction.ts): the status poll with `referrer=<source>` appended, and the deposit
  // nudge with a string chainId and `referrer`. Checked on their own so a failure names the request.
  it("the status endpoint accepts the SDK's poll (`&referrer=<source>` appended to check.endpoint)", async () => {
    const user = devnet.users[1]!;
    const quote = await devnet.client.getQuote({
      user: user.address,
      originChainId: ORIGIN,
      destinationChainId: DESTINATION,
      originCurrency: NATIVE,
      destinationCurrency: NATIVE,
      recipient: user.address,
      amount: parseEther("0.1").toString(),
      tradeType: "EXACT_INPUT",
      referrer: "ferry-e2e",
    });
    const endpoint = quote.steps.at(-1)!.items[0]!.check!.endpoint;
    const response = await fetch(`${devnet.file.apiUrl}${endpoint}&referrer=ferry-e2e`, { headers: { "relay-sdk-version": "7.0.3" } });
    expect(response.status, await response.clone().text()).to.equal(200);
    expect(((await response.json()) as { status: string }).status).to.equal("waiting");
  });

  it("POST /transactions/index accepts the SDK's nudge body {txHash, chainId: \"31337\", referrer}", async () => {
    const response = await fetch(`${devnet.file.apiUrl}/transactions/index`, {
      method: "POST",
      headers: { "content-type": "application/json", "relay-sdk-version": "7.0.3" },
      body: JSON.stringify({ txHash: `0x${"11".repeat(32)}`, chainId: String(ORIGIN), referrer: "ferry-e2e" }),
    });
    // An unknown hash may be refused, but not the body's shape.
    const body = (await response.json()) as { errorCode?: string; message?: string };
    expect(body.errorCode, body.message).to.not.equal("INVALID_REQUEST");
  });

  it("getQuote + execute (adaptViemWallet) bridge native 31337 → 31338 to success", async () => {
    const { getClient } = await import("@relayprotocol/relay-sdk");
    const user = devnet.users[0]!;
    const recipient = freshRecipient();
    const wallet = devnet.origin.wallet(user);
    const relay = getClient();
    if (!relay.chains.some((c) => c.id === ORIGIN)) await configureDynamicChains();

    const quote = await relay.actions.getQuote({
      chainId: ORIGIN,
      toChainId: DESTINATION,
      currency: NATIVE,
      toCurrency: NATIVE,
      amount: parseEther("0.25").toString(),
      tradeType: "EXACT_INPUT",
      wallet,
      user: user.address,
      recipient,
    });
    expect(quote.steps!.map((s) => s.id)).to.deep.equal(["deposit"]);
    const requestId = quote.steps![0]!.requestId!;

    const progress: ProgressData[] = [];
    const { data } = await relay.actions.execute({ quote, wallet: adaptViemWallet(wallet), onProgress: (p) => progress.push(p) });
    const item = data.steps!.at(-1)!.items!.at(-1)!;
    expect(item.status).to.equal("complete");
    expect(item.checkStatus).to.equal("success");

    const status = await devnet.client.getStatus(requestId);
    expect(status.status).to.equal("success");
    expect(await devnet.destination.publicClient.getBalance({ address: recipient })).to.equal(BigInt(quote.details!.currencyOut!.amount!));
    expect(progress.length).to.be.greaterThan(0);
  });
});

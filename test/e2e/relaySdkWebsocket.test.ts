/**
 * Compatibility of the websocket (docs/architecture.md "Service"): `@relayprotocol/relay-sdk` with its websocket
 * mode on (`websocket: {enabled, url}`), pointed at the devnet's `/ws`, executes a native bridge to
 * `success` — and the success came over the websocket: the server counted the SDK's subscription and
 * the updates it sent, and the SDK never polled the status endpoint (with a live websocket it only
 * polls after the socket fails).
 *
 * The SDK opens its websocket only in a browser (`typeof window.WebSocket !== "undefined"`); Node 22
 * has the same standard WebSocket as a global, so the test provides `window` with it for the
 * duration of the suite. Nothing of the SDK itself is patched.
 */
import { expect } from "chai";
import { adaptViemWallet, createClient, getClient, LogLevel } from "@relayprotocol/relay-sdk";
import { configureDynamicChains } from "@relayprotocol/relay-sdk/chain-utils";
import { parseEther } from "viem";
import { DESTINATION, NATIVE, ORIGIN, freshRecipient, startE2eDevnet, type E2eDevnet } from "./e2eDevnet.ts";
import { wsUrl } from "../service/websocket/wsTestClient.ts";

/** Sum of a Prometheus metric's samples whose labels include `labels`. */
async function metric(apiUrl: string, name: string, labels: Record<string, string> = {}): Promise<number> {
  const text = await (await fetch(`${apiUrl}/metrics`)).text();
  let sum = 0;
  for (const line of text.split("\n")) {
    const match = /^([a-z_]+)(\{[^}]*\})? ([0-9.e+-]+)$/.exec(line);
    if (!match || match[1] !== name) continue;
    const sample = match[2] ?? "";
    if (Object.entries(labels).every(([k, v]) => sample.includes(`${k}="${v}"`))) sum += Number(match[3]);
  }
  return sum;
}

describe("e2e: @relayprotocol/relay-sdk with its websocket against the devnet", function () {
  this.timeout(240_000);
  let devnet: E2eDevnet;
  const globals = globalThis as { window?: unknown };
  const hadWindow = "window" in globals;

  before(async function () {
    this.timeout(120_000);
    devnet = await startE2eDevnet();
    if (!hadWindow) globals.window = { WebSocket: globalThis.WebSocket };
    createClient({
      baseApiUrl: devnet.file.apiUrl,
      source: "ferry-e2e",
      logLevel: LogLevel.None,
      pollingInterval: 500,
      maxPollingAttemptsBeforeTimeout: 60,
      confirmationPollingInterval: 100,
      websocket: { enabled: true, url: wsUrl(devnet.file.apiUrl, "/ws") },
    });
  });
  after(async () => {
    if (!hadWindow) delete globals.window;
    await devnet?.close();
  });

  it("execute (websocket mode) bridges native 31337 → 31338 to success, told by the websocket", async () => {
    const user = devnet.users[3]!;
    const recipient = freshRecipient();
    const wallet = devnet.origin.wallet(user);
    const relay = getClient();
    expect(relay.websocketEnabled).to.equal(true);
    await configureDynamicChains();

    const quote = await relay.actions.getQuote({
      chainId: ORIGIN,
      toChainId: DESTINATION,
      currency: NATIVE,
      toCurrency: NATIVE,
      amount: parseEther("0.2").toString(),
      tradeType: "EXACT_INPUT",
      wallet,
      user: user.address,
      recipient,
    });
    const requestId = quote.steps![0]!.requestId!;

    const apiUrl = devnet.file.apiUrl;
    const statusRoute = { route: "/intents/status/v3" };
    const [subscribesBefore, updatesBefore, pollsBefore] = [
      await metric(apiUrl, "ferry_websocket_subscribes_total"),
      await metric(apiUrl, "ferry_websocket_updates_sent_total"),
      await metric(apiUrl, "ferry_http_requests_total", statusRoute),
    ];

    const { data } = await relay.actions.execute({ quote, wallet: adaptViemWallet(wallet), onProgress: () => {} });
    const item = data.steps!.at(-1)!.items!.at(-1)!;
    expect(item.status).to.equal("complete");
    expect(item.checkStatus).to.equal("success");
    expect(await devnet.destination.publicClient.getBalance({ address: recipient })).to.equal(BigInt(quote.details!.currencyOut!.amount!));

    expect(await metric(apiUrl, "ferry_websocket_subscribes_total"), "the SDK subscribed").to.equal(subscribesBefore + 1);
    // At least the current status on subscribe and the terminal success.
    expect(await metric(apiUrl, "ferry_websocket_updates_sent_total")).to.be.at.least(updatesBefore + 2);
    expect(await metric(apiUrl, "ferry_http_requests_total", statusRoute), "no status polls: success came over the websocket").to.equal(pollsBefore);
    expect((await devnet.client.getStatus(requestId)).status).to.equal("success");
    // The SDK closes its socket on success.
    const deadline = Date.now() + 5_000;
    while ((await metric(apiUrl, "ferry_websocket_connections")) !== 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    expect(await metric(apiUrl, "ferry_websocket_connections")).to.equal(0);
  });
});

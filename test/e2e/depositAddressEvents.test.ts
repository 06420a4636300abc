/**
 * End to end on the devnet: webhooks and the websocket follow deposit-address requests like any other.
 * Two strict deposit addresses quoted with the devnet API key (whose webhook endpoint is a receiver on
 * loopback), each followed by a websocket subscription from the quote on:
 * - paid in full by a plain transfer: `waiting` → `pending` → `submitted` → `success`;
 * - paid too little, then the quote expired: the refund path, `waiting` → `pending` → `refund`.
 * Every event, on both channels, carries the request's `depositAddress` (the address, `strict`, the
 * payer and its transaction, from the first event on), and the websocket pushes the webhook's data for
 * the same change.
 */
import { expect } from "chai";
import { getAddress, parseEther, type Address, type Hex } from "viem";
import { connect, isUpdate, subscribe, wsUrl } from "../service/websocket/wsTestClient.ts";
import { startReceiver, waitUntil, type Receiver } from "../service/webhooks/webhookReceiver.ts";
import { DESTINATION, NATIVE, ORIGIN, freshRecipient, startE2eDevnet, type E2eDevnet } from "./e2eDevnet.ts";
import type { DepositAddressQuote } from "./depositAddressApi.ts";

describe("e2e: webhooks and the websocket follow deposit-address requests", function () {
  this.timeout(400_000);
  let devnet: E2eDevnet;
  let receiver: Receiver;

  before(async function () {
    this.timeout(400_000);
    receiver = await startReceiver(() => 200);
    devnet = await startE2eDevnet({ webhookUrl: receiver.url });
  });
  after(async () => {
    await devnet?.close();
    await receiver?.close();
  });

  /** A strict deposit-address quote made with the devnet's API key (so its events go to the key's webhook). */
  async function quote(body: Record<string, unknown>): Promise<{ q: DepositAddressQuote; requestId: string; address: Address }> {
    const response = await fetch(`${devnet.file.apiUrl}/quote/v2`, {
      method: "POST",
      headers: { "content-type": "application/json", "x-api-key": devnet.file.apiKey },
      body: JSON.stringify({ originChainId: ORIGIN, destinationChainId: DESTINATION, tradeType: "EXACT_INPUT", useDepositAddress: true, strict: true, originCurrency: NATIVE, destinationCurrency: NATIVE, ...body }),
    });
    const json = await response.json();
    expect(response.status, JSON.stringify(json)).to.equal(200);
    const q = json as DepositAddressQuote;
    return { q, requestId: q.steps[0]!.requestId.toLowerCase(), address: getAddress(q.steps[0]!.depositAddress) };
  }

  /** Follows `requestId` on the websocket and the webhooks until `last`; both sequences, with their data. */
  async function follow(requestId: string, pay: () => Promise<void>, last: string) {
    const socket = await connect(wsUrl(devnet.file.apiUrl, "/ws", ""));
    socket.send(subscribe(requestId));
    expect((await socket.next()).status).to.equal("success");
    expect((await socket.next(isUpdate(requestId))).data.status, "the quote's own status, sent on subscribe").to.equal("waiting");
    await pay();
    const updates = [];
    do updates.push(await socket.next(isUpdate(requestId), 150_000));
    while (updates.at(-1)!.data.status !== last);
    socket.ws.close();
    await socket.closed;
    const forRequest = () => receiver.received.filter((r) => JSON.parse(r.rawBody).data.requestId === requestId);
    await waitUntil(() => forRequest().some((r) => JSON.parse(r.rawBody).data.status === last), 30_000, `the ${last} webhook`);
    await new Promise((resolve) => setTimeout(resolve, 300));
    const hooks = forRequest().map((h) => JSON.parse(h.rawBody) as { data: { status: string; depositAddress: unknown } });
    expect(hooks.map((h) => h.data.status)).to.deep.equal(updates.map((u) => u.data.status));
    for (const [i, hook] of hooks.entries()) expect(updates[i]!.data).to.deep.equal(hook.data);
    return { statuses: hooks.map((h) => h.data.status), data: hooks.map((h) => h.data) };
  }

  it("a paid address: waiting → pending → submitted → success, each with depositAddress", async () => {
    const user = devnet.users[3]!;
    const { q, requestId, address } = await quote({ user: user.address, recipient: freshRecipient(), amount: parseEther("0.05").toString() });
    let paid: Hex | undefined;
    const { statuses, data } = await follow(
      requestId,
      async () => {
        paid = await devnet.origin.wallet(user).sendTransaction({ to: address, value: BigInt(q.details.currencyIn.amount) });
      },
      "success",
    );
    expect(statuses).to.deep.equal(["waiting", "pending", "submitted", "success"]);
    // Every event names the address, the payer and its transaction — the `waiting` one too: the request
    // is created when the forwarding is seen, and the payment the solver forwarded is attached then.
    for (const d of data) expect(d.depositAddress).to.deep.equal({ address: address.toLowerCase(), depositAddressType: "strict", depositor: user.address.toLowerCase(), depositTxHash: paid!.toLowerCase() });
  });

  it("an address paid too little: the refund path, with depositAddress", async () => {
    const user = devnet.users[4]!;
    const { q, requestId, address } = await quote({ user: user.address, recipient: freshRecipient(), refundTo: freshRecipient(), amount: parseEther("0.05").toString() });
    let paid: Hex | undefined;
    const { statuses, data } = await follow(
      requestId,
      async () => {
        paid = await devnet.origin.wallet(user).sendTransaction({ to: address, value: BigInt(q.details.currencyIn.amount) / 2n });
        await devnet.origin.publicClient.waitForTransactionReceipt({ hash: paid });
        // The quote expires on the origin chain (quotes live at most a day).
        await devnet.origin.testClient.increaseTime({ seconds: 2 * 86_400 });
        await devnet.origin.testClient.mine({ blocks: 2 });
      },
      "refund",
    );
    // `failure` and `refund` are written in one store transaction: the outbox carries the final one.
    expect(statuses).to.deep.equal(["waiting", "pending", "refund"]);
    for (const d of data) expect(d.depositAddress).to.deep.include({ address: address.toLowerCase(), depositAddressType: "strict", depositor: user.address.toLowerCase(), depositTxHash: paid!.toLowerCase() });
  });
});

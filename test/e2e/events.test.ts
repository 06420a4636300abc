/**
 * End to end on the devnet: one native bridge 31337 → 31338, followed at once by a signed webhook
 * (the devnet API key's endpoint is a receiver on loopback) and by a websocket subscription. Both
 * must carry the outbox's statuses `waiting` (the deposit), `pending`, `submitted`, `success`, in that
 * order, each once, with the same `data`. Every webhook's signature is checked with an HMAC computed
 * here with node:crypto over the exact bytes received, keyed with the API key (the spec's rule).
 */
import { expect } from "chai";
import { createHmac, timingSafeEqual } from "node:crypto";
import { parseEther } from "viem";
import { connect, isUpdate, subscribe, wsUrl } from "../service/websocket/wsTestClient.ts";
import { startReceiver, waitUntil, type Receiver } from "../service/webhooks/webhookReceiver.ts";
import { DESTINATION, NATIVE, ORIGIN, freshRecipient, startE2eDevnet, type E2eDevnet } from "./e2eDevnet.ts";

const OUTBOX_STATUSES = ["waiting", "pending", "submitted", "success"];

describe("e2e: webhooks and the websocket follow one bridge", function () {
  this.timeout(180_000);
  let devnet: E2eDevnet;
  let receiver: Receiver;

  before(async function () {
    this.timeout(120_000);
    receiver = await startReceiver(() => 200);
    devnet = await startE2eDevnet({ webhookUrl: receiver.url });
  });
  after(async () => {
    await devnet?.close();
    await receiver?.close();
  });

  it("webhooks waiting → pending → submitted → success, signed; the same sequence and data on the websocket", async () => {
    const user = devnet.users[3]!;
    // devnet.client sends the devnet API key, so the request is tied to the key with the webhook.
    const quote = await devnet.client.getQuote({
      user: user.address,
      originChainId: ORIGIN,
      destinationChainId: DESTINATION,
      originCurrency: NATIVE,
      destinationCurrency: NATIVE,
      recipient: freshRecipient(),
      amount: parseEther("0.2").toString(),
      tradeType: "EXACT_INPUT",
    });
    const requestId = quote.steps.at(-1)!.requestId!.toLowerCase();

    const socket = await connect(wsUrl(devnet.file.apiUrl, "/ws", ""));
    socket.send(subscribe(requestId));
    expect((await socket.next()).status).to.equal("success");
    const quoted = await socket.next(isUpdate(requestId));
    expect(quoted.data.status, "the quote's own status, sent on subscribe").to.equal("waiting");

    const result = await devnet.client.executeQuote({
      quote,
      walletClient: devnet.origin.wallet(user),
      publicClients: { [ORIGIN]: devnet.origin.publicClient, [DESTINATION]: devnet.destination.publicClient },
      pollIntervalMs: 250,
      timeoutMs: 120_000,
    });
    expect(result.status.status).to.equal("success");

    // The websocket: every outbox status of the request, in order.
    const updates = [];
    do updates.push(await socket.next(isUpdate(requestId), 30_000));
    while (updates.at(-1)!.data.status !== "success");
    expect(updates.map((u) => u.data.status)).to.deep.equal(OUTBOX_STATUSES);

    // The webhooks: the same statuses, in the same order, each delivered once.
    const forRequest = () => receiver.received.filter((r) => JSON.parse(r.rawBody).data.requestId === requestId);
    await waitUntil(() => forRequest().some((r) => JSON.parse(r.rawBody).data.status === "success"), 30_000, "the success webhook");
    await new Promise((resolve) => setTimeout(resolve, 300)); // nothing may follow
    const hooks = forRequest();
    const bodies = hooks.map((h) => JSON.parse(h.rawBody));
    expect(bodies.map((b) => b.data.status)).to.deep.equal(OUTBOX_STATUSES);
    expect(new Set(hooks.map((h) => h.eventId)).size, "one delivery per event").to.equal(hooks.length);

    for (const [i, hook] of hooks.entries()) {
      const timestamp = String(hook.headers["x-signature-timestamp"]);
      const signature = String(hook.headers["x-signature-sha256"]);
      const expected = createHmac("sha256", devnet.file.apiKey).update(`${timestamp}.${hook.rawBody}`).digest("hex");
      expect(signature).to.match(/^[0-9a-f]{64}$/);
      expect(timingSafeEqual(Buffer.from(signature), Buffer.from(expected)), `signature of webhook ${i}`).to.equal(true);
      expect(Math.abs(Number(timestamp) - Date.now() / 1000)).to.be.below(120);
      expect(hook.headers["content-type"]).to.match(/^application\/json/);
      const body = bodies[i];
      expect(body.event).to.equal("request.status.updated");
      expect(body.timestamp).to.be.a("number");
      // The websocket pushes the webhook's data for the same change.
      expect(updates[i]!.data).to.deep.equal(body.data);
    }
    expect(bodies[0].data.inTxHashes).to.have.length(1);
    expect(bodies.at(-1).data.txHashes).to.have.length(1);
    socket.ws.close();
    await socket.closed;
  });
});

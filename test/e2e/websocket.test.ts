/**
 * End to end on the devnet: a native bridge 31337 → 31338 followed over the websocket. Subscribed
 * right after the quote, the client gets the quote's `waiting` at once, then every status the solver
 * records in the outbox — the deposit's `waiting` (now with the deposit hash), `pending`, `submitted`,
 * `success` — in that order, each once, the last one equal to GET /intents/status/v3.
 */
import { expect } from "chai";
import { parseEther } from "viem";
import { DESTINATION, NATIVE, ORIGIN, freshRecipient, startE2eDevnet, type E2eDevnet } from "./e2eDevnet.ts";
import { connect, isUpdate, subscribe, wsUrl } from "../service/websocket/wsTestClient.ts";

describe("e2e: websocket status stream", function () {
  this.timeout(180_000);
  let devnet: E2eDevnet;

  before(async function () {
    this.timeout(120_000);
    devnet = await startE2eDevnet();
  });
  after(async () => devnet?.close());

  it("quote → subscribe → deposit: waiting (quote), waiting (deposit), pending, submitted, success, in order", async () => {
    const user = devnet.users[2]!;
    const quote = await devnet.client.getQuote({
      user: user.address,
      originChainId: ORIGIN,
      destinationChainId: DESTINATION,
      originCurrency: NATIVE,
      destinationCurrency: NATIVE,
      recipient: freshRecipient(),
      amount: parseEther("0.3").toString(),
      tradeType: "EXACT_INPUT",
    });
    const requestId = quote.steps.at(-1)!.requestId;

    // The key in the x-api-key header: a key in the URL is refused (API_KEY_IN_URL).
    const socket = await connect(wsUrl(devnet.file.apiUrl, "/ws"), { headers: { "x-api-key": devnet.file.apiKey } });
    socket.send(subscribe(requestId));
    expect(await socket.next()).to.deep.equal({ type: "subscribe", status: "success", data: { event: "request.status.updated", filters: { id: requestId } } });
    const quoted = await socket.next(isUpdate(requestId));
    expect(quoted.data).to.deep.include({ status: "waiting", inTxHashes: [], txHashes: [], requestId });

    const result = await devnet.client.executeQuote({
      quote,
      walletClient: devnet.origin.wallet(user),
      publicClients: { [ORIGIN]: devnet.origin.publicClient, [DESTINATION]: devnet.destination.publicClient },
      pollIntervalMs: 250,
      timeoutMs: 120_000,
    });
    expect(result.status.status).to.equal("success");

    const updates = [];
    do updates.push(await socket.next(isUpdate(requestId), 30_000));
    while (updates.at(-1)!.data.status !== "success");
    expect(updates.map((u) => u.data.status)).to.deep.equal(["waiting", "pending", "submitted", "success"]);
    expect(await socket.drain(300), "nothing after success, nothing twice").to.deep.equal([]);

    const depositHash = result.txHashes.find((t) => t.stepId === "deposit")!.txHash.toLowerCase();
    expect(updates[0]!.data.inTxHashes, "the deposit's waiting carries its hash").to.deep.equal([depositHash]);
    const published = [quoted, ...updates].map((u) => u.publishedAt as number);
    expect([...published].sort((a, b) => a - b)).to.deep.equal(published);
    for (const update of updates) {
      expect(update.data.requestId).to.equal(requestId);
      expect(update.data.originChainId).to.equal(ORIGIN);
      expect(update.data.destinationChainId).to.equal(DESTINATION);
    }
    // The last update is the status record the HTTP API serves (plus requestId), as of the change:
    // the solver may record more afterwards (without a status change), which moves updatedAt on.
    const status = await devnet.client.getStatus(requestId);
    const { updatedAt, ...last } = updates.at(-1)!.data;
    const { updatedAt: statusUpdatedAt, ...current } = status;
    expect(last).to.deep.equal({ ...current, requestId });
    expect(updatedAt).to.be.at.most(statusUpdatedAt);
    socket.ws.close();
    await socket.closed;
  });
});

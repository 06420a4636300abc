/**
 * End to end, issue 22 item 6 for executions without a quote: POST /execute with no `requestId` (a
 * smart account's own call) is followed like any request from the moment the route answers — on the
 * devnet, once with the embedded PGlite and once with PostgreSQL (a fresh schema):
 * - GET /intents/status/v3 and GET /requests/v2 know the derived requestId at once, `depositing` (or
 *   already `success`) with the relayed hash in `inTxHashes`;
 * - the relay follower ends it `success` from the receipt, with `data.inTxs` the mined transaction;
 * - the app key's webhook receives `depositing` then `success` (the outbox), signed, each once, and a
 *   websocket subscription gets the same record;
 * - the gas is held and settled once on the app balance, and the request never enters the solver's work.
 */
import { expect } from "chai";
import type { Address, Hex } from "viem";
import { connect, isUpdate, subscribe, wsUrl } from "../service/websocket/wsTestClient.ts";
import { startReceiver, waitUntil, type Receiver } from "../service/webhooks/webhookReceiver.ts";
import { NATIVE, ORIGIN, freshRecipient, type E2eDevnet } from "./e2eDevnet.ts";
import { E2E_ENGINES, startE2eDevnetOn } from "./e2eEngines.ts";


for (const engine of E2E_ENGINES) {
  describe(`e2e: POST /execute without requestId is followed [${engine}]`, function () {
    this.timeout(300_000);
    let devnet: E2eDevnet;
    let running: Awaited<ReturnType<typeof startE2eDevnetOn>> | undefined;
    let receiver: Receiver;
    let schema: string | undefined;

    before(async function () {
      this.timeout(180_000);
      receiver = await startReceiver(() => 200);
      running = await startE2eDevnetOn(engine, this, { webhookUrl: receiver.url });
      devnet = running.devnet;
      schema = running.schema;
    });
    after(async () => {
      await running?.close();
      await receiver?.close();
    });

    const api = async (path: string, init: RequestInit = {}) => {
      const response = await fetch(`${devnet.file.apiUrl}${path}`, { ...init, headers: { "content-type": "application/json", "x-api-key": devnet.file.apiKey, ...init.headers } });
      return { status: response.status, body: (await response.json()) as Record<string, unknown> };
    };
    const appBalance = async () => (await api("/app-balance?limit=50")).body as { availableUsd: string; heldUsd: string; debitedUsd: string };

    it("runs on the engine it names", async () => {
      expect(devnet.server.store.engine.kind).to.equal(engine);
      if (engine === "postgres") {
        const stored = await devnet.server.store.engine.query<{ v: string }>("SELECT current_schema() AS v");
        expect(stored.rows[0]!.v).to.equal(schema);
      }
    });

    it("funds the app balance onchain (POST /app-balance/deposits, 0.01 ETH)", async () => {
      const order = await api("/app-balance/deposits", { method: "POST", body: JSON.stringify({ chainId: ORIGIN, currency: NATIVE, amount: (10n ** 16n).toString() }) });
      expect(order.status, JSON.stringify(order.body)).to.equal(200);
      const wallet = devnet.origin.wallet(devnet.users[3]!);
      for (const step of order.body.steps as { items: { data: { to: Address; data: Hex; value: string } }[] }[]) {
        for (const item of step.items) {
          const hash = await wallet.sendTransaction({ to: item.data.to, data: item.data.data, value: BigInt(item.data.value ?? "0") });
          await devnet.origin.publicClient.waitForTransactionReceipt({ hash });
        }
      }
      for (let i = 0; i < 300 && (await appBalance()).availableUsd === "0"; i++) await new Promise((resolve) => setTimeout(resolve, 100));
      expect((await appBalance()).availableUsd).to.equal("30000000");
    });

    it("an execution without requestId: depositing with its hash at once, then success from the receipt, on every channel", async () => {
      const account = freshRecipient();
      const executed = await api("/execute", { method: "POST", body: JSON.stringify({ executionKind: "rawCalls", data: { chainId: ORIGIN, to: account, data: "0x", value: "0" } }) });
      expect(executed.status, JSON.stringify(executed.body)).to.equal(200);
      const requestId = executed.body.requestId as Hex;
      const txHash = executed.body.txHash as Hex;
      expect(requestId).to.match(/^0x[0-9a-f]{64}$/);

      // From the moment /execute answers: known, with the relayed hash.
      const first = await api(`/intents/status/v3?requestId=${requestId}`);
      expect(first.status, JSON.stringify(first.body)).to.equal(200);
      expect(["depositing", "success"]).to.include(first.body.status);
      expect(first.body.inTxHashes).to.deep.equal([txHash]);
      expect(first.body.originChainId).to.equal(ORIGIN);
      expect(first.body.destinationChainId).to.equal(ORIGIN);
      const listed = await api(`/requests/v2?id=${requestId}`);
      expect(listed.status, JSON.stringify(listed.body)).to.equal(200);
      const records = listed.body.requests as { id: string; status: string; user: string }[];
      expect(records.map((r) => r.id)).to.deep.equal([requestId]);
      expect(records[0]!.user).to.equal(account.toLowerCase());

      const socket = await connect(wsUrl(devnet.file.apiUrl, "/ws", ""));
      socket.send(subscribe(requestId));
      expect((await socket.next()).status).to.equal("success");

      // Ended from the receipt.
      let status: Record<string, unknown> = first.body;
      for (let i = 0; i < 300 && status.status !== "success"; i++) {
        await new Promise((resolve) => setTimeout(resolve, 100));
        status = (await api(`/intents/status/v3?requestId=${requestId}`)).body;
      }
      expect(status.status).to.equal("success");
      expect(status.failReason).to.equal("N/A");
      const receipt = await devnet.origin.publicClient.getTransactionReceipt({ hash: txHash });
      expect(receipt.status).to.equal("success");
      const record = ((await api(`/requests/v2?id=${requestId}`)).body.requests as { status: string; data: { inTxs: { hash: string; block: number; status: string; chainId: number; fee: string }[] } }[])[0]!;
      expect(record.status).to.equal("success");
      expect(record.data.inTxs).to.have.length(1);
      expect(record.data.inTxs[0]).to.include({ hash: txHash, block: Number(receipt.blockNumber), status: "success", chainId: ORIGIN, fee: (receipt.gasUsed * receipt.effectiveGasPrice).toString() });

      // The websocket: the record as it is now (or the update that brings it there).
      let update = await socket.next(isUpdate(requestId), 30_000);
      while (update.data.status !== "success") update = await socket.next(isUpdate(requestId), 30_000);
      expect(update.data.inTxHashes).to.deep.equal([txHash]);
      socket.ws.close();
      await socket.closed;

      // The webhooks (the outbox): depositing, then success, each once.
      const forRequest = () => receiver.received.filter((r) => JSON.parse(r.rawBody).data.requestId === requestId);
      await waitUntil(() => forRequest().some((r) => JSON.parse(r.rawBody).data.status === "success"), 30_000, "the success webhook");
      await new Promise((resolve) => setTimeout(resolve, 300));
      const hooks = forRequest().map((h) => JSON.parse(h.rawBody) as { data: { status: string; inTxHashes: string[] } });
      expect(hooks.map((h) => h.data.status)).to.deep.equal(["depositing", "success"]);
      expect(hooks[0]!.data.inTxHashes).to.deep.equal([txHash]);

      // Paid once from the app balance; never the solver's work.
      for (let i = 0; i < 100 && (await appBalance()).heldUsd !== "0"; i++) await new Promise((resolve) => setTimeout(resolve, 100));
      const balance = await appBalance();
      expect(balance.heldUsd).to.equal("0");
      expect(BigInt(balance.debitedUsd) > 0n).to.equal(true);
      expect((await devnet.server.store.listSolverWork(50)).map((w) => w.id)).to.not.include(requestId);

      // The same call again is the same execution: answered with its transaction, nothing sent.
      const again = await api("/execute", { method: "POST", body: JSON.stringify({ executionKind: "rawCalls", data: { chainId: ORIGIN, to: account, data: "0x", value: "0" } }) });
      expect(again.status, JSON.stringify(again.body)).to.equal(200);
      expect(again.body).to.include({ requestId, txHash, message: "already submitted" });
    });
  });
}

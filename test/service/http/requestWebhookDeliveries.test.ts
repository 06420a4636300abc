/**
 * GET /requests/{requestId}/webhook-deliveries over HTTP on both store engines: the caller's own
 * delivery log of a request (x-api-key required), never another key's, the key never in the log.
 */
import { expect } from "chai";
import { apiKeyStore } from "../../../ts/service/store/apiKeys.ts";
import { hex, testNewRequest } from "../fixtures/testRequest.ts";
import { describeEachEngine } from "../store/engines.ts";
import { errorBody, fixtureConfig, listen, logCapture, type Listening } from "./testApp.ts";

describeEachEngine("GET /requests/{id}/webhook-deliveries", (engine) => {
  let server: Listening;
  const logs = logCapture();
  let mine: { id: string; key: string };
  let theirs: { id: string; key: string };
  const get = (id: string, key?: string) => fetch(`${server.url}/requests/${id}/webhook-deliveries`, { headers: key ? { "x-api-key": key } : {} });

  before(async () => {
    server = await listen({ config: fixtureConfig({ server: { apiKeyCacheSeconds: 0 } }), deps: { store: engine.store }, logger: logs.logger });
  });
  after(async () => server?.close());
  beforeEach(async () => {
    const keys = apiKeyStore(engine.store);
    const a = await keys.createApiKey("mine");
    const b = await keys.createApiKey("theirs");
    mine = { id: a.id, key: a.key };
    theirs = { id: b.id, key: b.key };
    await engine.store.createRequest(testNewRequest(1, { apiKeyId: mine.id, inTxHashes: [hex(0xf001)] }));
    await engine.store.createRequest(testNewRequest(2, { apiKeyId: null, inTxHashes: [hex(0xf002)] }));
  });

  it("lists the caller's events of its own request, oldest first, with their attempts", async () => {
    const response = await get(hex(1), mine.key);
    expect(response.status, await response.clone().text()).to.equal(200);
    const { deliveries } = (await response.json()) as { deliveries: { eventId: number; requestId: string; keyId: string; state: string; attemptLog: unknown[] }[] };
    expect(deliveries.length).to.be.at.least(1);
    for (const delivery of deliveries) expect(delivery).to.include({ requestId: hex(1), keyId: mine.id, state: "pending" }).and.have.property("attemptLog").that.deep.equals([]);
    const ids = deliveries.map((d) => d.eventId);
    expect(ids).to.deep.equal([...ids].sort((a, b) => a - b));
  });

  it("shows nothing of another key's request or of a keyless one: [] rather than whose it is", async () => {
    for (const [id, key] of [[hex(1), theirs.key], [hex(2), mine.key]] as const) {
      const response = await get(id, key);
      expect(response.status).to.equal(200);
      expect(await response.json()).to.deep.equal({ deliveries: [] });
    }
  });

  it("401 API_KEY_REQUIRED without a key, 401 INVALID_API_KEY with a wrong one, 404 REQUEST_NOT_FOUND, 400 for a malformed id", async () => {
    for (const [response, status, code] of [
      [await get(hex(1)), 401, "API_KEY_REQUIRED"],
      [await get(hex(1), "ferry_not_a_key"), 401, "INVALID_API_KEY"],
      [await get(hex(0xdead), mine.key), 404, "REQUEST_NOT_FOUND"],
      [await get("0x1234", mine.key), 400, "INVALID_REQUEST"],
    ] as const) {
      expect(response.status).to.equal(status);
      expect((await errorBody(response)).errorCode).to.equal(code);
    }
  });

  it("never writes the caller's key to the log", async () => {
    await get(hex(1), mine.key);
    const log = logs.lines.join("\n");
    expect(log).to.include("/webhook-deliveries");
    expect(log).to.not.include(mine.key);
  });
});

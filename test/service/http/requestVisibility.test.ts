/**
 * Who sees what of GET /requests/v2 (docs/api.md "Visibility"), over HTTP on both store engines:
 * - every caller sees the public request record — the spec's fields only, with or without
 *   `includeOrderData` / `includeAuthenticatedData`: never the solver's state (payout nonces, request
 *   hashes, the credited deposit), the parking note or which API key made the request;
 * - an API key never travels in a URL: `apiKey=<a key>` is refused without being looked up;
 * - the `apiKey` filter takes a key *id* and only the caller's own (the `x-api-key` header's);
 * - `includeAuthenticatedData=true` needs `x-api-key` and adds, to the caller's own requests only,
 *   what the integrator gave at quote time (`referrer`);
 * - `includeOrderData=true` reads the orders of a page in one query, not one per request.
 */
import { expect } from "chai";
import { apiKeyStore } from "../../../ts/service/store/apiKeys.ts";
import type { Payout } from "../../../ts/service/model/payout.ts";
import { testIntent } from "../fixtures/testIntent.ts";
import { testOrder } from "../fixtures/testOrder.ts";
import { hex, testNewRequest } from "../fixtures/testRequest.ts";
import { describeEachEngine } from "../store/engines.ts";
import { countingStore, errorBody, fixtureConfig, listen, logCapture, type Listening } from "./testApp.ts";
import { canonicalAddress } from "../../../ts/service/model/values.ts";

const NONCE = 987_654_321_123n;
const REQUEST_HASH = hex(0x7e57ab1e);
const PAYOUT: Payout = {
  chainId: 31337,
  depository: canonicalAddress(`0x${"11".repeat(20)}`),
  nonce: NONCE,
  expiration: 2_000_000_000,
  calls: [{ to: canonicalAddress(`0x${"90".repeat(20)}`), token: canonicalAddress(`0x${"00".repeat(20)}`), amount: 10n ** 18n }],
  requestHash: REQUEST_HASH,
  status: "sent",
  hash: hex(0xabcdef),
};

describeEachEngine("GET /requests/v2 visibility", (engine) => {
  let server: Listening;
  const counter = { counts: {} as Record<string, number> };
  const logs = logCapture();
  let mine: { id: string; key: string };
  let theirs: { id: string; key: string };
  const get = (query: string, key?: string) => fetch(`${server.url}/requests/v2?${query}`, { headers: key ? { "x-api-key": key } : {} });
  const records = async (query: string, key?: string) => {
    const response = await get(query, key);
    expect(response.status, `${query}: ${await response.clone().text()}`).to.equal(200);
    return ((await response.json()) as { requests: Array<Record<string, unknown>> }).requests;
  };

  before(async () => {
    const counted = countingStore(engine.store, counter);
    server = await listen({
      config: fixtureConfig({ rateLimits: { anonymousPerMinute: 100_000 }, server: { apiKeyCacheSeconds: 0 } }),
      deps: { store: counted },
      logger: logs.logger,
    });
  });
  after(async () => server?.close());
  beforeEach(async () => {
    counter.counts = {};
    const keys = apiKeyStore(engine.store);
    const a = await keys.createApiKey("mine");
    const b = await keys.createApiKey("theirs");
    mine = { id: a.id, key: a.key };
    theirs = { id: b.id, key: b.key };
    for (const [n, owner, referrer] of [[1, mine.id, "my-shop"], [2, theirs.id, "their-shop"], [3, null, null]] as const) {
      engine.clock.ms += 1_000;
      await engine.store.createRequest(testNewRequest(n, { apiKeyId: owner, referrer, inTxHashes: [hex(0xf000 + n)] }));
      const intent = testIntent(n, { requestId: hex(n), orderId: hex(1000 + n) });
      await engine.store.saveQuote({ requestId: hex(n), orderId: hex(1000 + n), orderData: { ...testOrder(intent), salt: BigInt(hex(0x5a17 + n)) }, quote: {}, intent, expiresAt: new Date(engine.clock.ms + 60_000), apiKeyId: owner });
      await engine.store.patchRequest(hex(n), { solver: { repayment: PAYOUT } });
    }
  });

  it("serves every caller the public record only, whatever the flags: no solver state, nonce, request hash, parking note or key id", async () => {
    await engine.store.parkRequest(hex(1), { code: "SOME_CODE", message: "parked for a test" });
    for (const [query, key] of [
      ["", undefined],
      ["includeOrderData=true", undefined],
      ["includeOrderData=true&includeAuthenticatedData=true", mine.key],
      ["includeAuthenticatedData=true", theirs.key],
    ] as const) {
      const served = await records(query, key);
      expect(served.map((r) => r.id)).to.have.members([hex(1), hex(2), hex(3)]);
      // The order is public (the quote carried it) and names its `solver`: the secrets are looked for beside it,
      // and the order itself holds only the order's fields.
      const text = JSON.stringify(served.map(({ orderData: _order, ...rest }) => rest));
      for (const record of served.filter((r) => r.orderData !== undefined)) {
        expect(Object.keys(record.orderData as object)).to.deep.equal(["version", "solverChainId", "solver", "salt", "inputs", "output", "fees"]);
      }
      for (const secret of [NONCE.toString(), REQUEST_HASH, hex(0xabcdef), "repayment", "solver", "parked", "SOME_CODE", "apiKeyId", mine.id, theirs.id, "intent"]) {
        expect(text, `${query || "(no flags)"}: ${secret}`).to.not.include(secret);
      }
      for (const record of served) {
        expect(Object.keys(record)).to.satisfy((keys: string[]) => keys.every((k) => ["id", "status", "user", "recipient", "depositAddress", "data", "orderData", "createdAt", "updatedAt", "referrer"].includes(k)));
      }
    }
  });

  it("refuses an API key in the URL (apiKey=<key>) with 400 API_KEY_IN_URL, without looking it up or logging it", async () => {
    for (const key of [mine.key, "ferry_not-a-real-key"]) {
      const response = await get(`apiKey=${encodeURIComponent(key)}`, mine.key);
      const body = await errorBody(response);
      expect([response.status, body.errorCode]).to.deep.equal([400, "API_KEY_IN_URL"]);
      expect(body.message).to.not.include(key);
    }
    expect(logs.lines.join("\n")).to.not.include(mine.key);
  });

  it("takes the apiKey filter as a key id, the caller's own only: 401 API_KEY_REQUIRED without x-api-key, 403 API_KEY_FORBIDDEN for another's", async () => {
    const without = await get(`apiKey=${mine.id}`);
    expect([without.status, (await errorBody(without)).errorCode]).to.deep.equal([401, "API_KEY_REQUIRED"]);
    const another = await get(`apiKey=${theirs.id}`, mine.key);
    expect([another.status, (await errorBody(another)).errorCode]).to.deep.equal([403, "API_KEY_FORBIDDEN"]);
    expect((await records(`apiKey=${mine.id}`, mine.key)).map((r) => r.id)).to.deep.equal([hex(1)]);
    expect((await records(`apiKey=${theirs.id}`, theirs.key)).map((r) => r.id)).to.deep.equal([hex(2)]);
  });

  it("includeAuthenticatedData=true needs x-api-key (401 API_KEY_REQUIRED) and adds referrer to the caller's own requests only", async () => {
    const without = await get("includeAuthenticatedData=true");
    expect([without.status, (await errorBody(without)).errorCode]).to.deep.equal([401, "API_KEY_REQUIRED"]);
    const served = await records("includeAuthenticatedData=true", mine.key);
    const byId = new Map(served.map((r) => [r.id, r]));
    expect(byId.get(hex(1))!.referrer).to.equal("my-shop");
    expect(byId.get(hex(2))).to.not.have.property("referrer");
    expect(byId.get(hex(3))).to.not.have.property("referrer");
    expect((await records("", mine.key)).every((r) => !("referrer" in r)), "not without the flag").to.equal(true);
  });

  it("includeOrderData=true reads a page's orders in one store call, not one per request", async () => {
    const served = await records("includeOrderData=true&limit=50");
    expect(served.map((r) => (r.orderData as { salt: string }).salt)).to.have.members([hex(0x5a17 + 1), hex(0x5a17 + 2), hex(0x5a17 + 3)]);
    // The status cache's refresh (listRequestsUpdatedSince) runs on its own timer: not the route's.
    const reads = Object.entries(counter.counts).filter(([name]) => name !== "listRequests" && name !== "listRequestsUpdatedSince").reduce((total, [, n]) => total + n, 0);
    expect({ listRequests: counter.counts.listRequests, otherReads: reads }).to.deep.equal({ listRequests: 1, otherReads: 1 });
  });
});

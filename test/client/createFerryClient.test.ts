/**
 * The client against the real service app (buildApp, PGlite in memory, real HTTP on loopback):
 * every existing read route, paging through `continuation`, and the error mapping (400, 404, 429).
 */
import { expect } from "chai";
import { privateKeyToAccount } from "viem/accounts";
import { verifyAttestation } from "../../ts/core/verifyAttestation.ts";
import { createFerryClient, type FerryClient } from "../../ts/client/createFerryClient.ts";
import { FerryApiError } from "../../ts/client/clientErrors.ts";
import { createStore, type Store } from "../../ts/service/store/createStore.ts";
import { fixtureConfig, listen, type Listening } from "../service/http/testApp.ts";
import { testNewRequest, withIntent } from "../service/fixtures/testRequest.ts";
import { testIntent } from "../service/fixtures/testIntent.ts";
import type { RequestData } from "../../ts/service/model/requestData.ts";
import { canonicalAddress, canonicalHex } from "../../ts/service/model/values.ts";

const ATTESTER_KEY = "0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80";
const hex = (n: number, bytes = 32) => canonicalHex(`0x${n.toString(16).padStart(bytes * 2, "0")}`);
const USER = hex(0xa1, 20);
const RECIPIENT = hex(0xb1, 20);

async function rejection(promise: Promise<unknown>): Promise<FerryApiError> {
  try {
    await promise;
  } catch (error) {
    expect(error).to.be.instanceOf(FerryApiError);
    return error as FerryApiError;
  }
  throw new Error("expected a rejection");
}

describe("createFerryClient against the service app", function () {
  let store: Store;
  let server: Listening;
  let client: FerryClient;

  before(async function () {
    store = await createStore({});
    server = await listen({
      config: fixtureConfig({ rateLimits: { anonymousPerMinute: 100_000 } }, { FERRY_ATTESTER_KEY: ATTESTER_KEY }),
      deps: { store },
    });
    client = createFerryClient({ baseUrl: server.url });
  });
  after(async () => {
    await server.close();
    await store.close();
  });
  beforeEach(async () => {
    await store.engine.exec("TRUNCATE request_events, requests, quotes, indexer_checkpoints, api_keys RESTART IDENTITY CASCADE");
  });

  const create = (n: number, data: RequestData = {}) =>
    store.createRequest(
      withIntent({
        id: hex(n),
        orderId: hex(0x1000 + n),
        user: USER,
        recipient: RECIPIENT,
        originChainId: 31337,
        destinationChainId: 31338,
        inTxHashes: [hex(0xf000 + n)],
        data,
      }),
    );

  it("health, ready and chains", async () => {
    expect(await client.health()).to.deep.equal({ status: "ok" });
    expect(await client.ready()).to.deep.equal({ ready: true, checks: [] });
    const { chains } = await client.getChains();
    expect(chains.map((c) => [c.id, c.protocol.v2.chainId])).to.deep.equal([
      [31337, "origin"],
      [31338, "destination"],
    ]);
  });

  it("ready() reports a failing check as {ready: false} instead of throwing", async () => {
    const failing = await listen({ deps: { checks: [{ name: "rpc", check: async () => Promise.reject(new Error("down")) }] } });
    try {
      const ready = await createFerryClient({ baseUrl: failing.url }).ready();
      expect(ready).to.deep.equal({ ready: false, checks: [{ name: "rpc", ok: false }] });
    } finally {
      await failing.close();
    }
  });

  it("getStatus and getStatusAt (both check.endpoint forms) answer the status record", async () => {
    await create(1);
    await store.transitionRequest(hex(1), "pending");
    const status = await client.getStatus(hex(1));
    expect(status).to.include({ status: "pending", originChainId: 31337, destinationChainId: 31338, failReason: "N/A" });
    expect(status.inTxHashes).to.deep.equal([hex(0xf001)]);
    expect(await client.getStatusAt(`/intents/status?requestId=${hex(1)}`)).to.deep.equal(status);
    expect(await client.getStatusAt(`/intents/status/v3?requestId=${hex(1)}`)).to.deep.equal(status);
  });

  it("getStatusAt refuses anything but a relative status path", async () => {
    for (const endpoint of ["https://evil.example/intents/status/v3?requestId=0x1", "//evil.example/x", "/chains?requestId=0x1", "/intents/status/v3"]) {
      expect(() => client.getStatusAt(endpoint), endpoint).to.throw(TypeError);
    }
  });

  it("getRequests filters, and requestPages / allRequests follow `continuation` to the last page", async () => {
    for (let n = 1; n <= 7; n++) await create(n);
    const first = await client.getRequests({ limit: 3, user: USER });
    expect(first.requests).to.have.length(3);
    expect(first.continuation).to.be.a("string");

    const pages = [];
    for await (const page of client.requestPages({ limit: 3, sortDirection: "asc" })) pages.push(page.requests.map((r) => r.id));
    expect(pages.map((p) => p.length)).to.deep.equal([3, 3, 1]);
    expect(pages.flat()).to.deep.equal([1, 2, 3, 4, 5, 6, 7].map((n) => hex(n)));

    const all = [];
    for await (const record of client.allRequests({ limit: 2, id: hex(5) })) all.push(record.id);
    expect(all).to.deep.equal([hex(5)]);
  });

  it("getRequestSignature answers a v1 attestation signed by the attester", async () => {
    await store.createRequest(
      testNewRequest(1, {
        id: hex(1),
        orderId: hex(0x1001),
        user: USER,
        recipient: RECIPIENT,
        solver: { intent: testIntent(1, { requestId: hex(1), orderId: hex(0x1001), user: USER, recipient: RECIPIENT, originAmount: 1000n }) },
      }),
    );
    const record = await client.getRequestSignature(hex(1));
    expect(record.requestData).to.deep.include({ originChainId: 31337, originAmount: "1000", destinationChainId: 31338 });
    const check = await verifyAttestation({
      format: "v1",
      attestation: { requestId: hex(1), ...record.requestData },
      signature: record.signature as `0x${string}`,
      signers: [privateKeyToAccount(ATTESTER_KEY).address],
      now: 0,
    });
    expect(check.valid).to.equal(true);
  });

  it("maps 404 and 400 to FerryApiError with the service's errorCode", async () => {
    const missing = await rejection(client.getStatus(hex(99)));
    expect(missing).to.include({ status: 404, errorCode: "REQUEST_NOT_FOUND", code: "API_ERROR", retryable: false });
    expect(missing.message).to.be.a("string").and.not.equal("");

    const malformed = await rejection(client.getStatus("0x12"));
    expect(malformed).to.include({ status: 400, errorCode: "INVALID_REQUEST" });

    const cursor = await rejection(client.getRequests({ continuation: "not-a-cursor" }));
    expect(cursor).to.include({ status: 400, errorCode: "INVALID_CURSOR" });

    const signature = await rejection(client.getRequestSignature(hex(98)));
    expect(signature).to.include({ status: 404, errorCode: "REQUEST_NOT_FOUND" });
  });

  it("maps a body the quote and index routes reject to 400 INVALID_REQUEST", async () => {
    const badQuote = await rejection(
      client.getQuote({ user: "not-an-address", originChainId: 31337, destinationChainId: 31338, originCurrency: USER, destinationCurrency: USER, amount: "1", tradeType: "EXACT_INPUT" }),
    );
    expect(badQuote).to.include({ status: 400, errorCode: "INVALID_REQUEST" });
    const badIndex = await rejection(client.indexTransaction({ chainId: 31337, txHash: "0x12" }));
    expect(badIndex).to.include({ status: 400, errorCode: "INVALID_REQUEST" });
  });

  it("maps 401 for an unknown API key", async () => {
    const keyed = createFerryClient({ baseUrl: server.url, apiKey: "ferry_unknown" });
    expect(await rejection(keyed.health())).to.include({ status: 401, errorCode: "INVALID_API_KEY" });
  });

  it("maps 429 with retryAfter (seconds) and marks it retryable", async () => {
    const limited = await listen({ config: fixtureConfig({ rateLimits: { anonymousPerMinute: 2 } }) });
    try {
      const c = createFerryClient({ baseUrl: limited.url });
      await c.health();
      await c.health();
      const error = await rejection(c.health());
      expect(error).to.include({ status: 429, errorCode: "RATE_LIMITED", retryable: true });
      expect(error.retryAfter).to.be.a("number").greaterThan(0).and.at.most(60);
    } finally {
      await limited.close();
    }
  });

  it("sends x-api-key and JSON bodies, and talks only to baseUrl (injected fetch)", async () => {
    const calls: { url: string; init: RequestInit }[] = [];
    const fake: typeof fetch = async (input, init) => {
      calls.push({ url: String(input), init: init ?? {} });
      return new Response(JSON.stringify({ ok: true }), { status: 200, headers: { "content-type": "application/json" } });
    };
    const c = createFerryClient({ baseUrl: "http://127.0.0.1:9/base/", apiKey: "k", fetch: fake });
    await c.indexTransaction({ chainId: 31337, txHash: hex(1) });
    await c.getQuote({ user: USER, originChainId: 1, destinationChainId: 2, originCurrency: USER, destinationCurrency: USER, amount: "1", tradeType: "EXACT_INPUT" });
    expect(calls.map((c) => c.url)).to.deep.equal(["http://127.0.0.1:9/base/transactions/index", "http://127.0.0.1:9/base/quote/v2"]);
    expect(calls[0]!.init.method).to.equal("POST");
    expect((calls[0]!.init.headers as Record<string, string>)["x-api-key"]).to.equal("k");
    expect(JSON.parse(String(calls[0]!.init.body))).to.deep.equal({ chainId: 31337, txHash: hex(1) });
  });

  it("maps a non-JSON error body to HTTP_<status>", async () => {
    const fake: typeof fetch = async () => new Response("<html>bad gateway</html>", { status: 502 });
    const error = await rejection(createFerryClient({ baseUrl: "http://127.0.0.1:9", fetch: fake }).health());
    expect(error).to.include({ status: 502, errorCode: "HTTP_502", retryable: true });
  });
});

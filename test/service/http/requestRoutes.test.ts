/**
 * GET /intents/status/v3 (+ /intents/status), GET /requests/v2 and GET /requests/{requestId}/signature
 * over real HTTP on loopback, against requests created through the store API (PGlite in memory).
 */
import { expect } from "chai";
import { privateKeyToAccount } from "viem/accounts";
import { recoverMessageAddress } from "viem";
import { callsFillDigest, fillDigest, gateDigest, normalizeFillAttestation, normalizeRequestAttestation, requestDigest } from "../../../ts/core/attestationDigest.ts";
import { verifyAttestation } from "../../../ts/core/verifyAttestation.ts";
import { testIntent } from "../fixtures/testIntent.ts";
import { testOrder } from "../fixtures/testOrder.ts";
import { orderToJson } from "../../../ts/core/orderJson.ts";
import { apiKeyStore } from "../../../ts/service/store/apiKeys.ts";
import { createStore, type Store } from "../../../ts/service/store/createStore.ts";
import { testClock } from "../store/engines.ts";
import { errorBody, FIXTURE_ADDRESSES, FIXTURE_STABLECOIN, fixtureConfig, listen, type Listening } from "./testApp.ts";
import { withIntent } from "../fixtures/testRequest.ts";
import type { RequestData } from "../../../ts/service/model/requestData.ts";
import type { NewRequest } from "../../../ts/service/model/storedRequest.ts";
import { canonicalAddress, canonicalHex } from "../../../ts/service/model/values.ts";

const ATTESTER_KEY = "0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80";
const ATTESTER = privateKeyToAccount(ATTESTER_KEY).address;
const T = Date.UTC(2026, 0, 1);
const hex = (n: number, bytes = 32) => canonicalHex(`0x${n.toString(16).padStart(bytes * 2, "0")}`);
const USER = hex(0xa1, 20);
const RECIPIENT = hex(0xb1, 20);

describe("request routes over HTTP", function () {
  const clock = testClock(T);
  let store: Store;
  let server: Listening;
  const get = async (path: string, headers: Record<string, string> = {}) => fetch(`${server.url}${path}`, { headers });

  before(async function () {
    store = await createStore({ now: clock.now });
    server = await listen({
      config: fixtureConfig({ rateLimits: { anonymousPerMinute: 100_000 } }, { FERRY_ATTESTER_KEY: ATTESTER_KEY }),
      deps: { store },
    });
  });
  after(async () => {
    await server.close();
    await store.close();
  });
  beforeEach(async () => {
    clock.ms = T;
    await store.engine.exec("TRUNCATE request_events, requests, quotes, indexer_checkpoints, api_keys RESTART IDENTITY CASCADE");
  });

  async function create(n: number, data: RequestData = {}, extra: Partial<NewRequest> = {}) {
    return store.createRequest(
      withIntent({
        id: hex(n),
        orderId: hex(0x1000 + n),
        user: USER,
        recipient: RECIPIENT,
        originChainId: 31337,
        destinationChainId: 31338,
        inTxHashes: [hex(0xf000 + n)],
        data,
        ...extra,
      }),
    );
  }

  describe("GET /intents/status/v3", () => {
    it("answers the Status record on both paths", async () => {
      await create(1);
      clock.ms = T + 5_000;
      await store.transitionRequest(hex(1), "pending");
      clock.ms = T + 6_000;
      await store.transitionRequest(hex(1), "submitted", { txHashes: [hex(0xe001)] });
      for (const path of ["/intents/status/v3", "/intents/status"]) {
        const response = await get(`${path}?requestId=${hex(1).toUpperCase().replace("0X", "0x")}`);
        expect(response.status, path).to.equal(200);
        expect(await response.json()).to.deep.equal({
          status: "submitted",
          inTxHashes: [hex(0xf001)],
          txHashes: [hex(0xe001)],
          updatedAt: T + 6_000,
          originChainId: 31337,
          destinationChainId: 31338,
          details: null,
          failReason: "N/A",
          refundFailReason: "N/A",
          depositAddress: null,
        });
      }
    });

    it("reports the recorded failReason on failure, UNKNOWN when none, and refund reasons", async () => {
      await create(1);
      await store.transitionRequest(hex(1), "pending");
      await store.transitionRequest(hex(1), "failure", { failReason: "ORDER_EXPIRED", details: { revert: "0x1234" } });
      // Its refund is in progress: it shows as pending, without the failure's reason or details yet.
      let body = (await (await get(`/intents/status/v3?requestId=${hex(1)}`)).json()) as Record<string, unknown>;
      expect(body).to.include({ status: "pending", failReason: "N/A", refundFailReason: "N/A" });
      expect(body.details).to.equal(null);
      // No refund is coming: failure, with its reason and details.
      await store.patchRequest(hex(1), { refundFailReason: "AMOUNT_TOO_LOW_TO_REFUND" });
      body = (await (await get(`/intents/status/v3?requestId=${hex(1)}`)).json()) as Record<string, unknown>;
      expect(body).to.include({ status: "failure", failReason: "ORDER_EXPIRED", refundFailReason: "AMOUNT_TOO_LOW_TO_REFUND" });
      expect(body.details).to.deep.equal({ revert: "0x1234" });

      await create(2);
      await store.transitionRequest(hex(2), "pending");
      await store.transitionRequest(hex(2), "failure");
      await store.transitionRequest(hex(2), "refund", { refundFailReason: "AMOUNT_TOO_LOW_TO_REFUND" });
      body = (await (await get(`/intents/status/v3?requestId=${hex(2)}`)).json()) as Record<string, unknown>;
      expect(body).to.include({ status: "refund", failReason: "UNKNOWN", refundFailReason: "AMOUNT_TOO_LOW_TO_REFUND" });
    });

    it("404 REQUEST_NOT_FOUND for an unknown id, 400 for a malformed one", async () => {
      const missing = await get(`/intents/status/v3?requestId=${hex(99)}`);
      expect(missing.status).to.equal(404);
      expect((await errorBody(missing)).errorCode).to.equal("REQUEST_NOT_FOUND");
      for (const bad of ["", "0x12", `${hex(1)}0`, `0x${"g".repeat(64)}`, hex(1).slice(2)]) {
        const response = await get(`/intents/status?requestId=${bad}`);
        expect(response.status, bad).to.equal(400);
        expect((await errorBody(response)).errorCode).to.equal("INVALID_REQUEST");
      }
      expect((await get("/intents/status/v3")).status).to.equal(400);
    });
  });

  describe("GET /requests/v2", () => {
    it("answers Request records with data, failReason and ISO timestamps", async () => {
      await create(1, { slippageTolerance: "50" });
      const response = await get("/requests/v2");
      expect(response.status).to.equal(200);
      expect(await response.json()).to.deep.equal({
        requests: [
          {
            id: hex(1),
            status: "waiting",
            user: USER,
            recipient: RECIPIENT,
            depositAddress: null,
            data: { slippageTolerance: "50", failReason: "N/A", refundFailReason: "N/A" },
            createdAt: "2026-01-01T00:00:00.000Z",
            updatedAt: "2026-01-01T00:00:00.000Z",
          },
        ],
      });
    });

    it("pages through every row exactly once via continuation, both sort fields and directions", async () => {
      const N = 23;
      for (let n = 1; n <= N; n++) {
        clock.ms = T + n * 1000;
        await create(n);
      }
      // updatedAt order differs from createdAt order: touch the even ones in reverse.
      for (let n = N; n >= 1; n--) {
        if (n % 2) continue;
        clock.ms = T + 100_000 + (N - n) * 1000;
        await store.transitionRequest(hex(n), "pending");
      }
      const all = (await store.listRequests({ limit: 50 })).requests;
      for (const sortBy of ["createdAt", "updatedAt"] as const) {
        for (const sortDirection of ["asc", "desc"] as const) {
          const seen: string[] = [];
          let continuation: string | undefined;
          let pages = 0;
          do {
            const qs = new URLSearchParams({ limit: "5", sortBy, sortDirection, ...(continuation ? { continuation } : {}) });
            const response = await get(`/requests/v2?${qs}`);
            expect(response.status).to.equal(200);
            const body = (await response.json()) as { requests: { id: string; createdAt: string; updatedAt: string }[]; continuation?: string };
            expect(body.requests.length).to.be.at.most(5);
            seen.push(...body.requests.map((r) => r.id));
            continuation = body.continuation;
            pages++;
          } while (continuation);
          expect(pages, `${sortBy} ${sortDirection}`).to.equal(5);
          expect(new Set(seen).size).to.equal(N);
          const expected = [...all]
            .sort((a, b) => a[sortBy].localeCompare(b[sortBy]) || a.id.localeCompare(b.id))
            .map((r) => r.id);
          expect(seen, `${sortBy} ${sortDirection}`).to.deep.equal(sortDirection === "asc" ? expected : expected.reverse());
        }
      }
    });

    it("maps the filters onto the store", async () => {
      const keys = apiKeyStore(store, clock.now);
      const key = await keys.createApiKey("integrator");
      clock.ms = T;
      await create(1, {}, { originBlock: 10, referrer: "alpha", apiKeyId: key.id });
      clock.ms = T + 10_000;
      await create(2, {}, { user: hex(0xa2, 20), originChainId: 31338, destinationChainId: 31337, originBlock: 20 });
      await store.transitionRequest(hex(2), "pending");
      const quoted = testIntent(1, { orderId: hex(0x1001) });
      await store.saveQuote({ requestId: hex(1), orderId: hex(0x1001), orderData: testOrder(quoted), quote: {}, intent: quoted, expiresAt: new Date(T + 60_000) });
      const ids = async (qs: string, status = 200) => {
        const response = await get(`/requests/v2?${qs}`);
        expect(response.status, qs).to.equal(status);
        return ((await response.json()) as { requests: { id: string }[] }).requests.map((r) => r.id);
      };
      expect(await ids(`user=${hex(0xa2, 20)}`)).to.deep.equal([hex(2)]);
      expect(await ids(`user=${RECIPIENT}`)).to.deep.equal([hex(2), hex(1)]);
      expect(await ids(`hash=${hex(0xf001)}`)).to.deep.equal([hex(1)]);
      expect(await ids("originChainId=31338")).to.deep.equal([hex(2)]);
      expect(await ids("destinationChainId=31338")).to.deep.equal([hex(1)]);
      expect(await ids("chainId=31338")).to.deep.equal([hex(2), hex(1)]);
      expect(await ids("chainId=31338&originChainId=31337")).to.deep.equal([hex(1)]);
      expect(await ids(`id=${hex(2)}`)).to.deep.equal([hex(2)]);
      expect(await ids(`orderId=${hex(0x1001)}`)).to.deep.equal([hex(1)]);
      // Ids and hashes are read canonical at the boundary (the validator decodes them): any case matches.
      const upper = (value: string) => `0x${value.slice(2).toUpperCase()}`;
      expect(await ids(`hash=${upper(hex(0xf001))}`)).to.deep.equal([hex(1)]);
      expect(await ids(`id=${upper(hex(0xab))}`)).to.deep.equal([]);
      expect(await ids(`id=${upper(hex(2))}`)).to.deep.equal([hex(2)]);
      expect(await ids(`orderId=${upper(hex(0x1001))}`)).to.deep.equal([hex(1)]);
      expect(await ids(`startTimestamp=${T / 1000 + 5}`)).to.deep.equal([hex(2)]);
      expect(await ids(`endTimestamp=${T / 1000}`)).to.deep.equal([hex(1)]);
      expect(await ids("startBlock=15")).to.deep.equal([hex(2)]);
      expect(await ids("endBlock=15")).to.deep.equal([hex(1)]);
      expect(await ids("referrer=alpha")).to.deep.equal([hex(1)]);
      expect(await ids("status=pending")).to.deep.equal([hex(2)]);
      // The apiKey filter: the caller's own key id, the key in x-api-key (requestVisibility.test.ts has the refusals).
      const own = await get(`/requests/v2?apiKey=${key.id}`, { "x-api-key": key.key });
      expect(((await own.json()) as { requests: { id: string }[] }).requests.map((r) => r.id)).to.deep.equal([hex(1)]);
      expect((await errorBody(await get(`/requests/v2?apiKey=${key.key}`))).errorCode, "never the key itself").to.equal("API_KEY_IN_URL");
      expect(await ids(`depositAddress=${USER}`)).to.deep.equal([]);
      expect(await ids("privateChainsToInclude=a,b&includeChildRequests=true&includeAuthenticatedData=false")).to.have.length(2);

      const withOrder = (await (await get(`/requests/v2?includeOrderData=true&id=${hex(1)}`)).json()) as { requests: { orderData?: unknown }[] };
      expect(withOrder.requests[0]!.orderData, "the order's wire form").to.deep.equal(orderToJson(testOrder(quoted)));
      const without = (await (await get(`/requests/v2?id=${hex(1)}`)).json()) as { requests: Record<string, unknown>[] };
      expect(without.requests[0]).to.not.have.property("orderData");
    });

    it("400 for bad bounds, enums, booleans and cursors", async () => {
      for (const qs of ["limit=0", "limit=51", "limit=abc", "limit=1.5", "limit=2e1", "limit= 5", "originChainId=1.5", "sortBy=id", "sortDirection=up", "status=fallback", "includeOrderData=1", "chainId=abc", "originChainId=-1"]) {
        const response = await get(`/requests/v2?${qs}`);
        expect(response.status, qs).to.equal(400);
        expect((await errorBody(response)).errorCode, qs).to.equal("INVALID_REQUEST");
      }
      await create(1);
      await create(2);
      const first = (await (await get("/requests/v2?limit=1")).json()) as { continuation: string };
      for (const qs of ["continuation=garbage", `continuation=${first.continuation}&sortDirection=asc`]) {
        const response = await get(`/requests/v2?limit=1&${qs}`);
        expect(response.status, qs).to.equal(400);
        expect((await errorBody(response)).errorCode, qs).to.equal("INVALID_CURSOR");
      }
    });
  });

  describe("GET /requests/{requestId}/signature", () => {
    /** A request whose quoted intent pays `destinationAmount` of the stablecoin for 1,000,000 of it. */
    const createQuoted = (n: number, fillDeadline = T / 1000 + 3600) =>
      create(n, {}, {
        solver: {
          intent: testIntent(n, {
            requestId: hex(n),
            orderId: hex(0x1000 + n),
            user: USER,
            recipient: RECIPIENT,
            originCurrency: FIXTURE_STABLECOIN,
            originAmount: 1_000_000n,
            destinationCurrency: FIXTURE_STABLECOIN,
            destinationAmount: 990_000n,
            fillDeadline,
          }),
        },
      });

    it("answers the v1 Attestation record, verifiable against the attester, with the spec's types", async () => {
      await createQuoted(1);
      const response = await get(`/requests/${hex(1)}/signature`);
      expect(response.status).to.equal(200);
      const body = (await response.json()) as { requestData: Record<string, unknown>; signature: `0x${string}`; signer: string; fillAttestation?: unknown };
      expect(Object.keys(body).sort()).to.deep.equal(["fillAttestation", "requestData", "signature", "signer"]);
      // Ferry publishes the signer (integrators pin it): the attester's address.
      expect(body.signer.toLowerCase()).to.equal(ATTESTER.toLowerCase());
      expect(body.requestData).to.deep.equal({
        originChainId: 31337,
        originUser: USER,
        originCurrency: FIXTURE_STABLECOIN,
        originAmount: "1000000",
        destinationChainId: 31338,
        destinationUser: RECIPIENT,
      });
      const types = Object.fromEntries(Object.entries(body.requestData).map(([k, v]) => [k, typeof v]));
      expect(types).to.deep.equal({
        originChainId: "number",
        originUser: "string",
        originCurrency: "string",
        originAmount: "string",
        destinationChainId: "number",
        destinationUser: "string",
      });
      expect(body.signature).to.match(/^0x[0-9a-f]{130}$/);
      const result = await verifyAttestation({ format: "v1", attestation: { requestId: hex(1), ...body.requestData }, signature: body.signature, signers: [ATTESTER] });
      expect(result.valid).to.equal(true);
      const wrong = await verifyAttestation({ format: "v1", attestation: { requestId: hex(2), ...body.requestData }, signature: body.signature, signers: [ATTESTER] });
      expect(wrong.valid).to.equal(false);
    });

    it("adds the v2 fill attestation of the request's quoted intent", async () => {
      const deadline = T / 1000 + 3600;
      await createQuoted(1, deadline);
      const body = (await (await get(`/requests/${hex(1)}/signature`)).json()) as {
        fillAttestation: { attestation: Record<string, string>; signature: `0x${string}` };
      };
      expect(body.fillAttestation.attestation).to.deep.equal({
        requestId: hex(1),
        orderId: hex(0x1001),
        originChainId: "31337",
        originUser: `0x${USER.slice(2).padStart(64, "0")}`,
        originCurrency: `0x${FIXTURE_STABLECOIN.slice(2).padStart(64, "0")}`,
        originAmount: "1000000",
        destinationChainId: "31338",
        destinationUser: `0x${RECIPIENT.slice(2).padStart(64, "0")}`,
        destinationCurrency: `0x${FIXTURE_STABLECOIN.slice(2).padStart(64, "0")}`,
        destinationAmount: "990000",
        deadline: String(deadline),
        receiver: FIXTURE_ADDRESSES.attestedReceiver,
      });
      const result = await verifyAttestation({
        format: "v2",
        attestation: body.fillAttestation.attestation,
        signature: body.fillAttestation.signature,
        signers: [ATTESTER],
        now: T / 1000,
      });
      expect(result.valid).to.equal(true);
    });

    it("signs the v2 attestation of an intent with destination calls as a calls attestation (fillWithCalls only)", async () => {
      await create(3, {}, {
        solver: {
          intent: testIntent(3, {
            requestId: hex(3),
            orderId: hex(0x1003),
            user: USER,
            recipient: RECIPIENT,
            calls: [{ to: RECIPIENT, data: "0x", value: 0n }],
          }),
        },
      });
      const body = (await (await get(`/requests/${hex(3)}/signature`)).json()) as {
        fillAttestation: { attestation: Record<string, string>; signature: `0x${string}`; type: string };
      };
      expect(body.fillAttestation.type).to.equal("CallsFillAttestation");
      const att = normalizeFillAttestation(body.fillAttestation.attestation);
      const signature = body.fillAttestation.signature;
      expect(await recoverMessageAddress({ message: { raw: callsFillDigest(att) }, signature })).to.equal(ATTESTER);
      // Not a plain fill attestation: the packed fill and `fill` recover it to another address.
      expect(await recoverMessageAddress({ message: { raw: fillDigest(att) }, signature })).to.not.equal(ATTESTER);
      await createQuoted(1);
      const plain = (await (await get(`/requests/${hex(1)}/signature`)).json()) as { fillAttestation: { type: string } };
      expect(plain.fillAttestation.type).to.equal("FillAttestation");
    });

    it("?gate= adds the attestations bound to that gate on the origin chain; the v1 record is unchanged", async () => {
      await createQuoted(1);
      const gate = `0x${"6a".repeat(20)}`;
      const without = (await (await get(`/requests/${hex(1)}/signature`)).json()) as Record<string, unknown>;
      const response = await get(`/requests/${hex(1)}/signature?gate=${gate}`);
      expect(response.status).to.equal(200);
      const body = (await response.json()) as {
        requestData: Record<string, unknown>;
        signature: `0x${string}`;
        fillAttestation: { attestation: Record<string, string> };
        gateAttestation: { gate: string; chainId: number; signature: `0x${string}`; requestSignature: `0x${string}` };
      };
      expect(body.requestData).to.deep.equal(without.requestData);
      expect(body.signature).to.equal(without.signature);
      expect(without.gateAttestation).to.equal(undefined);
      expect(body.gateAttestation.gate).to.equal(gate);
      // The gate and the path's requestId are read canonical: upper case answers the same record.
      const shouted = (await (await get(`/requests/${`0x${hex(1).slice(2).toUpperCase()}`}/signature?gate=0x${"6A".repeat(20)}`)).json()) as typeof body;
      expect(shouted.gateAttestation).to.deep.equal(body.gateAttestation);
      expect(body.gateAttestation.chainId).to.equal(31337);
      const v2 = fillDigest(normalizeFillAttestation(body.fillAttestation.attestation));
      const v1 = requestDigest(normalizeRequestAttestation({ requestId: hex(1), ...body.requestData }));
      const bound = (digest: `0x${string}`) => gateDigest({ digest, gate: gate as `0x${string}`, chainId: 31337n });
      expect(await recoverMessageAddress({ message: { raw: bound(v2) }, signature: body.gateAttestation.signature })).to.equal(ATTESTER);
      expect(await recoverMessageAddress({ message: { raw: bound(v1) }, signature: body.gateAttestation.requestSignature })).to.equal(ATTESTER);
      // Bound to that gate only.
      const other = gateDigest({ digest: v2, gate: `0x${"6b".repeat(20)}`, chainId: 31337n });
      expect(await recoverMessageAddress({ message: { raw: other }, signature: body.gateAttestation.signature })).to.not.equal(ATTESTER);

      const bad = await get(`/requests/${hex(1)}/signature?gate=0x1234`);
      expect(bad.status).to.equal(400);
      expect((await errorBody(bad)).errorCode).to.equal("INVALID_REQUEST");
      const unknown = await get(`/requests/${hex(1)}/signature?gates=${gate}`);
      expect(unknown.status).to.equal(400);
    });

    it("404 unknown id, 409 ATTESTATION_UNAVAILABLE without quoted terms, 500 (no details) for a corrupted row, 400 malformed id", async () => {
      const missing = await get(`/requests/${hex(9)}/signature`);
      expect(missing.status).to.equal(404);
      expect((await errorBody(missing)).errorCode).to.equal("REQUEST_NOT_FOUND");
      await create(1);
      await store.engine.query("UPDATE requests SET solver_state = NULL WHERE id = $1", [hex(1)]);
      const unavailable = await get(`/requests/${hex(1)}/signature`);
      expect(unavailable.status).to.equal(409);
      expect((await errorBody(unavailable)).errorCode).to.equal("ATTESTATION_UNAVAILABLE");
      await create(2);
      await store.engine.query(`UPDATE requests SET solver_state = jsonb_set(solver_state, '{intent,originCurrency}', '"not-an-address"') WHERE id = $1`, [hex(2)]);
      const corrupted = await get(`/requests/${hex(2)}/signature`);
      expect(corrupted.status).to.equal(500);
      expect(await errorBody(corrupted)).to.deep.equal({ message: "Internal error", errorCode: "INTERNAL_ERROR" });
      const bad = await get("/requests/0x1234/signature");
      expect(bad.status).to.equal(400);
    });
  });

  describe("API keys from the store", () => {
    it("a created key gets its higher rate limit; a revoked one is 401", async () => {
      // apiKeyCacheSeconds 0: the revocation below must be seen by the very next request.
      const limited = await listen({
        config: fixtureConfig({ server: { apiKeyCacheSeconds: 0 }, rateLimits: { anonymousPerMinute: 2, apiKeyPerMinute: 5 } }),
        deps: { store },
      });
      try {
        const keys = apiKeyStore(store);
        const key = await keys.createApiKey("integrator");
        const statuses = async (n: number, headers: Record<string, string> = {}) => {
          const out: number[] = [];
          for (let i = 0; i < n; i++) out.push((await fetch(`${limited.url}/health`, { headers })).status);
          return out;
        };
        expect(await statuses(3)).to.deep.equal([200, 200, 429]);
        expect(await statuses(6, { "x-api-key": key.key })).to.deep.equal([200, 200, 200, 200, 200, 429]);
        const own = await keys.createApiKey("own limit", 8);
        expect((await statuses(9, { "x-api-key": own.key })).filter((s) => s === 200)).to.have.length(8);
        await keys.revokeApiKey(key.id);
        const revoked = await fetch(`${limited.url}/health`, { headers: { "x-api-key": key.key } });
        expect(revoked.status).to.be.oneOf([401, 429]);
        expect((await errorBody(revoked)).errorCode).to.be.oneOf(["INVALID_API_KEY", "RATE_LIMITED"]);
      } finally {
        await limited.close();
      }
    });
  });
});

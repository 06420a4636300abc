// The operator's admin API (/admin/…) over real HTTP on loopback, on both store engines: off without
// FERRY_ADMIN_TOKEN (404), 401 without or with a wrong bearer token (before any validation), then API
// keys, webhook endpoints and headers, the delivery log, redelivery and parked requests — and never a
// key, a header value or the token in a response.
import { randomBytes } from "node:crypto";
import { expect } from "chai";
import { describeEachEngine } from "../../store/engines.ts";
import { errorBody, fixtureConfig, listen, type Listening } from "../testApp.ts";
import { testNewRequest, hex } from "../../fixtures/testRequest.ts";

const TOKEN = `adm_${randomBytes(24).toString("hex")}`;
const SECRET_KEY_HEX = randomBytes(32).toString("hex");
const AUTH_VALUE = "Bearer receiver-secret-0001";

describeEachEngine("admin API", (engine) => {
  let server: Listening;
  const call = (method: string, path: string, options: { body?: unknown; token?: string | null } = {}) =>
    fetch(`${server.url}${path}`, {
      method,
      headers: {
        ...(options.token === null ? {} : { authorization: `Bearer ${options.token ?? TOKEN}` }),
        ...(options.body !== undefined ? { "content-type": "application/json" } : {}),
      },
      ...(options.body !== undefined ? { body: JSON.stringify(options.body) } : {}),
    });
  const ok = async <T>(response: Response, status = 200): Promise<T> => {
    const text = await response.text();
    expect(response.status, text).to.equal(status);
    return JSON.parse(text) as T;
  };

  const start = async (env: Record<string, string>) => {
    server = await listen({ deps: { store: engine.store }, config: fixtureConfig({ rateLimits: { anonymousPerMinute: 100_000 } }, env) });
  };
  afterEach(async () => server?.close());

  it("is absent without FERRY_ADMIN_TOKEN: every /admin path is the ordinary 404", async () => {
    await start({});
    for (const [method, path] of [["GET", "/admin/keys"], ["POST", "/admin/keys"], ["GET", "/admin/webhooks"], ["GET", "/admin/requests/parked"]] as const) {
      const response = await call(method, path, { ...(method === "POST" ? { body: { name: "x" } } : {}) });
      expect(response.status, `${method} ${path}`).to.equal(404);
      expect((await errorBody(response)).errorCode).to.equal("NOT_FOUND");
    }
    const doc = (await (await fetch(`${server.url}/openapi.json`)).json()) as { paths: Record<string, unknown> };
    expect(Object.keys(doc.paths).filter((path) => path.startsWith("/admin"))).to.deep.equal([]);
  });

  it("answers 401 ADMIN_UNAUTHORIZED without, or with a wrong, bearer token, before validating anything", async () => {
    await start({ FERRY_ADMIN_TOKEN: TOKEN });
    const cases: [string, string, { token?: string | null; body?: unknown }][] = [
      ["GET", "/admin/keys", { token: null }],
      ["GET", "/admin/keys", { token: `${TOKEN}x` }],
      ["GET", "/admin/keys", { token: TOKEN.slice(0, -1) }],
      ["POST", "/admin/keys", { token: null, body: { wrong: 1 } }],
      ["DELETE", "/admin/keys/not%20valid", { token: "nope" }],
      ["GET", "/admin/requests/parked?limit=abc", { token: null }],
    ];
    for (const [method, path, options] of cases) {
      const response = await call(method, path, options);
      const body = await errorBody(response);
      expect(response.status, `${method} ${path}`).to.equal(401);
      expect(body.errorCode).to.equal("ADMIN_UNAUTHORIZED");
      expect(response.headers.get("www-authenticate")).to.match(/^Bearer/);
      expect(JSON.stringify(body)).to.not.include(TOKEN);
    }
    // The token in an x-api-key header or the query string is not accepted either.
    const inQuery = await fetch(`${server.url}/admin/keys?token=${TOKEN}`);
    expect(inQuery.status).to.equal(401);
    // And the document describes the routes with the bearer scheme.
    const doc = (await (await fetch(`${server.url}/openapi.json`)).json()) as {
      paths: Record<string, Record<string, { security?: unknown; operationId?: string }>>;
      components: { securitySchemes: Record<string, unknown> };
    };
    expect(doc.components.securitySchemes).to.have.property("adminToken");
    expect(doc.paths["/admin/keys"]!.post!.security).to.deep.equal([{ adminToken: [] }]);
    expect(doc.paths["/admin/keys"]!.post!.operationId).to.equal("adminCreateKey");
  });

  it("creates, lists and revokes API keys; the key is shown once and works on the public API until revoked", async () => {
    await start({ FERRY_ADMIN_TOKEN: TOKEN });
    const created = await ok<{ id: string; name: string; rateLimit: number | null; key: string }>(
      await call("POST", "/admin/keys", { body: { name: "  acme  ", rateLimit: 600 } }),
      201,
    );
    expect(created).to.include({ name: "acme", rateLimit: 600 });
    expect(created.key).to.match(/^ferry_/);
    expect((await fetch(`${server.url}/chains`, { headers: { "x-api-key": created.key } })).status).to.equal(200);

    const { keys } = await ok<{ keys: { id: string; name: string; revokedAt: string | null }[] }>(await call("GET", "/admin/keys"));
    expect(keys.map((k) => [k.id, k.name, k.revokedAt])).to.deep.equal([[created.id, "acme", null]]);
    expect(JSON.stringify(keys)).to.not.include(created.key);

    const revoked = await ok<{ alreadyRevoked: boolean; revokedAt: string }>(await call("DELETE", `/admin/keys/${created.id}`));
    expect(revoked.alreadyRevoked).to.equal(false);
    expect(revoked.revokedAt).to.be.a("string");
    const again = await ok<{ alreadyRevoked: boolean; revokedAt: string }>(await call("DELETE", `/admin/keys/${created.id}`));
    expect(again).to.deep.include({ alreadyRevoked: true, revokedAt: revoked.revokedAt });
    const unknown = await call("DELETE", "/admin/keys/key_0000000000000000");
    expect(unknown.status).to.equal(404);
    expect((await errorBody(unknown)).errorCode).to.equal("UNKNOWN_API_KEY");

    for (const body of [{ name: "" }, { name: "x", rateLimit: 0 }, { name: "x", extra: true }, { name: "bell\u0007" }]) {
      const response = await call("POST", "/admin/keys", { body });
      expect(response.status, JSON.stringify(body)).to.equal(400);
      expect((await errorBody(response)).errorCode).to.be.oneOf(["INVALID_REQUEST", "INVALID_INPUT"]);
    }
  });

  it("sets, shows and clears a webhook endpoint with custom headers; values and the key never come back", async () => {
    await start({ FERRY_ADMIN_TOKEN: TOKEN, FERRY_WEBHOOK_SECRET_KEY: SECRET_KEY_HEX });
    const key = await ok<{ id: string; key: string }>(await call("POST", "/admin/keys", { body: { name: "integrator" } }), 201);
    const set = await call("PUT", "/admin/webhooks", { body: { apiKey: key.key, url: "https://hooks.example.com/ferry", headers: { Authorization: AUTH_VALUE } } });
    const setText = await set.text();
    expect(set.status, setText).to.equal(200);
    expect(JSON.parse(setText)).to.deep.include({ keyId: key.id, keyName: "integrator", url: "https://hooks.example.com/ferry", headers: { Authorization: "[redacted]" } });
    for (const secret of [key.key, AUTH_VALUE]) expect(setText).to.not.include(secret);

    const { webhooks } = await ok<{ webhooks: { keyId: string; headers: Record<string, string> }[] }>(await call("GET", `/admin/webhooks?keyId=${key.id}`));
    expect(webhooks.map((w) => [w.keyId, w.headers])).to.deep.equal([[key.id, { Authorization: "[redacted]" }]]);
    // The value is stored as given (the worker sends it), only never shown.
    const { rows } = await engine.store.engine.query<{ webhook_headers: Record<string, string> }>("SELECT webhook_headers FROM api_keys WHERE id = $1", [key.id]);
    expect(rows[0]!.webhook_headers).to.deep.equal({ Authorization: AUTH_VALUE });

    const errors: [unknown, string][] = [
      [{ apiKey: `${key.key}x`, url: "https://hooks.example.com/ferry" }, "UNKNOWN_API_KEY"],
      [{ apiKey: key.key, url: "http://hooks.example.com/ferry" }, "INVALID_WEBHOOK_URL"],
      [{ apiKey: key.key, url: "https://hooks.example.com/ferry", headers: { "X-Signature-SHA256": AUTH_VALUE } }, "INVALID_WEBHOOK_HEADER"],
    ];
    for (const [body, code] of errors) {
      const response = await call("PUT", "/admin/webhooks", { body });
      const text = await response.text();
      expect(JSON.parse(text).errorCode, text).to.equal(code);
      for (const secret of [key.key, AUTH_VALUE]) expect(text).to.not.include(secret);
    }

    expect(await ok(await call("DELETE", `/admin/webhooks/${key.id}`))).to.deep.equal({ keyId: key.id, cleared: true });
    const gone = await call("DELETE", `/admin/webhooks/${key.id}`);
    expect(gone.status).to.equal(404);
    expect((await errorBody(gone)).errorCode).to.equal("WEBHOOK_NOT_CONFIGURED");
    expect((await errorBody(await call("GET", `/admin/webhooks?keyId=${key.id}`))).errorCode).to.equal("WEBHOOK_NOT_CONFIGURED");
  });

  it("refuses to set a webhook with 503 WEBHOOK_SECRET_KEY_MISSING on a service without FERRY_WEBHOOK_SECRET_KEY", async () => {
    await start({ FERRY_ADMIN_TOKEN: TOKEN });
    const key = await ok<{ key: string }>(await call("POST", "/admin/keys", { body: { name: "k" } }), 201);
    const response = await call("PUT", "/admin/webhooks", { body: { apiKey: key.key, url: "https://hooks.example.com/ferry" } });
    expect(response.status).to.equal(503);
    const body = await errorBody(response);
    expect(body.errorCode).to.equal("WEBHOOK_SECRET_KEY_MISSING");
    expect(body.message).to.include("FERRY_WEBHOOK_SECRET_KEY");
  });

  it("shows the delivery log of an event and of a request, and redelivers", async () => {
    await start({ FERRY_ADMIN_TOKEN: TOKEN, FERRY_WEBHOOK_SECRET_KEY: SECRET_KEY_HEX });
    const key = await ok<{ id: string; key: string }>(await call("POST", "/admin/keys", { body: { name: "integrator" } }), 201);
    await engine.store.createRequest(testNewRequest(1, { apiKeyId: key.id }));
    await engine.store.transitionRequest(hex(1), "pending");

    type Log = { deliveries: { eventId: number; requestId: string; status: string; state: string; attemptLog: unknown[] }[] };
    const byRequest = await ok<Log>(await call("GET", `/admin/webhooks/deliveries?requestId=${hex(1)}`));
    expect(byRequest.deliveries.map((d) => [d.requestId, d.status, d.state])).to.deep.equal([
      [hex(1), "waiting", "pending"],
      [hex(1), "pending", "pending"],
    ]);
    const first = byRequest.deliveries[0]!.eventId;
    const byEvent = await ok<Log>(await call("GET", `/admin/webhooks/deliveries?eventId=${first}`));
    expect(byEvent.deliveries.map((d) => d.eventId)).to.deep.equal([first]);
    expect(byEvent.deliveries[0]!.attemptLog).to.deep.equal([]);

    for (const [query, status, code] of [
      ["", 400, "INVALID_REQUEST"],
      [`?eventId=${first}&requestId=${hex(1)}`, 400, "INVALID_REQUEST"],
      ["?eventId=999999", 404, "UNKNOWN_EVENT"],
      [`?requestId=${hex(77)}`, 404, "REQUEST_NOT_FOUND"],
      ["?requestId=0x12", 400, "INVALID_REQUEST"],
    ] as const) {
      const response = await call("GET", `/admin/webhooks/deliveries${query}`);
      expect(response.status, query).to.equal(status);
      expect((await errorBody(response)).errorCode, query).to.equal(code);
    }

    expect(await ok(await call("POST", "/admin/webhooks/redeliver", { body: { eventId: first } }))).to.deep.equal({ eventId: first, redelivered: 1 });
    const since = await ok<{ since: string; redelivered: number }>(await call("POST", "/admin/webhooks/redeliver", { body: { since: "2000-01-01T00:00:00Z" } }));
    expect(since).to.deep.equal({ since: "2000-01-01T00:00:00.000Z", redelivered: 2 });
    expect((await call("POST", "/admin/webhooks/redeliver", { body: {} })).status).to.equal(400);
    expect((await errorBody(await call("POST", "/admin/webhooks/redeliver", { body: { eventId: 424242 } }))).errorCode).to.equal("UNKNOWN_EVENT");
  });

  it("lists parked requests and unparks one, which puts it back on the solver's work list", async () => {
    await start({ FERRY_ADMIN_TOKEN: TOKEN });
    for (const n of [1, 2]) {
      await engine.store.createRequest(testNewRequest(n));
      await engine.store.transitionRequest(hex(n), "pending");
    }
    await engine.store.parkRequest(hex(1), { code: "TRANSACTION_REVERTED", message: "the approval reverted" });
    expect((await engine.store.listSolverWork()).map((w) => w.id)).to.deep.equal([hex(2)]);

    type Parked = { id: string; status: string; parked: { code: string; message: string; at: string } };
    const listed = await ok<{ requests: Parked[] }>(await call("GET", "/admin/requests/parked"));
    expect(listed.requests.map((r) => [r.id, r.status, r.parked.code, r.parked.message])).to.deep.equal([
      [hex(1), "pending", "TRANSACTION_REVERTED", "the approval reverted"],
    ]);

    const cleared = await ok<{ request: Parked }>(await call("DELETE", `/admin/requests/parked/${hex(1).toUpperCase().replace("0X", "0x")}`));
    expect(cleared.request).to.deep.include({ id: hex(1), status: "pending" });
    expect(cleared.request.parked.code).to.equal("TRANSACTION_REVERTED");
    expect((await ok<{ requests: Parked[] }>(await call("GET", "/admin/requests/parked"))).requests).to.deep.equal([]);
    expect((await engine.store.listSolverWork()).map((w) => w.id).sort()).to.deep.equal([hex(1), hex(2)]);

    const notParked = await call("DELETE", `/admin/requests/parked/${hex(1)}`);
    expect(notParked.status).to.equal(409);
    expect((await errorBody(notParked)).errorCode).to.equal("REQUEST_NOT_PARKED");
    const unknown = await call("DELETE", `/admin/requests/parked/${hex(99)}`);
    expect(unknown.status).to.equal(404);
    expect((await errorBody(unknown)).errorCode).to.equal("REQUEST_NOT_FOUND");
  });
});

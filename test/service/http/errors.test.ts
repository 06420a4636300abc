/** Error bodies over real HTTP: 404, malformed JSON, 413, oversized headers, 500 without stack, secrets out of logs. */
import { expect } from "chai";
import { request as httpRequest } from "node:http";
import { Type } from "typebox";
import { errorBody, fixtureConfig, listen, logCapture, type Listening } from "./testApp.ts";

const SOLVER_KEY = "0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d";
const DB_PASSWORD = "s3cr3t-db-pw";

describe("HTTP errors", function () {
  let server: Listening;
  const logs = logCapture();

  before(async function () {
    server = await listen({
      config: fixtureConfig(
        { server: { bodyLimitBytes: 4096 } },
        { FERRY_SOLVER_KEY: SOLVER_KEY, DATABASE_URL: `postgres://ferry:${DB_PASSWORD}@127.0.0.1/ferry` },
      ),
      logger: logs.logger,
      deps: { apiKeys: { verify: async (key) => (key === "valid-key-1" ? { id: "k1" } : undefined) } },
      setup: (app) => {
        app.get("/test/boom", async () => {
          const error = new Error(`exploded near ${SOLVER_KEY} with postgres://ferry:${DB_PASSWORD}@db`);
          throw error;
        });
        app.get("/test/param/:id", async () => ({}));
        app.post(
          "/test/echo",
          { schema: { body: Type.Object({ name: Type.String({ maxLength: 10 }) }, { additionalProperties: false }) } },
          async (request) => ({ name: request.body.name }),
        );
      },
    });
  });
  after(() => server.close());

  it("answers an unknown route with 404 NOT_FOUND JSON", async function () {
    for (const [method, path] of [
      ["GET", "/does-not-exist"],
      ["POST", "/health"],
      ["DELETE", "/chains"],
      ["GET", "/chains/31337/extra?x=1"],
    ] as const) {
      const response = await fetch(`${server.url}${path}`, { method });
      expect(response.status, `${method} ${path}`).to.equal(404);
      expect((await errorBody(response)).errorCode).to.equal("NOT_FOUND");
    }
  });

  it("answers malformed JSON with 400 INVALID_REQUEST", async function () {
    const response = await fetch(`${server.url}/test/echo`, { method: "POST", headers: { "content-type": "application/json" }, body: '{"name": ' });
    expect(response.status).to.equal(400);
    expect((await errorBody(response)).errorCode).to.equal("INVALID_REQUEST");
  });

  it("answers a schema violation with 400 naming the field", async function () {
    const cases: [string, string][] = [
      [JSON.stringify({ name: 5 }), "body/name"],
      [JSON.stringify({}), "name"],
      [JSON.stringify({ name: "a", admin: true }), "admin"],
      [JSON.stringify({ name: "x".repeat(11) }), "body/name"],
    ];
    for (const [body, field] of cases) {
      const response = await fetch(`${server.url}/test/echo`, { method: "POST", headers: { "content-type": "application/json" }, body });
      expect(response.status, body).to.equal(400);
      const error = await errorBody(response);
      expect(error.errorCode).to.equal("INVALID_REQUEST");
      expect(error.message, body).to.contain(field);
    }
  });

  it("answers the router's own errors with the error body: bad URL encoding 400 INVALID_REQUEST, an overlong path param 414 URI_TOO_LONG", async function () {
    for (const path of ["/chai%ZZns", "/chains%E0%A4%A", "/test/echo%C3%28"]) {
      const response = await fetch(`${server.url}${path}`);
      expect(response.status, path).to.equal(400);
      const body = await errorBody(response);
      expect(body.errorCode, path).to.equal("INVALID_REQUEST");
      expect(body.message, "the URL is not echoed").to.not.include("%");
    }
    const response = await fetch(`${server.url}/test/param/${"a".repeat(9_000)}`);
    expect(response.status).to.equal(414);
    expect((await errorBody(response)).errorCode).to.equal("URI_TOO_LONG");
  });

  it("refuses NUL and unpaired surrogates in any query value, path param or body string (or key) with 400 INVALID_REQUEST naming it", async function () {
    const cases: Array<[string, RequestInit | undefined, string]> = [
      ["/chains?referrer=a%00b", undefined, "querystring/referrer"],
      ["/chains?referrer=a%ED%A0%80", undefined, "querystring"],
      ["/chains?referrer=%ZZ", undefined, "querystring"],
      ["/test/echo", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ name: "a\u0000" }) }, "body/name"],
      ["/test/echo", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ name: "a\ud800" }) }, "body/name"],
      ["/test/echo", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ name: "\udc00" }) }, "body/name"],
    ];
    for (const [path, init, field] of cases) {
      const response = await fetch(`${server.url}${path}`, init);
      expect(response.status, path).to.equal(400);
      const body = await errorBody(response);
      expect(body.errorCode, path).to.equal("INVALID_REQUEST");
      expect(body.message, path).to.include(field);
    }
    // A surrogate pair (an emoji) is well-formed text.
    const emoji = await fetch(`${server.url}/test/echo`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ name: "ok \ud83d\ude00" }) });
    expect(emoji.status).to.equal(200);
  });

  it("answers a body over the limit with 413 PAYLOAD_TOO_LARGE JSON", async function () {
    const response = await fetch(`${server.url}/test/echo`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ name: "x".repeat(10_000) }),
    });
    expect(response.status).to.equal(413);
    expect((await errorBody(response)).errorCode).to.equal("PAYLOAD_TOO_LARGE");
  });

  it("answers a non-JSON content type with 415 JSON", async function () {
    const response = await fetch(`${server.url}/test/echo`, { method: "POST", headers: { "content-type": "text/csv" }, body: "a,b" });
    expect(response.status).to.equal(415);
    expect((await errorBody(response)).errorCode).to.equal("UNSUPPORTED_MEDIA_TYPE");
  });

  it("answers headers over Node's limit with 431 JSON instead of an empty response", async function () {
    const { status, body } = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      const request = httpRequest(`${server.url}/health`, { headers: { "x-padding": "x".repeat(20_000) } }, (response) => {
        let data = "";
        response.on("data", (chunk) => (data += chunk));
        response.on("end", () => resolve({ status: response.statusCode!, body: data }));
      });
      request.on("error", reject);
      request.end();
    });
    expect(status).to.equal(431);
    expect(JSON.parse(body)).to.deep.equal({ message: "request headers are too large", errorCode: "HEADERS_TOO_LARGE" });
  });

  it("answers an unexpected error with 500 'Internal error' and no stack or detail", async function () {
    const response = await fetch(`${server.url}/test/boom`);
    expect(response.status).to.equal(500);
    const text = await response.text();
    expect(JSON.parse(text)).to.deep.equal({ message: "Internal error", errorCode: "INTERNAL_ERROR" });
    expect(text).not.to.contain("exploded");
    expect(text).not.to.contain(".ts:");
  });

  it("logs errors and requests without key material, database password or API key", async function () {
    await fetch(`${server.url}/test/boom`, { headers: { "x-api-key": "valid-key-1" } });
    await fetch(`${server.url}/health?x=1`, { headers: { "x-api-key": "valid-key-1" } });
    const log = logs.lines.join("");
    expect(log).to.contain("exploded near"); // the error was logged…
    expect(log).to.contain("[redacted]"); // …with the secrets replaced
    for (const secret of [SOLVER_KEY, SOLVER_KEY.slice(2), DB_PASSWORD, "valid-key-1"]) expect(log).not.to.contain(secret);
  });
});

/**
 * Walks every route of /openapi.json with malformed input — wrong types, huge strings, invalid JSON,
 * extra fields, oversized bodies, bad path params — and requires a JSON `{message, errorCode}` with
 * 400, 404 or 413 every time (never a 5xx), then that the server still answers /health.
 * A test-only route with path params, query and body is added so every input kind is exercised.
 * The app has a store (PGlite in memory), so the request routes are walked too.
 */
import { expect } from "chai";
import { Type } from "typebox";
import { createStore, type Store } from "../../../ts/service/store/createStore.ts";
import { errorBody, fixtureConfig, listen, type Listening } from "./testApp.ts";

type Operation = {
  parameters?: { in: "path" | "query" | "header"; name: string; schema?: { type?: string } }[];
  requestBody?: { content?: Record<string, { schema?: { properties?: Record<string, { type?: string }> } }> };
};

const HUGE = "x".repeat(12_000);
const BODY_LIMIT = 8 * 1024;

/** A value of the wrong type for a JSON schema type. */
function wrongValue(type: string | undefined): unknown {
  switch (type) {
    case "string":
      return 12345;
    case "integer":
    case "number":
      return "not-a-number";
    case "boolean":
      return "maybe";
    case "array":
      return { not: "an array" };
    default:
      return [1, 2, 3];
  }
}

describe("malformed input on every route", function () {
  let server: Listening;
  let store: Store;
  before(async function () {
    store = await createStore();
    server = await listen({
      deps: { store },
      config: fixtureConfig({ rateLimits: { anonymousPerMinute: 100_000 }, server: { bodyLimitBytes: BODY_LIMIT } }),
      setup: (app) => {
        app.post(
          "/test/items/:itemId",
          {
            schema: {
              params: Type.Object({ itemId: Type.String({ pattern: "^0x[0-9a-f]{64}$" }) }),
              querystring: Type.Object({ limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 50 })) }, { additionalProperties: false }),
              body: Type.Object(
                { name: Type.String({ maxLength: 100 }), amount: Type.Integer(), tags: Type.Array(Type.String({ maxLength: 10 }), { maxItems: 5 }) },
                { additionalProperties: false },
              ),
            },
          },
          async () => ({ ok: true }),
        );
      },
    });
  });
  after(async () => {
    await server.close();
    await store.close();
  });

  it("answers 400/404/413 JSON for every malformed request, never 5xx, and keeps serving", async function () {
    const document = (await (await fetch(`${server.url}/openapi.json`)).json()) as { paths: Record<string, Record<string, Operation>> };
    const paths = Object.entries(document.paths);
    expect(paths.length).to.be.greaterThanOrEqual(5);
    for (const path of ["/intents/status/v3", "/intents/status", "/requests/v2", "/requests/{requestId}/signature"]) {
      expect(document.paths[path]?.get, `${path} is walked`).to.not.equal(undefined);
    }
    for (const path of ["/quote/v2", "/transactions/index"]) {
      expect(document.paths[path]?.post?.requestBody, `${path} is walked with bodies`).to.not.equal(undefined);
    }
    expect(document.paths["/test/items/{itemId}"]?.post?.requestBody, "the test route with a body is walked").to.not.equal(undefined);
    let requests = 0;

    for (const [path, methods] of paths) {
      for (const [method, operation] of Object.entries(methods)) {
        const parameters = operation.parameters ?? [];
        const pathParams = parameters.filter((p) => p.in === "path");
        const queryParams = parameters.filter((p) => p.in === "query");
        const fill = (value: string) => path.replace(/\{[^}]+\}/g, encodeURIComponent(value));
        const validPath = fill(`0x${"ab".repeat(32)}`);
        const bodyProperties = operation.requestBody?.content?.["application/json"]?.schema?.properties;
        const validBody = bodyProperties ? JSON.stringify({ name: "n", amount: 1, tags: [] }) : undefined;

        const cases: { what: string; url: string; init?: RequestInit }[] = [
          { what: "unknown query field", url: `${validPath}?__unexpected=1` },
          { what: "huge query value", url: `${validPath}?__unexpected=${HUGE}` },
          { what: "repeated query field", url: `${validPath}?a=1&a=2&a=3` },
          { what: "wrong method", url: validPath, init: { method: method === "get" ? "PATCH" : "GET" } },
          { what: "path with junk suffix", url: `${validPath}/${HUGE.slice(0, 500)}` },
        ];
        for (const param of queryParams) {
          // Every query value arrives as text: a string parameter can only be too long (or off-pattern).
          cases.push({ what: `query ${param.name} huge`, url: `${validPath}?${param.name}=${HUGE}` });
          if (param.schema?.type === "string") continue;
          cases.push({ what: `query ${param.name} wrong type`, url: `${validPath}?${param.name}=${encodeURIComponent(JSON.stringify(wrongValue(param.schema?.type)))}` });
          cases.push({ what: `query ${param.name} out of range`, url: `${validPath}?${param.name}=-99999999999999999999` });
          cases.push({ what: `query ${param.name} repeated`, url: `${validPath}?${param.name}=1&${param.name}=2` });
        }
        if (pathParams.length > 0) {
          for (const value of ["not-hex", HUGE.slice(0, 5_000), "%00", "0x", "..%2F..%2Fetc%2Fpasswd", "'; DROP TABLE requests;--"]) {
            cases.push({ what: `path param ${JSON.stringify(value.slice(0, 20))}`, url: fill(value) });
          }
        }
        const withBody = (what: string, body: string, headers: Record<string, string> = { "content-type": "application/json" }) =>
          cases.push({ what, url: validPath, init: { method: method.toUpperCase(), headers, body } });
        if (method !== "get" && method !== "head") {
          withBody("invalid JSON", '{"name": ');
          withBody("JSON array", "[]");
          withBody("JSON scalar", "42");
          withBody("JSON null", "null");
          withBody("empty body", "");
          withBody("oversized body", JSON.stringify({ name: "x".repeat(BODY_LIMIT * 2) }));
          withBody("extra field", JSON.stringify({ ...JSON.parse(validBody ?? "{}"), __unexpected: true }));
          withBody("deeply nested", `${"[".repeat(5_000)}${"]".repeat(5_000)}`);
          withBody("__proto__ pollution", '{"__proto__": {"admin": true}, "name": "n", "amount": 1, "tags": []}');
          for (const [name, schema] of Object.entries(bodyProperties ?? {})) {
            withBody(`body ${name} wrong type`, JSON.stringify({ ...JSON.parse(validBody ?? "{}"), [name]: wrongValue(schema.type) }));
            withBody(`body ${name} huge`, JSON.stringify({ ...JSON.parse(validBody ?? "{}"), [name]: HUGE.slice(0, 6_000) }));
          }
        } else {
          cases.push({
            what: "invalid JSON POSTed to a GET route",
            url: validPath,
            init: { method: "POST", headers: { "content-type": "application/json" }, body: '{"name": ' },
          });
        }

        for (const { what, url, init } of cases) {
          const response = await fetch(`${server.url}${url}`, init);
          requests++;
          const label = `${method.toUpperCase()} ${path}: ${what} → ${response.status}`;
          expect([400, 404, 413], label).to.include(response.status);
          await errorBody(response).catch((error: Error) => expect.fail(`${label}: ${error.message}`));
        }
      }
    }
    expect(requests).to.be.greaterThan(50);

    const health = await fetch(`${server.url}/health`);
    expect(health.status).to.equal(200);
    expect(await health.json()).to.deep.equal({ status: "ok" });
  });
});

/**
 * Walks every route of /openapi.json with malformed input — wrong types, huge strings, invalid JSON,
 * extra fields, oversized bodies, bad path params, NUL characters and unpaired surrogates in every
 * string a route takes (query, body, path), amounts above 2^256 − 1, bad EIP-55 checksums and zero
 * payees, a body of 500 unknown keys, an API key in the URL, bad URL encoding and overlong paths —
 * and requires a JSON `{message, errorCode}` with a 4xx every time (never a 5xx), then that the
 * server still answers /health. On both store engines (PGlite, PostgreSQL): PostgreSQL refuses text
 * PGlite stores (22P05), so a check missing before the store shows on one engine only.
 *
 * The app can quote (a solver key, two real local chains), so a body that is valid except for one
 * field reaches as far as the store does. A test-only route with path params, query and body is added
 * so every input kind is exercised.
 */
import { expect } from "chai";
import { network } from "hardhat";
import { Type } from "typebox";
import type { PublicClient } from "viem";
import { chainClientsOf, type ChainClient } from "../../../ts/service/chains/chainClients.ts";
import { describeEachEngine } from "../store/engines.ts";
import { errorBody, fixtureConfig, listen, type Listening } from "./testApp.ts";

type Operation = {
  parameters?: { in: "path" | "query" | "header"; name: string; schema?: { type?: string } }[];
  requestBody?: { content?: Record<string, { schema?: { properties?: Record<string, { type?: string }> } }> };
};

const HUGE = "x".repeat(12_000);
const BODY_LIMIT = 8 * 1024;
// Hardhat accounts #3 (solver) and #4 (attester): the app quotes and signs like a configured service.
const SOLVER_KEY = "0x7c852118294e51e653712a81e05800f419141751be58f605c371e15141b007a6";
const ATTESTER_KEY = "0x47e179ec197488593b187f80a00eb0da91f1b9d0b13f8733526f3b3b2d2b2e0a";
const USER = "0x15d34AAf54267DB7D7c367839AAf71A00a2C6A65";
/** Text PostgreSQL cannot store (NUL) and text that is not Unicode (a lone surrogate; JSON can carry it). */
const BAD_TEXT = { NUL: "ab\u0000cd", "lone surrogate": "ab\ud800cd", "lone low surrogate": "\udc00" } as const;

/** Bodies each route accepts, so one bad field at a time reaches as far into the service as it can. */
const VALID_BODIES: Record<string, Record<string, unknown>> = {
  "/quote/v2": {
    user: USER,
    recipient: USER,
    originChainId: 31337,
    destinationChainId: 31338,
    originCurrency: "0x0000000000000000000000000000000000000000",
    destinationCurrency: "0x0000000000000000000000000000000000000000",
    amount: "1000000000000000",
    tradeType: "EXACT_INPUT",
    referrer: "walk",
  },
  "/transactions/index": { chainId: 31337, txHash: `0x${"ab".repeat(32)}` },
  "/test/items/{itemId}": { name: "n", amount: 1, tags: [] },
};

/** Extra body cases per route: values in range for the schema's pattern but not for the type behind it. */
const BODY_CASES: Record<string, Array<[string, Record<string, unknown>]>> = {
  "/quote/v2": [
    ["amount 2^256", { amount: (2n ** 256n).toString() }],
    ["amount 10^78 - 1", { amount: "9".repeat(78) }],
    ["amount 2^256 EXACT_OUTPUT", { amount: (2n ** 256n).toString(), tradeType: "EXACT_OUTPUT" }],
    ["amount 2^256 - 1 EXACT_OUTPUT", { amount: (2n ** 256n - 1n).toString(), tradeType: "EXACT_OUTPUT" }],
    ["user with a wrong EIP-55 checksum", { user: USER.replace("15d34AAf", "15d34aAf") }],
    ["recipient with a wrong EIP-55 checksum", { recipient: USER.replace("15d34AAf", "15d34aAf") }],
    ["recipient the zero address", { recipient: "0x0000000000000000000000000000000000000000" }],
    ["refundTo the zero address", { refundTo: "0x0000000000000000000000000000000000000000" }],
    ["app fee to the zero address", { appFees: [{ recipient: "0x0000000000000000000000000000000000000000", fee: "1" }] }],
    ["500 unknown keys", Object.fromEntries(Array.from({ length: 500 }, (_, i) => [`k${i}`, i]))],
    ...Object.entries(BAD_TEXT).map(([what, text]): [string, Record<string, unknown>] => [`appFees recipient ${what}`, { appFees: [{ recipient: text, fee: "1" }] }]),
    ...Object.entries(BAD_TEXT).map(([what, text]): [string, Record<string, unknown>] => [`sponsoredFeeComponents ${what}`, { sponsoredFeeComponents: [text] }]),
    ...Object.entries(BAD_TEXT).map(([what, text]): [string, Record<string, unknown>] => [`txs[0].data ${what}`, { txs: [{ data: text }] }]),
  ],
};

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

const origin = await network.create("origin");
const destination = await network.create("destination");
// The test chains' EDR clients stand in for the process's chain clients (the quote reads gas prices and balances).
const testClient = (id: number, client: unknown) => ({ config: { id }, publicClient: client as PublicClient }) as unknown as ChainClient;
const chainClients = chainClientsOf([
  testClient(31337, await origin.viem.getPublicClient()),
  testClient(31338, await destination.viem.getPublicClient()),
]);

describeEachEngine("malformed input on every route", function (engine) {
  let server: Listening;
  before(async function () {
    server = await listen({
      deps: { store: engine.store, chainClients },
      config: fixtureConfig(
        { rateLimits: { anonymousPerMinute: 100_000 }, server: { bodyLimitBytes: BODY_LIMIT } },
        { FERRY_SOLVER_KEY: SOLVER_KEY, FERRY_ATTESTER_KEY: ATTESTER_KEY },
      ),
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
    await server?.close();
  });

  it("the valid bodies of the walk are valid (so a 4xx below is the bad field's)", async function () {
    const response = await fetch(`${server.url}/quote/v2`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(VALID_BODIES["/quote/v2"]),
    });
    expect(response.status, await response.clone().text()).to.equal(200);
  });

  it("answers a 4xx JSON error for every malformed request, never 5xx, and keeps serving", async function () {
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
    const failures: string[] = [];

    for (const [path, methods] of paths) {
      for (const [method, operation] of Object.entries(methods)) {
        const parameters = operation.parameters ?? [];
        const pathParams = parameters.filter((p) => p.in === "path");
        const queryParams = parameters.filter((p) => p.in === "query");
        const fill = (value: string, raw = false) => path.replace(/\{[^}]+\}/g, raw ? value : encodeURIComponent(value));
        const validPath = fill(`0x${"ab".repeat(32)}`);
        const bodyProperties = operation.requestBody?.content?.["application/json"]?.schema?.properties;
        const valid = VALID_BODIES[path] ?? { name: "n", amount: 1, tags: [] };
        const validBody = bodyProperties ? JSON.stringify(valid) : undefined;

        const cases: { what: string; url: string; init?: RequestInit }[] = [
          { what: "unknown query field", url: `${validPath}?__unexpected=1` },
          { what: "huge query value", url: `${validPath}?__unexpected=${HUGE}` },
          { what: "repeated query field", url: `${validPath}?a=1&a=2&a=3` },
          { what: "wrong method", url: validPath, init: { method: method === "get" ? "PATCH" : "GET" } },
          { what: "path with junk suffix", url: `${validPath}/${HUGE.slice(0, 500)}` },
          { what: "bad percent-encoding in the path", url: `${validPath}%E0%A4%A` },
          { what: "invalid percent-escape in the path", url: `${validPath.slice(0, 4)}%ZZ${validPath.slice(4)}` },
          { what: "bad percent-encoding in the query", url: `${validPath}?x=%E0%A4%A` },
        ];
        if (queryParams.some((p) => p.name === "apiKey")) {
          cases.push({ what: "a plaintext API key in the URL", url: `${validPath}?apiKey=ferry_${"A".repeat(43)}` });
        }
        for (const param of queryParams) {
          // Every query value arrives as text: a string parameter can only be too long, off-pattern or bad text.
          cases.push({ what: `query ${param.name} huge`, url: `${validPath}?${param.name}=${HUGE}` });
          cases.push({ what: `query ${param.name} with NUL`, url: `${validPath}?${param.name}=ab%00cd` });
          cases.push({ what: `query ${param.name} NUL only`, url: `${validPath}?${param.name}=%00` });
          cases.push({ what: `query ${param.name} encoded lone surrogate`, url: `${validPath}?${param.name}=%ED%A0%80` });
          cases.push({ what: `query ${param.name} invalid UTF-8`, url: `${validPath}?${param.name}=%C3%28` });
          if (param.schema?.type === "string") continue;
          cases.push({ what: `query ${param.name} wrong type`, url: `${validPath}?${param.name}=${encodeURIComponent(JSON.stringify(wrongValue(param.schema?.type)))}` });
          cases.push({ what: `query ${param.name} out of range`, url: `${validPath}?${param.name}=-99999999999999999999` });
          cases.push({ what: `query ${param.name} repeated`, url: `${validPath}?${param.name}=1&${param.name}=2` });
        }
        if (pathParams.length > 0) {
          for (const value of ["not-hex", HUGE.slice(0, 5_000), "%00", "\u0000", "0x", "..%2F..%2Fetc%2Fpasswd", "'; DROP TABLE requests;--"]) {
            cases.push({ what: `path param ${JSON.stringify(value.slice(0, 20))}`, url: fill(value) });
          }
          // Already percent-encoded: a lone surrogate's UTF-8 form, invalid UTF-8, a bad escape.
          for (const raw of ["%ED%A0%80", "%C3%28", "%E0%A4%A", "ab%ZZ"]) cases.push({ what: `path param raw ${raw}`, url: fill(raw, true) });
          cases.push({ what: "path param over the router's limit (414)", url: fill("a".repeat(9_000)) });
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
          withBody("extra field", JSON.stringify({ ...valid, __unexpected: true }));
          withBody("deeply nested", `${"[".repeat(5_000)}${"]".repeat(5_000)}`);
          withBody("__proto__ pollution", '{"__proto__": {"admin": true}, "name": "n", "amount": 1, "tags": []}');
          withBody("unknown key with NUL", JSON.stringify({ ...valid, "a\u0000b": 1 }));
          withBody("unknown key with lone surrogate", JSON.stringify({ ...valid, "a\ud800b": 1 }));
          for (const [name, schema] of Object.entries(bodyProperties ?? {})) {
            withBody(`body ${name} wrong type`, JSON.stringify({ ...valid, [name]: wrongValue(schema.type) }));
            withBody(`body ${name} huge`, JSON.stringify({ ...valid, [name]: HUGE.slice(0, 6_000) }));
            if (schema.type !== "string" && schema.type !== undefined) continue;
            for (const [what, text] of Object.entries(BAD_TEXT)) {
              withBody(`body ${name} ${what}`, JSON.stringify({ ...valid, [name]: text }));
              withBody(`body ${name} valid-looking with ${what}`, JSON.stringify({ ...valid, [name]: `${String(valid[name] ?? "x")}${text}` }));
            }
          }
          for (const [what, fields] of BODY_CASES[path] ?? []) withBody(`body ${what}`, JSON.stringify({ ...valid, ...fields }));
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
          const label = `${method.toUpperCase()} ${path}: ${what.slice(0, 80)} → ${response.status}`;
          if (response.status < 400 || response.status >= 500) {
            failures.push(`${label} ${(await response.text()).slice(0, 160)}`);
            continue;
          }
          await errorBody(response).catch((error: Error) => failures.push(`${label}: ${error.message.slice(0, 160)}`));
        }
      }
    }
    expect(requests).to.be.greaterThan(200);
    console.log(`      walked ${requests} malformed requests: 0 answered 5xx`);
    expect(failures, failures.join("\n")).to.deep.equal([]);

    const health = await fetch(`${server.url}/health`);
    expect(health.status).to.equal(200);
    expect(await health.json()).to.deep.equal({ status: "ok" });
  });
});

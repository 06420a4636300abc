/**
 * GET /llms.txt over real HTTP on loopback: text/plain, the links to /openapi.json and /docs, every
 * operation of the app's own /openapi.json and every code of the error registry — so that a route or
 * a code added anywhere shows up here without anyone editing the text.
 */
import { randomBytes } from "node:crypto";
import { expect } from "chai";
import { ERROR_REGISTRY } from "../../../ts/service/errors/errorRegistry.ts";
import { renderLlmsTxt } from "../../../ts/service/http/routes/llmsTxt.ts";
import { describeEachEngine } from "../store/engines.ts";
import { fixtureConfig, listen, type Listening } from "./testApp.ts";

/** `METHOD /path` of every operation in the app's OpenAPI document, path parameters as `:name`. */
async function operationsOf(url: string): Promise<string[]> {
  const document = (await (await fetch(`${url}/openapi.json`)).json()) as { paths: Record<string, Record<string, unknown>> };
  return Object.entries(document.paths).flatMap(([path, operations]) =>
    Object.keys(operations)
      .filter((method) => ["get", "post", "put", "patch", "delete"].includes(method))
      .map((method) => `${method.toUpperCase()} ${path.replace(/\{([^}]+)\}/g, ":$1")}`),
  );
}

async function llmsTxt(url: string): Promise<string> {
  const response = await fetch(`${url}/llms.txt`);
  expect(response.status).to.equal(200);
  expect(response.headers.get("content-type")).to.match(/^text\/plain/);
  return response.text();
}

describe("GET /llms.txt (no store)", function () {
  let server: Listening;
  before(async () => (server = await listen({})));
  after(() => server.close());

  it("is text/plain with a title, a summary, the OpenAPI links, every route and every error code", async () => {
    const text = await llmsTxt(server.url);
    expect(text.split("\n")[0]).to.match(/^# Ferry API \d+\.\d+\.\d+$/);
    expect(text).to.match(/^> Ferry is a self-hostable cross-chain intent execution service/m);
    expect(text).to.include("[OpenAPI document](/openapi.json)").and.include("[API reference](/docs)");
    const operations = await operationsOf(server.url);
    expect(operations).to.include.members(["GET /health", "GET /chains", "GET /llms.txt"]);
    for (const operation of operations) expect(text, operation).to.include(`- \`${operation}\``);
    for (const [code, policy] of Object.entries(ERROR_REGISTRY)) expect(text, code).to.include(`- \`${code}\` — ${policy.status} —`);
    expect(text).to.not.include("- `GET /ws`"); // no store, no websocket route
  });
});

describeEachEngine("GET /llms.txt (the whole app)", (engine) => {
  let server: Listening;
  before(async () => {
    const config = fixtureConfig({}, { FERRY_ADMIN_TOKEN: `adm_${randomBytes(24).toString("hex")}` });
    server = await listen({ deps: { store: engine.store }, config });
  });
  after(() => server.close());

  it("lists the quote, status and request routes, the websocket, and the admin routes apart", async () => {
    const text = await llmsTxt(server.url);
    for (const operation of await operationsOf(server.url)) expect(text, operation).to.include(`- \`${operation}\``);
    expect(text).to.include("- `POST /quote/v2`").and.include("- `GET /intents/status/v3`").and.include("- `GET /requests/v2`");
    expect(text).to.include("- `GET /ws` (websocket)");
    const operator = text.slice(text.indexOf("## Operator routes"));
    expect(operator).to.include("- `GET /admin/keys`");
    expect(text.slice(0, text.indexOf("## Operator routes"))).to.not.include("/admin/");
  });
});

describe("renderLlmsTxt", () => {
  it("follows the document: a route it does not have is not listed", () => {
    const text = renderLlmsTxt({ info: { title: "Ferry", version: "9.9.9" }, paths: { "/only/{id}": { get: { summary: "One\n  route" } } } });
    expect(text).to.include("- `GET /only/:id`: One route");
    expect(text).to.not.include("/quote/v2`:");
    expect(text.split("\n")[0]).to.equal("# Ferry API 9.9.9");
  });
});

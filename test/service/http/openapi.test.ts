/** GET /openapi.json (generated from the route schemas) and the rendered docs page at /docs. */
import { expect } from "chai";
import { listen, type Listening } from "./testApp.ts";
import { createStore } from "../../../ts/service/store/createStore.ts";

describe("GET /openapi.json and /docs", function () {
  let server: Listening;
  before(async () => (server = await listen({})));
  after(() => server.close());

  it("describes every route with its schemas, version 1.0.0", async function () {
    const response = await fetch(`${server.url}/openapi.json`);
    expect(response.status).to.equal(200);
    const document = (await response.json()) as { openapi: string; info: { version: string }; paths: Record<string, any> };
    expect(document.openapi).to.match(/^3\./);
    expect(document.info.version).to.equal("1.0.0");
    expect(Object.keys(document.paths)).to.include.members(["/health", "/ready", "/metrics", "/chains"]);
    const chains = document.paths["/chains"].get;
    expect(chains.responses["200"].content["application/json"].schema.properties.chains.items.required).to.include.members([
      "id",
      "httpRpcUrl",
      "contracts",
      "protocol",
    ]);
    for (const status of ["400", "429", "500"]) {
      expect(chains.responses[status].content["application/json"].schema.required).to.deep.equal(["message", "errorCode"]);
    }
    expect(document.paths["/ready"].get.responses).to.have.property("503");
    expect(document.paths["/metrics"].get.responses["200"].content).to.have.property("text/plain");
  });

  it("describes a failure's frames (status details, /execute's simulation error) and useExternalLiquidity's effect", async function () {
    // The quote, status and execute routes exist with a store and an executor (never called here: only the document is read).
    const store = await createStore();
    const executor = { execute: () => Promise.reject(new Error("not called: the document only")) };
    const full = await listen({ deps: { store, executor } });
    const document = (await (await fetch(`${full.url}/openapi.json`)).json()) as { paths: Record<string, any> };
    await full.close();
    await store.close();
    const frameFields = ["type", "address", "contract", "function", "selector", "error", "revertReason", "gasUsed"];
    const status = document.paths["/intents/status/v3"].get.responses["200"].content["application/json"].schema;
    // Object or null: the document states the union as `anyOf` or as a nullable object.
    const details = status.properties.details.anyOf?.find((s: { type?: string }) => s.type === "object") ?? status.properties.details;
    expect(details.type).to.equal("object");
    expect(details.properties).to.have.all.keys("topLevel", "innermost", "path", "revert");
    expect(details.properties.topLevel.properties).to.have.all.keys(...frameFields);
    expect(details.properties.path.items.properties).to.have.all.keys(...frameFields);
    expect(details.properties.revert.properties).to.include.keys("type", "label", "message", "name", "args", "rawArgsHex");
    for (const field of ["topLevel", "innermost", "path", "revert"]) expect(details.properties[field].description, field).to.be.a("string").and.not.empty;
    const execute = document.paths["/execute"].post.responses["400"].content["application/json"].schema.properties.details;
    expect(execute.required).to.include.members(["topLevel", "revert"]);
    expect(execute.properties.innermost.properties).to.have.all.keys(...frameFields);
    const quoteBody = document.paths["/quote/v2"].post.requestBody.content["application/json"].schema;
    expect(quoteBody.properties.useExternalLiquidity.description).to.contain("Uniswap V2 pool").and.not.contain("no effect");
  });

  it("renders the docs page from the package's own assets (no CDN)", async function () {
    const page = await fetch(`${server.url}/docs`);
    expect(page.status).to.equal(200);
    expect(page.headers.get("content-type")).to.match(/^text\/html/);
    const html = await page.text();
    expect(html).to.contain("swagger-ui");
    expect(html).not.to.match(/https?:\/\/(?!127\.0\.0\.1)[^"']*\.(js|css)/);
    const bundle = await fetch(`${server.url}/docs/static/swagger-ui-bundle.js`);
    expect(bundle.status).to.equal(200);
    expect((await bundle.text()).length).to.be.greaterThan(100_000);
  });
});

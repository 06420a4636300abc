/**
 * The OpenAPI document's metadata (ts/service/http/routes/openapi.ts): an operationId on every
 * operation, the configured server, the optional x-api-key applied, the license; and validation
 * errors that list the allowed values of enums and unions of literals. `npm run lint:openapi` lints
 * the same document with Redocly's recommended rules.
 */
import { expect } from "chai";
import { createStore, type Store } from "../../../ts/service/store/createStore.ts";
import { errorBody, fixtureConfig, listen, type Listening } from "./testApp.ts";

describe("OpenAPI metadata and enum validation messages", function () {
  let store: Store;
  let server: Listening;
  before(async () => {
    store = await createStore({});
    server = await listen({ config: fixtureConfig({ server: { host: "127.0.0.1", port: 8080 } }), deps: { store } });
  });
  after(async () => {
    await server.close();
    await store.close();
  });

  it("gives every operation a unique operationId, the server, the optional API key and a license", async () => {
    const document = (await (await fetch(`${server.url}/openapi.json`)).json()) as Record<string, any>;
    const ids: string[] = [];
    for (const operations of Object.values(document.paths as Record<string, Record<string, { operationId?: string }>>)) {
      for (const operation of Object.values(operations)) ids.push(operation.operationId!);
    }
    expect(ids).to.include.members(["quoteV2", "getIntentStatusV3", "getRequestsV2", "getRequestSignature", "getChains", "indexTransaction"]);
    expect(ids.every((id) => typeof id === "string" && id.length > 0)).to.equal(true);
    expect(new Set(ids).size).to.equal(ids.length);
    expect(document.servers[0].variables).to.deep.equal({ host: { default: "127.0.0.1" }, port: { default: "8080" } });
    expect(document.security).to.deep.equal([{ apiKey: [] }, {}]);
    expect(document.components.securitySchemes.apiKey).to.deep.equal({ type: "apiKey", in: "header", name: "x-api-key" });
    expect(document.info.license.name).to.equal("MIT");
  });

  it("lists the allowed values when a body field is not one of its literals", async () => {
    const response = await fetch(`${server.url}/quote/v2`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({
        user: "0x15d34AAf54267DB7D7c367839AAf71A00a2C6A65",
        originChainId: 31337,
        destinationChainId: 31338,
        originCurrency: "0x0000000000000000000000000000000000000000",
        destinationCurrency: "0x0000000000000000000000000000000000000000",
        amount: "1",
        tradeType: "EXACT_SOMETHING",
      }),
    });
    expect(response.status).to.equal(400);
    const body = await errorBody(response);
    expect(body.errorCode).to.equal("INVALID_REQUEST");
    expect(body.message).to.contain("tradeType").and.contain("'EXACT_INPUT'").and.contain("'EXACT_OUTPUT'");
  });

  it("lists the allowed values of a query parameter", async () => {
    const response = await fetch(`${server.url}/requests/v2?sortBy=size`);
    expect(response.status).to.equal(400);
    const body = await errorBody(response);
    expect(body.message).to.contain("sortBy").and.contain("'createdAt'").and.contain("'updatedAt'");
  });
});

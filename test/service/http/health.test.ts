/** GET /health and GET /ready over real HTTP. */
import { expect } from "chai";
import { errorBody, listen, type Listening } from "./testApp.ts";

describe("GET /health", function () {
  let server: Listening;
  before(async () => (server = await listen({})));
  after(() => server.close());

  it("answers 200 {status: ok}", async function () {
    const response = await fetch(`${server.url}/health`);
    expect(response.status).to.equal(200);
    expect(await response.json()).to.deep.equal({ status: "ok" });
  });

  it("rejects an unknown query parameter with 400 naming it", async function () {
    const response = await fetch(`${server.url}/health?verbose=1`);
    expect(response.status).to.equal(400);
    const body = await errorBody(response);
    expect(body.errorCode).to.equal("INVALID_REQUEST");
    expect(body.message).to.contain("verbose");
  });
});

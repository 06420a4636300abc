/**
 * The explorer's routes without the bundled script (a checkout where `npm run build:explorer` never
 * ran): the page and the stylesheet are served, the script is a clear 503 EXPLORER_UNAVAILABLE, never
 * a crash; with it, the script is served. Every answer carries the origin-only Content-Security-Policy.
 */
import { expect } from "chai";
import { existsSync } from "node:fs";
import { rename } from "node:fs/promises";
import { join } from "node:path";
import { writeExplorerBundle } from "../../../scripts/build-explorer.ts";
import { REPO_ROOT } from "../../cli/runCli.ts";
import { describeEachEngine } from "../store/engines.ts";
import { errorBody, fixtureConfig, listen, type Listening } from "./testApp.ts";

const BUNDLE = join(REPO_ROOT, "ts/explorer/explorer.js");

describeEachEngine("explorer routes", (engine) => {
  let server: Listening;
  before(async () => {
    server = await listen({ config: fixtureConfig(), deps: { store: engine.store } });
  });
  after(async () => server?.close());

  it("serves the page for the search and for a request, with the origin-only policy; a malformed id is a 400", async () => {
    for (const path of ["/explorer", "/explorer?q=0x1234", `/explorer/requests/0x${"ab".repeat(32)}`]) {
      const response = await fetch(`${server.url}${path}`);
      expect(response.status, path).to.equal(200);
      expect(response.headers.get("content-type")).to.match(/^text\/html/);
      expect(response.headers.get("content-security-policy")).to.include("default-src 'none'").and.include("connect-src 'self'");
      expect(await response.text()).to.include("<main");
    }
    const malformed = await fetch(`${server.url}/explorer/requests/0x1234`);
    expect(malformed.status).to.equal(400);
    expect((await errorBody(malformed)).errorCode).to.equal("INVALID_REQUEST");
    const css = await fetch(`${server.url}/explorer/assets/explorer.css`);
    expect(css.status).to.equal(200);
    expect(css.headers.get("content-type")).to.match(/^text\/css/);
  });

  it("answers 503 EXPLORER_UNAVAILABLE for the script until it is built, then serves it", async function () {
    this.timeout(60_000);
    // The bundle aside (when a build left one), so the first read finds none.
    const aside = `${BUNDLE}.aside-${process.pid}`;
    const had = existsSync(BUNDLE);
    if (had) await rename(BUNDLE, aside);
    try {
      const missing = await fetch(`${server.url}/explorer/assets/explorer.js`);
      expect(missing.status).to.equal(503);
      expect((await errorBody(missing)).errorCode).to.equal("EXPLORER_UNAVAILABLE");
    } finally {
      if (had) await rename(aside, BUNDLE);
      else await writeExplorerBundle();
    }
    const built = await fetch(`${server.url}/explorer/assets/explorer.js`);
    expect(built.status).to.equal(200);
    expect(built.headers.get("content-type")).to.match(/^text\/javascript/);
    expect(await built.text()).to.include("repayment.requestHash");
  });
});

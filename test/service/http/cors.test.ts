/**
 * CORS for browser dApps (ts/service/http/cors.ts, docs/api.md "CORS"), over HTTP on loopback: a
 * preflight for any route is answered (204) with the methods and headers the API takes; answers —
 * errors included — carry `Access-Control-Allow-Origin` so a page can read them; no credentials are
 * ever allowed (Ferry uses no cookies); `server.corsOrigins` narrows the origins, `[]` turns CORS off.
 */
import { expect } from "chai";
import { fixtureConfig, listen, type Listening } from "./testApp.ts";

const ORIGIN = "https://dapp.example";
const preflight = (url: string, origin = ORIGIN, method = "POST", headers = "content-type,x-api-key") =>
  fetch(url, { method: "OPTIONS", headers: { origin, "access-control-request-method": method, "access-control-request-headers": headers } });

describe("CORS", function () {
  let open: Listening;
  let narrow: Listening;
  let off: Listening;
  before(async () => {
    open = await listen({ config: fixtureConfig({ rateLimits: { anonymousPerMinute: 3 } }) });
    narrow = await listen({ config: fixtureConfig({ server: { corsOrigins: [ORIGIN, "https://other.example"] } }) });
    off = await listen({ config: fixtureConfig({ server: { corsOrigins: [] } }) });
  });
  after(async () => Promise.all([open?.close(), narrow?.close(), off?.close()]));

  it("answers a preflight for the quote route with 204: any origin, GET/POST, content-type and x-api-key, cached 10 minutes, no credentials", async () => {
    const response = await preflight(`${open.url}/quote/v2`);
    expect(response.status).to.equal(204);
    expect(response.headers.get("access-control-allow-origin")).to.equal("*");
    expect(response.headers.get("access-control-allow-methods")?.split(/,\s*/)).to.include.members(["GET", "POST"]);
    expect(response.headers.get("access-control-allow-headers")?.toLowerCase().split(/,\s*/)).to.include.members(["content-type", "x-api-key"]);
    expect(response.headers.get("access-control-max-age")).to.equal("600");
    expect(response.headers.get("access-control-allow-credentials")).to.equal(null);
  });

  it("answers a bare OPTIONS (no preflight headers) 204 too, never a text/plain error", async () => {
    const response = await fetch(`${narrow.url}/health`, { method: "OPTIONS" });
    expect(response.status).to.equal(204);
  });

  it("lets a page read answers and errors: Allow-Origin on 200, 404 and 429, Retry-After exposed", async () => {
    const ok = await fetch(`${open.url}/chains`, { headers: { origin: ORIGIN } });
    expect([ok.status, ok.headers.get("access-control-allow-origin")]).to.deep.equal([200, "*"]);
    expect(ok.headers.get("access-control-expose-headers")?.toLowerCase()).to.include("retry-after");
    const missing = await fetch(`${open.url}/nope`, { headers: { origin: ORIGIN } });
    expect([missing.status, missing.headers.get("access-control-allow-origin")]).to.deep.equal([404, "*"]);
    let limited: Response | undefined;
    for (let i = 0; i < 10 && limited?.status !== 429; i++) limited = await fetch(`${open.url}/health`, { headers: { origin: ORIGIN } });
    expect([limited!.status, limited!.headers.get("access-control-allow-origin")]).to.deep.equal([429, "*"]);
  });

  it("with server.corsOrigins, allows the listed origins only (echoed, Vary: Origin)", async () => {
    const listed = await preflight(`${narrow.url}/quote/v2`);
    expect([listed.status, listed.headers.get("access-control-allow-origin")]).to.deep.equal([204, ORIGIN]);
    expect(listed.headers.get("vary")?.toLowerCase()).to.include("origin");
    const other = await fetch(`${narrow.url}/chains`, { headers: { origin: "https://evil.example" } });
    expect(other.headers.get("access-control-allow-origin")).to.equal(null);
  });

  it("with server.corsOrigins [], sends no CORS headers (browsers on other origins are refused by the browser)", async () => {
    const response = await fetch(`${off.url}/chains`, { headers: { origin: ORIGIN } });
    expect([response.status, response.headers.get("access-control-allow-origin")]).to.deep.equal([200, null]);
  });
});

/** Rate limits: per-IP anonymous budget, a higher per-key budget, 401 for unknown keys, 429 + Retry-After. */
import { expect } from "chai";
import { errorBody, fixtureConfig, listen, type Listening } from "./testApp.ts";

const ANONYMOUS = 3;
const WITH_KEY = 7;

describe("rate limits and API keys", function () {
  let server: Listening;
  beforeEach(async function () {
    server = await listen({
      config: fixtureConfig({ rateLimits: { anonymousPerMinute: ANONYMOUS, apiKeyPerMinute: WITH_KEY } }),
      deps: { apiKeys: { verify: async (key) => (key === "good-key" ? { id: "key-1" } : undefined) } },
    });
  });
  afterEach(() => server.close());

  const get = (path: string, apiKey?: string) => fetch(`${server.url}${path}`, apiKey ? { headers: { "x-api-key": apiKey } } : {});

  it("answers 429 RATE_LIMITED with Retry-After once the anonymous budget is spent", async function () {
    for (let i = 0; i < ANONYMOUS; i++) expect((await get("/health")).status, `request ${i + 1}`).to.equal(200);
    const response = await get("/health");
    expect(response.status).to.equal(429);
    const retryAfter = Number(response.headers.get("retry-after"));
    expect(retryAfter).to.be.greaterThan(0).and.at.most(60);
    expect((await errorBody(response)).errorCode).to.equal("RATE_LIMITED");
    // Other routes and unknown routes share the budget.
    expect((await get("/chains")).status).to.equal(429);
    expect((await get("/no-such-route")).status).to.equal(429);
  });

  it("gives a valid API key its own, higher budget", async function () {
    for (let i = 0; i < ANONYMOUS; i++) await get("/health");
    expect((await get("/health")).status).to.equal(429);
    for (let i = 0; i < WITH_KEY; i++) expect((await get("/health", "good-key")).status, `keyed request ${i + 1}`).to.equal(200);
    const response = await get("/health", "good-key");
    expect(response.status).to.equal(429);
    expect(response.headers.get("retry-after")).to.match(/^\d+$/);
    expect((await errorBody(response)).errorCode).to.equal("RATE_LIMITED");
  });

  it("answers an unknown API key with 401 INVALID_API_KEY, counted against the anonymous budget", async function () {
    const response = await get("/health", "guessed-key");
    expect(response.status).to.equal(401);
    expect((await errorBody(response)).errorCode).to.equal("INVALID_API_KEY");
    for (let i = 1; i < ANONYMOUS; i++) await get("/health", "guessed-key");
    expect((await get("/health", "another-guess")).status).to.equal(429);
  });
});

/** Pure path builders: the GET /requests/v2 query string and check.endpoint → status path. */
import { expect } from "chai";
import { requestsQueryString, statusPathOf, statusRequestIdOf } from "../../ts/client/requestPaths.ts";

const ID = `0x${"ab".repeat(32)}`;

describe("requestsQueryString", () => {
  it("is empty without filters and skips undefined ones", () => {
    expect(requestsQueryString({})).to.equal("");
    expect(requestsQueryString({ user: undefined, limit: undefined })).to.equal("");
  });
  it("sends numbers and booleans as strings, encoded", () => {
    expect(requestsQueryString({ limit: 5, includeOrderData: true, continuation: "a+b/c=" })).to.equal("?limit=5&includeOrderData=true&continuation=a%2Bb%2Fc%3D");
  });
});

describe("statusPathOf / statusRequestIdOf", () => {
  it("accepts both relative status forms and always answers the v3 path", () => {
    for (const endpoint of [`/intents/status?requestId=${ID}`, `/intents/status/v3?requestId=${ID}`, `/intents/status/v3/?requestId=${ID}&referrer=x`]) {
      expect(statusRequestIdOf(endpoint), endpoint).to.equal(ID);
      expect(statusPathOf(endpoint), endpoint).to.equal(`/intents/status/v3?requestId=${ID}`);
    }
  });
  it("refuses absolute URLs, protocol-relative ones, other paths and a missing requestId", () => {
    for (const endpoint of [`http://x.example/intents/status?requestId=${ID}`, `//x.example/intents/status?requestId=${ID}`, `/requests/v2?requestId=${ID}`, "/intents/status", "/intents/status?requestId="]) {
      expect(() => statusRequestIdOf(endpoint), endpoint).to.throw(TypeError);
    }
  });
});

/** GET /metrics: Prometheus text with request counts and latency by route and status. */
import { expect } from "chai";
import { listen, type Listening } from "./testApp.ts";

describe("GET /metrics", function () {
  let server: Listening;
  before(async () => (server = await listen({})));
  after(() => server.close());

  it("counts requests by route pattern and status, and records their latency", async function () {
    await fetch(`${server.url}/health`);
    await fetch(`${server.url}/health`);
    await fetch(`${server.url}/health?bad=1`);
    await fetch(`${server.url}/no/such/route/${Math.random()}`);
    const response = await fetch(`${server.url}/metrics`);
    expect(response.status).to.equal(200);
    expect(response.headers.get("content-type")).to.match(/^text\/plain/);
    const text = await response.text();
    expect(text).to.contain('ferry_http_requests_total{method="GET",route="/health",status_code="200"} 2');
    expect(text).to.contain('ferry_http_requests_total{method="GET",route="/health",status_code="400"} 1');
    // Unmatched URLs share one label value: random paths cannot grow the series.
    expect(text).to.contain('ferry_http_requests_total{method="GET",route="(unmatched)",status_code="404"} 1');
    expect(text).to.match(/ferry_http_request_duration_seconds_bucket\{le="0\.005",method="GET",route="\/health",status_code="200"\} \d+/);
    expect(text).to.contain('ferry_http_request_duration_seconds_count{method="GET",route="/health",status_code="200"} 2');
  });
});

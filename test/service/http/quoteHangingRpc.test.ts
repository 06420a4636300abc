// POST /quote/v2 (and POST /transactions/index) when a chain's RPC hangs (accepts connections, never
// answers; a real proxy in front of nothing): the route answers 503 CHAIN_UNAVAILABLE within a bounded
// time (the quote with Retry-After) instead of holding the request for as long as the RPC client retries.
import { expect } from "chai";
import { zeroAddress } from "viem";
import { createStore, type Store } from "../../../ts/service/store/createStore.ts";
import { startChainProxy, type ChainProxy } from "../../faults/chainProxy.ts";
import { errorBody, fixtureConfig, listen, type Listening } from "./testApp.ts";

const SOLVER_KEY = "0x7c852118294e51e653712a81e05800f419141751be58f605c371e15141b007a6";

describe("POST /quote/v2 with a hanging RPC", function () {
  this.timeout(60_000);
  let store: Store;
  let server: Listening;
  let hanging: ChainProxy;

  before(async () => {
    hanging = await startChainProxy("http://127.0.0.1:1");
    await hanging.setMode({ kind: "hang" });
    store = await createStore();
    const config = fixtureConfig({}, { FERRY_SOLVER_KEY: SOLVER_KEY });
    const chains = config.chains.map((c) => ({ ...c, rpcUrl: hanging.url, rpcUrls: [hanging.url] }));
    server = await listen({ config: { ...config, chains }, deps: { store } });
  });
  after(async () => {
    await server?.close();
    await store?.close();
    await hanging?.close();
  });

  it("answers503ChainUnavailableWithRetryAfter_withinSixSeconds", async () => {
    const started = Date.now();
    const response = await fetch(`${server.url}/quote/v2`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({
        user: "0x15d34AAf54267DB7D7c367839AAf71A00a2C6A65",
        originChainId: 31337,
        destinationChainId: 31338,
        originCurrency: zeroAddress,
        destinationCurrency: zeroAddress,
        amount: "1000000000000000000",
        tradeType: "EXACT_INPUT",
      }),
    });
    const elapsed = Date.now() - started;
    console.log(`      503 after ${elapsed} ms`);
    expect(response.status).to.equal(503);
    expect((await errorBody(response)).errorCode).to.equal("CHAIN_UNAVAILABLE");
    expect(Number(response.headers.get("retry-after"))).to.be.greaterThan(0);
    expect(elapsed).to.be.below(6_000);
    expect(hanging.counts.get("eth_gasPrice") ?? 0).to.be.greaterThan(0);
  });

  it("transactionsIndex_answers503ChainUnavailable_withinSixSeconds", async () => {
    const started = Date.now();
    const response = await fetch(`${server.url}/transactions/index`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ chainId: 31337, txHash: `0x${"ab".repeat(32)}` }),
    });
    const elapsed = Date.now() - started;
    expect(response.status).to.equal(503);
    expect((await errorBody(response)).errorCode).to.equal("CHAIN_UNAVAILABLE");
    expect(elapsed).to.be.below(6_000);
  });
});

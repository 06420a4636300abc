/**
 * GET /requests/{requestId}/receipt's refusals over HTTP on both engines (ts/service/http/buildRequestReceipt.ts):
 * every request that is not filled and repaid is 409 RECEIPT_UNAVAILABLE — decided from the store, before
 * any chain is read (the fixture's chains have no node behind them). The receipt itself, read from real
 * chains, is test/e2e/filledRequest.test.ts's.
 */
import { expect } from "chai";
import type { Payout } from "../../../ts/service/model/payout.ts";
import type { CreditedDeposit } from "../../../ts/service/model/solverState.ts";
import { describeEachEngine } from "../store/engines.ts";
import { addr, hex, testNewRequest } from "../fixtures/testRequest.ts";
import { testOrder } from "../fixtures/testOrder.ts";
import { errorBody, fixtureConfig, listen, type Listening } from "./testApp.ts";

describeEachEngine("GET /requests/{id}/receipt: not final", (engine) => {
  let server: Listening;
  before(async () => {
    server = await listen({ config: fixtureConfig(), deps: { store: engine.store } });
  });
  after(async () => server?.close());

  const receiptOf = (id: string) => fetch(`${server.url}/requests/${id}/receipt`);
  const deposit: CreditedDeposit = {
    chainId: 31337,
    depository: addr(0xd0),
    txHash: hex(0x5000),
    logIndex: 0,
    block: 10,
    blockTimestamp: 1_700_000_000,
    depositor: addr(0xaa),
    token: addr(0),
    amount: 1n,
  };
  const repayment = (status: Payout["status"]): Payout => ({
    chainId: 31337,
    depository: addr(0xd0),
    nonce: 1n,
    expiration: 1_900_000_000,
    calls: [],
    requestHash: hex(0x7000),
    status,
    ...(status === "prepared" ? {} : { hash: hex(0x7001) }),
  });

  async function requestAt(n: number, path: ("pending" | "submitted" | "success" | "failure" | "refund")[], solver: Record<string, unknown> = {}) {
    const created = await engine.store.createRequest(testNewRequest(n));
    for (const status of path) {
      await engine.store.transitionRequest(created.id, status, status === "pending" ? { solver: { ...created.solver!, deposit, ...solver } } : {});
    }
    return created.id;
  }

  it("receipt_unknownOrMalformedId_404or400", async () => {
    const unknown = await receiptOf(hex(0xdead));
    expect(unknown.status).to.equal(404);
    expect((await errorBody(unknown)).errorCode).to.equal("REQUEST_NOT_FOUND");
    const malformed = await receiptOf("0x12");
    expect(malformed.status).to.equal(400);
  });

  it("receipt_notFilledAndRepaid_409ReceiptUnavailable", async () => {
    const cases: [string, string][] = [
      [await requestAt(0x31, []), "waiting"],
      [await requestAt(0x32, ["pending"]), "pending"],
      [await requestAt(0x33, ["pending", "submitted"]), "submitted"],
      [await requestAt(0x34, ["pending", "failure", "refund"]), "refund"],
      [await requestAt(0x35, ["pending", "submitted", "success"], { fill: { hash: hex(0x6000), status: "confirmed", block: 5 } }), "repayment"],
      [await requestAt(0x36, ["pending", "submitted", "success"], { fill: { hash: hex(0x6001), status: "confirmed", block: 5 }, repayment: repayment("sent") }), "repayment"],
      // Filled and repaid, but quoted nowhere (no order to put in the receipt).
      [await requestAt(0x37, ["pending", "submitted", "success"], { fill: { hash: hex(0x6002), status: "confirmed", block: 5 }, repayment: repayment("confirmed") }), "quoted order"],
    ];
    for (const [id, why] of cases) {
      const response = await receiptOf(id);
      const body = await errorBody(response);
      expect(response.status, `${why}: ${body.message}`).to.equal(409);
      expect(body.errorCode).to.equal("RECEIPT_UNAVAILABLE");
      expect(body.message, why).to.contain(why);
    }
  });

  it("receipt_chainDoesNotAnswer_503ChainUnavailable_notAnInternalError", async () => {
    // Filled, repaid and quoted: the receipt is read from the chains, whose RPC (the fixture's) does not answer.
    const id = await requestAt(0x38, ["pending", "submitted", "success"], { fill: { hash: hex(0x6003), status: "confirmed", block: 5 }, repayment: repayment("confirmed") });
    const intent = (await engine.store.getRequest(id))!.solver!.intent;
    await engine.store.saveQuote({ requestId: id, orderId: intent.orderId, orderData: testOrder(intent), quote: {}, intent, expiresAt: new Date(Date.now() + 60_000) });
    const response = await receiptOf(id);
    const body = await errorBody(response);
    expect(response.status, body.message).to.equal(503);
    expect(body.errorCode).to.equal("CHAIN_UNAVAILABLE");
  });
});

/**
 * waitForRequest's polling rules with an injected status source (a FerryClient's getStatus):
 * transient answers are polled again, Retry-After is honoured, `until` waits past failure.
 */
import { expect } from "chai";
import type { StatusRecord } from "../../ts/client/apiTypes.ts";
import { ExecuteQuoteError, FerryApiError, RequestFailedError } from "../../ts/client/clientErrors.ts";
import { waitForRequest } from "../../ts/client/waitForRequest.ts";

const ID = `0x${"ab".repeat(32)}`;
const record = (status: string, failReason = "N/A"): StatusRecord => ({
  status,
  inTxHashes: [],
  txHashes: [],
  updatedAt: 0,
  originChainId: 1,
  destinationChainId: 2,
  details: null,
  failReason,
  refundFailReason: "N/A",
  depositAddress: null,
});
const apiError = (status: number, errorCode: string, retryAfter?: number) =>
  new FerryApiError({ status, errorCode, message: errorCode, method: "GET", path: "/intents/status/v3", ...(retryAfter !== undefined && { retryAfter }) });

/** A status source answering the scripted results in turn (the last one repeats). */
function scripted(...answers: (StatusRecord | Error)[]) {
  let calls = 0;
  return {
    get calls() {
      return calls;
    },
    getStatus: async () => {
      const answer = answers[Math.min(calls++, answers.length - 1)]!;
      if (answer instanceof Error) throw answer;
      return answer;
    },
  };
}

describe("waitForRequest", () => {
  it("polls through 404, 5xx and network errors to success, reporting each new status once", async () => {
    const source = scripted(apiError(404, "REQUEST_NOT_FOUND"), record("waiting"), record("waiting"), apiError(503, "NOT_READY"), new TypeError("fetch failed"), record("pending"), record("success"));
    const seen: string[] = [];
    const status = await waitForRequest({ client: source, requestId: ID, pollIntervalMs: 1, onStatus: (s) => seen.push(s.status) });
    expect(status.status).to.equal("success");
    expect(seen).to.deep.equal(["waiting", "pending", "success"]);
    expect(source.calls).to.equal(7);
  });

  it("rejects with RequestFailedError on failure, and waits past it with `until`", async () => {
    let error: unknown;
    try {
      await waitForRequest({ client: scripted(record("failure", "ORDER_EXPIRED")), requestId: ID, pollIntervalMs: 1 });
    } catch (e) {
      error = e;
    }
    expect(error).to.be.instanceOf(RequestFailedError);
    expect((error as RequestFailedError).failReason).to.equal("ORDER_EXPIRED");

    const refund = await waitForRequest({
      client: scripted(record("failure", "ORDER_EXPIRED"), record("refund", "ORDER_EXPIRED")),
      requestId: ID,
      pollIntervalMs: 1,
      until: (s) => s.status === "refund",
    });
    expect(refund.status).to.equal("refund");
  });

  it("honours Retry-After on 429 and rethrows other client errors", async () => {
    const started = Date.now();
    const status = await waitForRequest({ client: scripted(apiError(429, "RATE_LIMITED", 1), record("success")), requestId: ID, pollIntervalMs: 1 });
    expect(status.status).to.equal("success");
    expect(Date.now() - started).to.be.at.least(900);

    let error: unknown;
    try {
      await waitForRequest({ client: scripted(apiError(400, "INVALID_REQUEST")), requestId: ID, pollIntervalMs: 1 });
    } catch (e) {
      error = e;
    }
    expect(error).to.be.instanceOf(FerryApiError);
    expect((error as FerryApiError).errorCode).to.equal("INVALID_REQUEST");
  });

  it("times out with TIMEOUT carrying the last status", async () => {
    let error: unknown;
    try {
      await waitForRequest({ client: scripted(record("pending")), requestId: ID, pollIntervalMs: 10, timeoutMs: 100 });
    } catch (e) {
      error = e;
    }
    expect(error).to.be.instanceOf(ExecuteQuoteError);
    expect((error as ExecuteQuoteError).code).to.equal("TIMEOUT");
    expect((error as ExecuteQuoteError).lastStatus?.status).to.equal("pending");
  });
});

/**
 * The error registry decides, per code, the HTTP status every error is answered with and whether the
 * step that raised it is retried: here for every registered code through the HTTP error mapping, and
 * for the solver's retry-or-park decision.
 */
import { expect } from "chai";
import { InvalidInputError } from "../../../ts/core/errors.ts";
import { ERROR_REGISTRY, errorPolicy, type ErrorCode } from "../../../ts/service/errors/errorRegistry.ts";
import { isRetryable, ServiceError } from "../../../ts/service/errors/serviceError.ts";
import { errorResponse } from "../../../ts/service/http/errorHandler.ts";

describe("error registry", () => {
  it("errorResponse_answersEveryRegisteredCodeWithItsRegisteredStatus_andHidesOnly500Messages", () => {
    for (const code of Object.keys(ERROR_REGISTRY) as ErrorCode[]) {
      const { status } = ERROR_REGISTRY[code];
      const { statusCode, body } = errorResponse(new ServiceError(code, `secret detail of ${code}`));
      expect(statusCode, code).to.equal(status);
      if (status === 500) expect(body, code).to.deep.equal({ message: "Internal error", errorCode: "INTERNAL_ERROR" });
      else expect(body, code).to.deep.equal({ message: `secret detail of ${code}`, errorCode: code });
    }
  });

  it("errorResponse_mapsTheCoresErrorsByCode_notByWhoThrewThem", () => {
    expect(errorResponse(new InvalidInputError("amount: not a number"))).to.deep.equal({
      statusCode: 400,
      body: { message: "amount: not a number", errorCode: "INVALID_INPUT" },
    });
    // Anything unregistered is an internal error, with nothing of its message shown.
    expect(errorResponse(new RangeError("internal state"))).to.deep.equal({ statusCode: 500, body: { message: "Internal error", errorCode: "INTERNAL_ERROR" } });
  });

  it("isRetryable_followsTheRegistry_andTreatsForeignErrorsAsTransient", () => {
    expect(isRetryable(new ServiceError("CHAIN_UNAVAILABLE", "rpc down"))).to.equal(true);
    expect(isRetryable(new ServiceError("FILL_LOG_NOT_FOUND", "not yet"))).to.equal(true);
    expect(isRetryable(new ServiceError("STORED_VALUE_INVALID", "corrupted"))).to.equal(false);
    expect(isRetryable(new ServiceError("FILLED_REQUEST_NOT_REFUNDABLE", "filled"))).to.equal(false);
    expect(isRetryable(new InvalidInputError("bad"))).to.equal(false);
    expect(isRetryable(new Error("socket hang up"))).to.equal(true);
    expect(errorPolicy("NOT_A_CODE")).to.equal(undefined);
  });

  it("registry_every4xxIsNeverRetried_andEveryRetryableIsAServerSideCondition", () => {
    for (const [code, policy] of Object.entries(ERROR_REGISTRY)) {
      if (policy.status < 500) expect(policy.retryable, code).to.equal(false);
    }
  });
});

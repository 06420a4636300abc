// The parallel run's hook that makes a failed test's error sendable (test/serializableFailures.ts):
// an AssertionError over amounts and a viem-like error with a BigInt deep in its cause.
import { expect } from "chai";
import { AssertionError } from "chai";
import { bigintsAsText } from "./serializableFailures.ts";

describe("test infrastructure: a failed test's error with BigInts can be sent from a worker", () => {
  it("bigintsAsText_rewritesEveryBigIntAsText_keepsTheRest_andSurvivesCycles", () => {
    const assertion = new AssertionError("expected 5n to equal 7n", { actual: 5n, expected: 7n, showDiff: true });
    const cause = { request: { value: 10n ** 18n, to: "0xab" }, self: undefined as unknown };
    cause.self = cause;
    const error = Object.assign(new Error("send failed", { cause }), { details: "nonce too low" });
    expect(() => JSON.stringify({ ...assertion })).to.throw(/BigInt/);
    expect(() => JSON.stringify(cause.request)).to.throw(/BigInt/);
    bigintsAsText(assertion);
    bigintsAsText(error);
    expect(JSON.parse(JSON.stringify({ ...assertion }))).to.include({ actual: "5n", expected: "7n" });
    expect(cause.request).to.deep.equal({ value: "1000000000000000000n", to: "0xab" });
    expect(error.message).to.equal("send failed");
    expect(error.details).to.equal("nonce too low");
  });
});

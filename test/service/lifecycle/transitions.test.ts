import { expect } from "chai";
import { readFileSync } from "node:fs";
import { isFerryError } from "../../../ts/core/errors.ts";
import {
  INITIAL_STATUSES,
  InvalidTransitionError,
  TERMINAL_STATUSES,
  TRANSITIONS,
  assertTransition,
  canTransition,
  isTerminal,
  nextStatuses,
  renderTransitionTable,
} from "../../../ts/service/lifecycle/transitions.ts";
import { REQUEST_STATUSES, isRequestStatus, type RequestStatus } from "../../../ts/service/model/requestStatus.ts";

const allowed: [RequestStatus, RequestStatus][] = [
  ["waiting", "pending"],
  ["waiting", "failure"],
  ["depositing", "pending"],
  ["depositing", "success"],
  ["depositing", "failure"],
  ["pending", "submitted"],
  ["pending", "failure"],
  ["submitted", "success"],
  ["submitted", "failure"],
  ["failure", "refund"],
];

describe("lifecycle transitions", () => {
  it("the table is exactly the documented set of transitions", () => {
    expect(TRANSITIONS.map((t) => [t.from, t.to])).to.deep.equal(allowed);
  });

  for (const [from, to] of allowed) {
    it(`canTransition_allows_${from}_to_${to}`, () => {
      expect(canTransition(from, to)).to.equal(true);
      expect(() => assertTransition(from, to)).not.to.throw();
    });
  }

  for (const from of REQUEST_STATUSES) {
    for (const to of REQUEST_STATUSES) {
      if (allowed.some(([f, t]) => f === from && t === to)) continue;
      it(`assertTransition_throwsInvalidTransition_${from}_to_${to}`, () => {
        expect(canTransition(from, to)).to.equal(false);
        try {
          assertTransition(from, to);
          expect.fail("expected InvalidTransitionError");
        } catch (error) {
          expect(error).to.be.instanceOf(InvalidTransitionError);
          expect(isFerryError(error, "INVALID_TRANSITION")).to.equal(true);
          const e = error as InvalidTransitionError;
          expect([e.from, e.to, e.retryable]).to.deep.equal([from, to, false]);
        }
      });
    }
  }

  it("terminal statuses have no way out and every other status has one", () => {
    expect(TERMINAL_STATUSES).to.deep.equal(["success", "refund"]);
    for (const s of REQUEST_STATUSES) expect(nextStatuses(s).length === 0).to.equal(isTerminal(s), s);
  });

  it("every status is reachable from an initial status", () => {
    const seen = new Set<RequestStatus>(INITIAL_STATUSES);
    for (let changed = true; changed; ) {
      changed = false;
      for (const t of TRANSITIONS) if (seen.has(t.from) && !seen.has(t.to)) (seen.add(t.to), (changed = true));
    }
    expect([...seen].sort()).to.deep.equal([...REQUEST_STATUSES].sort());
  });

  it("isRequestStatus_rejectsFallbackAndUnknown", () => {
    expect(isRequestStatus("pending")).to.equal(true);
    expect(isRequestStatus("fallback")).to.equal(false);
    expect(isRequestStatus(1)).to.equal(false);
  });

  it("the README table equals the rendered table", () => {
    const readme = readFileSync(new URL("../../../ts/service/lifecycle/README.md", import.meta.url), "utf8");
    const match = /<!-- transitions:start -->\n([\s\S]*?)\n<!-- transitions:end -->/.exec(readme);
    expect(match, "README markers").to.not.equal(null);
    expect(match![1]).to.equal(renderTransitionTable());
  });
});

// The one definition of how an execute hold and its relayed transaction name each other: attempts'
// references, the subject, and reading the requestId back from a retried attempt's subject.
import { expect } from "chai";
import { isFerryError } from "../../../ts/core/errors.ts";
import {
  executeHoldReference,
  executeHoldReferences,
  executeHoldSubject,
  MAX_EXECUTE_ATTEMPTS,
  parseExecuteHoldSubject,
} from "../../../ts/service/balances/executeHoldSubject.ts";
import { canonicalHex } from "../../../ts/service/model/values.ts";

const REQUEST = canonicalHex(`0x${"5e".repeat(32)}`);

describe("execute hold subject", () => {
  it("executeHoldReference_attemptZeroIsTheRequestId_laterAttemptsAreSuffixed", () => {
    expect(executeHoldReference(REQUEST, 0)).to.equal(REQUEST);
    expect(executeHoldReference(REQUEST, 3)).to.equal(`${REQUEST}#3`);
    expect(executeHoldReferences(REQUEST)).to.have.length(MAX_EXECUTE_ATTEMPTS);
    expect(executeHoldReferences(REQUEST)[0]).to.equal(REQUEST);
  });

  it("parseExecuteHoldSubject_readsTheRequestIdBack_forTheFirstAndARetriedAttempt", () => {
    expect(parseExecuteHoldSubject(executeHoldSubject({ reference: REQUEST, holdId: "hold_ab" }))).to.deep.equal({ requestId: REQUEST, attempt: 0, holdId: "hold_ab" });
    expect(parseExecuteHoldSubject(executeHoldSubject({ reference: executeHoldReference(REQUEST, 2), holdId: "hold_cd" }))).to.deep.equal({ requestId: REQUEST, attempt: 2, holdId: "hold_cd" });
  });

  it("parseExecuteHoldSubject_somethingElse_isNull_orACorruptRequestIdThrows", () => {
    expect(parseExecuteHoldSubject(REQUEST)).to.equal(null);
    expect(parseExecuteHoldSubject(`${REQUEST}#0:hold_ab`)).to.equal(null);
    expect(parseExecuteHoldSubject(`${REQUEST}#${MAX_EXECUTE_ATTEMPTS}:hold_ab`)).to.equal(null);
    let code = "";
    try {
      parseExecuteHoldSubject("0x12:hold_ab");
    } catch (error) {
      code = isFerryError(error) ? error.code : String(error);
    }
    expect(code).to.equal("STORED_VALUE_INVALID");
  });
});

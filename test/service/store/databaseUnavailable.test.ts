// Which driver errors mean "the database is unavailable" (503 DATABASE_UNAVAILABLE, retried) and
// which stay the statement's own error.
import { expect } from "chai";
import { isFerryError } from "../../../ts/core/errors.ts";
import { asDatabaseError, DatabaseUnavailableError, isDatabaseUnavailable } from "../../../ts/service/store/databaseUnavailable.ts";

const withCode = (code: string, message = "x") => Object.assign(new Error(message), { code });

describe("databaseUnavailable", () => {
  it("isDatabaseUnavailable_serverShutdownsConnectionFailuresAndTimeouts_areUnavailable", () => {
    for (const error of [
      withCode("57P01", "terminating connection due to administrator command"),
      withCode("57P03", "the database system is starting up"),
      withCode("08006"),
      withCode("08001"),
      withCode("57014", "canceling statement due to statement timeout"),
      withCode("53300"),
      withCode("ECONNREFUSED"),
      withCode("ECONNRESET"),
      new Error("Connection terminated unexpectedly"),
      new Error("timeout exceeded when trying to connect"),
      new Error("Client has encountered a connection error and is not queryable"),
      Object.assign(new AggregateError([withCode("ECONNREFUSED"), withCode("ECONNREFUSED")]), {}),
    ]) {
      expect(isDatabaseUnavailable(error), String(error)).to.equal(true);
    }
  });

  it("isDatabaseUnavailable_statementErrors_areNot", () => {
    for (const error of [withCode("23505", "duplicate key"), withCode("42P01", "relation does not exist"), withCode("40001"), withCode("INVALID_TRANSITION"), new Error("boom"), null, "text"]) {
      expect(isDatabaseUnavailable(error), String(error)).to.equal(false);
    }
  });

  it("asDatabaseError_wrapsOnlyUnavailability_withTheCauseKept", () => {
    const refused = withCode("ECONNREFUSED");
    const wrapped = asDatabaseError(refused);
    expect(isFerryError(wrapped, "DATABASE_UNAVAILABLE")).to.equal(true);
    expect((wrapped as Error).cause).to.equal(refused);
    expect(asDatabaseError(wrapped)).to.equal(wrapped);
    const duplicate = withCode("23505");
    expect(asDatabaseError(duplicate)).to.equal(duplicate);
    expect(new DatabaseUnavailableError(refused).statusCode).to.equal(503);
  });
});

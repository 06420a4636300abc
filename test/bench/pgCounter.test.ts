/**
 * bench:intent-cost's statement kinds (scripts/bench/pgCounter.ts `statementKind`): a statement is named
 * by its own verb and table, not by a subquery's — the solver step's read (the request with the halted
 * chains beside it) was counted as `SELECT indexer_checkpoints`, the status cache's refresh as
 * `SELECT updated_at`, the reservations' advisory lock as a bare `SELECT`.
 */
import { expect } from "chai";
import { statementKind } from "../../scripts/bench/pgCounter.ts";
import { HALTED_CHAINS_SQL } from "../../ts/service/store/solver/checkpoints.ts";

describe("bench: store statements named by kind", () => {
  it("namesAStatementByItsOwnTable_notASubquerysOrAFunctionArgument", () => {
    expect(statementKind(`SELECT id, status, ARRAY(${HALTED_CHAINS_SQL}) AS halted_chains FROM requests WHERE id = $1`)).to.equal("SELECT requests");
    expect(statementKind("SELECT id, (extract(epoch FROM updated_at) * 1000)::float8 AS updated_ms FROM requests WHERE updated_at >= $1::timestamptz")).to.equal("SELECT requests");
    expect(statementKind("SELECT pg_advisory_xact_lock(hashtextextended('ferry.solver_reservations.' || $1::text, 0))")).to.equal("SELECT pg_advisory_xact_lock()");
    expect(statementKind(HALTED_CHAINS_SQL)).to.equal("SELECT indexer_checkpoints");
    expect(statementKind("INSERT INTO solver_claims (request_id, owner) VALUES ($1, $2) ON CONFLICT (request_id) DO UPDATE SET owner = EXCLUDED.owner")).to.equal("INSERT solver_claims");
    expect(statementKind("WITH moved AS (UPDATE requests SET status = $2 WHERE id = $1 RETURNING id) INSERT INTO request_events SELECT id FROM moved")).to.equal("INSERT request_events");
    expect(statementKind("UPDATE requests SET tx_hashes = ARRAY(SELECT h FROM unnest(tx_hashes) AS t(h)) WHERE id = $1")).to.equal("UPDATE requests");
    expect(statementKind("BEGIN")).to.equal("BEGIN");
    expect(statementKind("SELECT 1")).to.equal("SELECT");
  });
});

/**
 * The solver's repository: its work list and the per-request lease that keeps concurrent solver loops
 * apart. Writes to a request go through ../requests.ts (`transitionRequest` for status changes with
 * their outbox event, `patchRequest` for bookkeeping).
 */
import type { RequestStatus } from "../../model/requestStatus.ts";
import { decodeStored } from "../../model/storedValue.ts";
import { Bytes32 } from "../../model/values.ts";
import type { StoredRequest } from "../../model/storedRequest.ts";
import { type Row, type StoreContext } from "../engine.ts";
import { claimLeaseRow, releaseLeaseRow, takeOver } from "../leaseRows.ts";
import { requestColumns, requestFromRow } from "../requests.ts";
import { HALTED_CHAINS_SQL } from "./checkpoints.ts";

/**
 * A work-list entry: which request, in which status, and the chain its next step acts on (the
 * destination for a fill, the origin for a payout) — the solver's per-chain limit. The step re-reads
 * (and decodes) the request under its lease.
 */
export type SolverWorkItem = { id: Bytes32; status: RequestStatus; chainId: number };

/** What a solver step reads first: the request and the chains halted after a deep reorg (../requests.ts `getStepRequest`). */
export type StepRead = { request: StoredRequest; halted: number[] };

/**
 * A listed request whose lease the listing took, with what its step reads first as the listing read it
 * (`read()` decodes it then: a corrupted row throws in its own step, which parks it, and never in the
 * listing).
 */
export type ClaimedWorkItem = SolverWorkItem & { read(): StepRead };

/**
 * Requests the solver still has to act on, least recently updated first: `pending` (fill),
 * `submitted` (confirm), `failure` without a recorded refund failure (refund) and `success` whose
 * repayment is not yet confirmed (`solver_state.repayment.status` ≠ `confirmed`). `waiting`/`depositing`
 * are the indexer's, `refund` is terminal. Failures whose refund reverted (`solver_state.refund.status`
 * = `reverted`) need an operator and are left out, as are fast fills whose hold was settled with no deposit
 * (nothing to repay from: ../solver/payout/fastFillHold.ts), requests without solver state (executions
 * relayed without a quote: ../relay/README.md), parked requests and requests under a live
 * lease (being stepped by this or another loop: listing them again would only make the loops race for
 * them) — but for `owner`'s own leases: a loop keeps a request's lease while the request waits for a
 * block (../../solver/startSolver.ts), and steps it again itself. Only ids, statuses and chains are
 * read: one corrupted row parks that request when its step decodes it, and never blocks the list.
 * `exclude`: ids to leave out as well.
 */
export async function listSolverWork({ db, now }: StoreContext, limit = 50, exclude: readonly string[] = [], owner?: string): Promise<SolverWorkItem[]> {
  const { rows } = await db.query<WorkRow>(
    `SELECT r.id, r.status, r.origin_chain_id, r.destination_chain_id FROM requests r WHERE ${SOLVER_WORK} ORDER BY r.updated_at, r.id LIMIT $1`,
    [limit, now().toISOString(), [...exclude], owner ?? null],
  );
  return rows.map(workItemOf);
}

/**
 * `listSolverWork` for `owner`, taking (or renewing) the lease on every request it returns until
 * `now + ttlMs`, in the same statement: what it returns is `owner`'s to step, and nobody else's. Two loops
 * (two replicas) listing at the same moment get different requests: a request another listing is taking
 * right now is skipped (its row is locked: SKIP LOCKED), and a lease written meanwhile is not taken over
 * (the upsert's WHERE is re-checked on the committed row; a request that lost it is not returned). Before,
 * both read the same list and then raced for each lease one by one (issue 26).
 *
 * Lapsed leases (a step that left its request done keeps its lease: `isSolverWork`) are deleted by the
 * same statement — but for the requests it takes over, whose rows the upsert writes.
 *
 * Each item carries what its step reads first, as this statement read it under the row lock (`read()`):
 * a step that starts while the listing's lease is fresh need not read it again (one statement per step).
 */
export async function claimSolverWork({ db, now }: StoreContext, limit: number, exclude: readonly string[], owner: string, ttlMs: number): Promise<ClaimedWorkItem[]> {
  const at = now();
  const { rows } = await db.query<WorkRow & Row & { halted_chains: (number | string)[] | null }>(
    `WITH listed AS (
       SELECT r.id, r.updated_at FROM requests r WHERE ${SOLVER_WORK}
       ORDER BY r.updated_at, r.id LIMIT $1 FOR NO KEY UPDATE OF r SKIP LOCKED
     ), claimed AS (
       INSERT INTO solver_claims (request_id, owner, expires_at) SELECT id, $4::text, $5::timestamptz FROM listed
       ${takeOver(SOLVER_CLAIMS, "$2")}
       RETURNING request_id
     ), lapsed AS (
       DELETE FROM solver_claims WHERE expires_at < $2::timestamptz AND request_id NOT IN (SELECT id FROM listed)
     )
     SELECT ${requestColumns("r.")},
       ARRAY(${HALTED_CHAINS_SQL}) AS halted_chains
     FROM listed l JOIN claimed c ON c.request_id = l.id JOIN requests r ON r.id = l.id
     ORDER BY l.updated_at, l.id`,
    [limit, at.toISOString(), [...exclude], owner, new Date(at.getTime() + ttlMs).toISOString()],
  );
  return rows.map(({ halted_chains, ...row }) => {
    const halted = (halted_chains ?? []).map(Number);
    return { ...workItemOf(row as WorkRow), read: () => ({ request: requestFromRow(row), halted }) };
  });
}

type WorkRow = { id: string; status: RequestStatus; origin_chain_id: number; destination_chain_id: number };

/**
 * What the solver still has to act on (see `listSolverWork`), over `requests r`: the request's own state
 * (`SOLVER_WORK_STATE`, which `isSolverWork` says in TypeScript), then the leases and the ids left out.
 * Parameters: $2 now, $3 ids left out, $4 the owner whose own leases do not hide a request.
 */
const SOLVER_WORK_STATE = `r.parked IS NULL AND r.solver_state IS NOT NULL AND (r.status IN ('pending', 'submitted')
        OR (r.status = 'failure' AND r.refund_fail_reason IS NULL AND coalesce(r.solver_state->'refund'->>'status', '') <> 'reverted')
        OR (r.status = 'success' AND coalesce(r.solver_state->'repayment'->>'status', '') NOT IN ('confirmed', 'reverted')
            AND NOT (r.solver_state->'deposit' IS NULL AND coalesce(r.solver_state->'fastFill'->>'hold', '') = 'settled')))`;
const SOLVER_WORK = `${SOLVER_WORK_STATE}
       AND NOT EXISTS (SELECT 1 FROM solver_claims c WHERE c.request_id = r.id AND c.expires_at >= $2::timestamptz AND c.owner IS DISTINCT FROM $4::text)
       AND r.id <> ALL($3::text[])`;

/**
 * Whether the solver still has work on `request` (`SOLVER_WORK_STATE` in TypeScript; the store's tests
 * hold the two together): a step that leaves its request outside gives no lease back — nothing lists
 * the request, and its lease lapses (`claimSolverWork` deletes lapsed leases).
 */
export function isSolverWork(request: StoredRequest): boolean {
  const state = request.solver;
  if (request.parked || !state) return false;
  switch (request.status) {
    case "pending":
    case "submitted":
      return true;
    case "failure":
      return request.refundFailReason === null && state.refund?.status !== "reverted";
    case "success":
      return state.repayment?.status !== "confirmed" && state.repayment?.status !== "reverted" && !(state.deposit === undefined && state.fastFill?.hold === "settled");
    default:
      return false;
  }
}

function workItemOf(row: WorkRow): SolverWorkItem {
  return {
    id: decodeStored(Bytes32, row.id, "requests.id", String(row.id)),
    status: row.status,
    chainId: row.status === "pending" || row.status === "submitted" ? Number(row.destination_chain_id) : Number(row.origin_chain_id),
  };
}

/**
 * Takes (or renews) the lease on `requestId` for `owner` until `now + ttlMs`. Returns false while
 * another owner's lease is still running (../leaseRows.ts).
 */
export function claimRequest(ctx: StoreContext, requestId: string, owner: string, ttlMs: number): Promise<boolean> {
  return claimLeaseRow(ctx, SOLVER_CLAIMS, requestId, owner, ttlMs);
}

/** Gives the lease back (only `owner`'s own). */
export function releaseRequest(ctx: StoreContext, requestId: string, owner: string): Promise<void> {
  return releaseLeaseRow(ctx, SOLVER_CLAIMS, requestId, owner);
}

const SOLVER_CLAIMS = { table: "solver_claims", key: "request_id" } as const;

/** Requests per status the solver still works on, database-wide (metrics: fills in flight = `submitted`). */
export async function countSolverWork({ db }: StoreContext): Promise<Record<"pending" | "submitted" | "failure" | "success", number>> {
  const { rows } = await db.query<{ status: string; n: number }>(
    `SELECT r.status, count(*)::int AS n FROM requests r WHERE ${SOLVER_WORK_STATE} GROUP BY r.status`,
  );
  const counts = { pending: 0, submitted: 0, failure: 0, success: 0 };
  for (const row of rows) counts[row.status as keyof typeof counts] = Number(row.n);
  return counts;
}

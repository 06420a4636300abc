/**
 * Parked requests for the operator (the admin API, `ferry requests parked|unpark`): the solver parks a
 * request on a non-retryable error (`requests.parked`, ../requests.ts `parkRequest`) and leaves it alone
 * until an operator clears the column, which puts it back on the solver's work list at its next tick.
 * Works on a store's engine like ../apiKeys.ts; each row is decoded once here.
 */
import { Type } from "typebox";
import { Parked } from "../../model/solverState.ts";
import { RequestStatus } from "../../model/requestStatus.ts";
import { decodeStored } from "../../model/storedValue.ts";
import { Bytes32, ChainId } from "../../model/values.ts";
import { isoColumn, type Queryable } from "../engine.ts";

export type ParkedRequest = {
  id: string;
  status: RequestStatus;
  originChainId: number;
  destinationChainId: number;
  parked: Parked;
  updatedAt: string;
};

const ParkedRow = Type.Object({
  id: Bytes32,
  status: RequestStatus,
  origin_chain_id: ChainId,
  destination_chain_id: ChainId,
  parked: Parked,
  updated_at: Type.String(),
});

const COLUMNS = `id, status, origin_chain_id, destination_chain_id, parked, ${isoColumn("updated_at")}`;

export type ParkedRequestStore = {
  /** Parked requests, the most recently parked first; at most `limit` (default 100, at most 1000). */
  listParkedRequests(limit?: number): Promise<ParkedRequest[]>;
  /** Clears `parked`; returns the request as it was parked, or undefined when it was not parked (or is unknown). */
  unparkRequest(id: Bytes32): Promise<ParkedRequest | undefined>;
};

export function parkedRequestStore(store: { engine: Queryable }): ParkedRequestStore {
  const db = store.engine;
  const decode = (row: Record<string, unknown>): ParkedRequest => {
    const r = decodeStored(ParkedRow, row, "requests", String(row.id));
    return { id: r.id, status: r.status, originChainId: r.origin_chain_id, destinationChainId: r.destination_chain_id, parked: r.parked, updatedAt: r.updated_at };
  };
  return {
    async listParkedRequests(limit = 100) {
      const bounded = Math.max(1, Math.min(1000, Math.trunc(limit)));
      const { rows } = await db.query(
        `SELECT ${COLUMNS} FROM requests WHERE parked IS NOT NULL ORDER BY parked->>'at' DESC, id LIMIT ${bounded}`,
      );
      return rows.map(decode);
    },
    async unparkRequest(id) {
      // The old value comes back from the same statement: a concurrent unpark sees nothing to clear.
      const { rows } = await db.query(
        `UPDATE requests r SET parked = NULL FROM (SELECT id, parked AS was FROM requests WHERE id = $1 AND parked IS NOT NULL FOR UPDATE) old
          WHERE r.id = old.id
          RETURNING r.id, r.status, r.origin_chain_id, r.destination_chain_id, old.was AS parked, ${isoColumn("r.updated_at", "updated_at")}`,
        [id],
      );
      return rows[0] ? decode(rows[0]) : undefined;
    },
  };
}

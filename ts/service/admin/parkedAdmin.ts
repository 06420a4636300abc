/**
 * The operator's parked-request operations: list them, and unpark one once its cause is fixed (the
 * solver picks it up at its next tick). Unparking an unknown request is REQUEST_NOT_FOUND, one that is
 * not parked REQUEST_NOT_PARKED. A request parked DEEP_REORG_DEPOSIT_GONE (its deposit vanished in a
 * deep reorg: ../solver/indexer/recoverDeepReorg.ts) is never unparked (REQUEST_DEPOSIT_GONE): stepping it would
 * fill or pay out for money that is not there.
 */
import { ServiceError } from "../errors/serviceError.ts";
import type { Queryable } from "../store/engine.ts";
import { RequestNotFoundError } from "../store/errors.ts";
import { parkedRequestStore, type ParkedRequest } from "../store/solver/parkedRequests.ts";
import { DEPOSIT_GONE_PARK_CODE } from "../store/solver/reorgAffected.ts";
import type { Bytes32 } from "../model/values.ts";

export type ParkedAdmin = {
  listParkedRequests(limit?: number): Promise<ParkedRequest[]>;
  /** `requestId` canonical (the route's schema, the CLI). */
  unparkRequest(requestId: Bytes32): Promise<ParkedRequest>;
};

export function parkedAdmin(store: { engine: Queryable }): ParkedAdmin {
  const parked = parkedRequestStore(store);
  return {
    listParkedRequests: (limit) => parked.listParkedRequests(limit),
    async unparkRequest(id) {
      const { rows: gone } = await store.engine.query("SELECT 1 FROM requests WHERE id = $1 AND parked->>'code' = $2", [id, DEPOSIT_GONE_PARK_CODE]);
      if (gone.length > 0) {
        throw new ServiceError("REQUEST_DEPOSIT_GONE", `request ${id} was credited for a deposit a deep reorg removed (${DEPOSIT_GONE_PARK_CODE}): it stays parked`);
      }
      const cleared = await parked.unparkRequest(id);
      if (cleared) return cleared;
      const { rows } = await store.engine.query("SELECT 1 FROM requests WHERE id = $1", [id]);
      if (rows.length === 0) throw new RequestNotFoundError(id);
      throw new ServiceError("REQUEST_NOT_PARKED", `request ${id} is not parked`);
    },
  };
}

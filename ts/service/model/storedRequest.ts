/**
 * A request as the service works with it, decoded once from its row (../store/requests.ts): the public
 * columns, the public `data` (./requestData.ts), the status-record `details`, and the solver's private
 * state (./solverState.ts) with its parking note. Ids and addresses are canonical (lowercase);
 * timestamps ISO 8601 UTC with milliseconds.
 */
import type { Address, Bytes32 } from "./values.ts";
import type { RequestData } from "./requestData.ts";
import type { RequestStatus } from "./requestStatus.ts";
import type { Details, Parked, SolverState, SolverStatePatch } from "./solverState.ts";
import { StoredValueInvalidError } from "./storedValue.ts";

export type StoredRequest = {
  id: Bytes32;
  orderId: Bytes32;
  status: RequestStatus;
  user: Address;
  recipient: Address;
  originChainId: number;
  destinationChainId: number;
  inTxHashes: Bytes32[];
  txHashes: Bytes32[];
  failReason: string | null;
  refundFailReason: string | null;
  data: RequestData;
  details: Details | null;
  /** Null only for rows written before the solver state had its column and without a quote. */
  solver: SolverState | null;
  parked: Parked | null;
  referrer: string | null;
  apiKeyId: string | null;
  originBlock: number | null;
  createdAt: string;
  updatedAt: string;
};

export type NewRequest = {
  id: Bytes32;
  orderId: Bytes32;
  /** `waiting` (default) or `depositing` (gasless). */
  status?: RequestStatus;
  user: Address;
  recipient: Address;
  originChainId: number;
  destinationChainId: number;
  inTxHashes?: Bytes32[];
  data?: RequestData;
  /** Null for an execution relayed without a quote (../relay/relayExecution.ts): no intent, nothing for the solver. */
  solver: SolverState | null;
  referrer?: string | null;
  apiKeyId?: string | null;
  originBlock?: number | null;
};

/**
 * What a status change (or a solver write) may also record. Hashes are appended (deduplicated);
 * `data` and `solver` are merged field by field; `details` replaces the previous value.
 */
export type RequestPatch = {
  inTxHashes?: Bytes32[];
  txHashes?: Bytes32[];
  /** A destination hash to take out of `txHashes` (a fill the chain never saw, replaced by a resend). */
  dropTxHash?: Bytes32;
  failReason?: string;
  refundFailReason?: string;
  originBlock?: number;
  data?: RequestData;
  details?: Details | null;
  solver?: SolverStatePatch;
};

/** The request's solver state; a request without one cannot be worked on (STORED_VALUE_INVALID). */
export function requireSolverState(request: StoredRequest): SolverState {
  if (!request.solver) throw new StoredValueInvalidError("requests.solver_state", request.id, "", "is missing");
  return request.solver;
}

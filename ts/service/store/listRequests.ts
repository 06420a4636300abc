import { InvalidInputError } from "../../core/errors.ts";
import { isRequestStatus, type RequestStatus } from "../model/requestStatus.ts";
import type { StoreContext } from "./engine.ts";
import { InvalidCursorError } from "./errors.ts";
import type { StoredRequest } from "../model/storedRequest.ts";
import type { Address, Bytes32 } from "../model/values.ts";
import { REQUEST_COLUMNS, requestFromRow } from "./requests.ts";
import { publicStatusCondition } from "./publicStatusSql.ts";

export const LIST_LIMIT = { min: 1, max: 50, default: 20 } as const;

/** The GET /requests/v2 filters that apply to stored data. Values are already parsed by the HTTP schema. */
export type RequestFilters = {
  limit?: number;
  continuation?: string;
  /** Sender or recipient. */
  user?: Address;
  /** Any origin or destination transaction hash. */
  hash?: Bytes32;
  originChainId?: number;
  destinationChainId?: number;
  /** Either direction; ignored when originChainId or destinationChainId is set. */
  chainId?: number | string;
  id?: Bytes32;
  orderId?: Bytes32;
  /** Unix seconds, creation time, inclusive (endTimestamp includes its whole second). */
  startTimestamp?: number;
  endTimestamp?: number;
  /** Origin-chain block, inclusive. */
  startBlock?: number;
  endBlock?: number;
  referrer?: string;
  /** The requests of a deposit address: a strict one's quote (./depositAddresses.ts), an open one's payments (./openDepositAddresses.ts). */
  depositAddress?: Address;
  status?: RequestStatus;
  /** The id of the API key that created the requests. */
  apiKey?: string;
  sortBy?: "createdAt" | "updatedAt";
  sortDirection?: "asc" | "desc";
};

/** `continuation` is present only when another page exists. */
export type RequestPage = { requests: StoredRequest[]; continuation?: string };

type Cursor = { sortBy: "createdAt" | "updatedAt"; sortDirection: "asc" | "desc"; key: string; id: string };

export function encodeCursor(cursor: Cursor): string {
  return Buffer.from(JSON.stringify([cursor.sortBy, cursor.sortDirection, cursor.key, cursor.id])).toString("base64url");
}

export function decodeCursor(value: string): Cursor {
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(value, "base64url").toString("utf8"));
  } catch (cause) {
    throw new InvalidCursorError(undefined, { cause });
  }
  if (
    !Array.isArray(parsed) ||
    parsed.length !== 4 ||
    (parsed[0] !== "createdAt" && parsed[0] !== "updatedAt") ||
    (parsed[1] !== "asc" && parsed[1] !== "desc") ||
    typeof parsed[2] !== "string" ||
    !/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/.test(parsed[2]) ||
    typeof parsed[3] !== "string"
  ) {
    throw new InvalidCursorError();
  }
  return { sortBy: parsed[0], sortDirection: parsed[1], key: parsed[2], id: parsed[3] };
}


/**
 * Keyset pagination over (sort column, id): a page starts strictly after the cursor's row, so rows
 * inserted while paging never shift or repeat rows already seen. Sorting by updatedAt, a row updated
 * while paging moves in the order (it may show up again, later): inherent to sorting by a mutable key.
 */
export async function listRequests({ db }: StoreContext, filters: RequestFilters = {}): Promise<RequestPage> {
  const limit = filters.limit ?? LIST_LIMIT.default;
  if (!Number.isInteger(limit) || limit < LIST_LIMIT.min || limit > LIST_LIMIT.max) {
    throw new InvalidInputError(`must be an integer from ${LIST_LIMIT.min} to ${LIST_LIMIT.max}`, { path: "limit" });
  }
  const sortBy = filters.sortBy ?? "createdAt";
  const sortDirection = filters.sortDirection ?? "desc";
  if (sortBy !== "createdAt" && sortBy !== "updatedAt") throw new InvalidInputError("must be createdAt or updatedAt", { path: "sortBy" });
  if (sortDirection !== "asc" && sortDirection !== "desc") throw new InvalidInputError("must be asc or desc", { path: "sortDirection" });
  if (filters.status !== undefined && !isRequestStatus(filters.status)) throw new InvalidInputError("unknown status", { path: "status" });
  const column = sortBy === "createdAt" ? "created_at" : "updated_at";

  const where: string[] = [];
  const params: unknown[] = [];
  const param = (value: unknown) => (params.push(value), `$${params.length}`);

  if (filters.user !== undefined) {
    const p = param(filters.user);
    where.push(`("user" = ${p} OR recipient = ${p})`);
  }
  if (filters.hash !== undefined) {
    const p = param(filters.hash);
    where.push(`(${p} = ANY(in_tx_hashes) OR ${p} = ANY(tx_hashes))`);
  }
  if (filters.originChainId !== undefined || filters.destinationChainId !== undefined) {
    if (filters.originChainId !== undefined) where.push(`origin_chain_id = ${param(filters.originChainId)}`);
    if (filters.destinationChainId !== undefined) where.push(`destination_chain_id = ${param(filters.destinationChainId)}`);
  } else if (filters.chainId !== undefined) {
    const chainId = Number(filters.chainId);
    if (!Number.isSafeInteger(chainId)) throw new InvalidInputError("must be an integer", { path: "chainId" });
    const p = param(chainId);
    where.push(`(origin_chain_id = ${p} OR destination_chain_id = ${p})`);
  }
  if (filters.id !== undefined) where.push(`id = ${param(filters.id)}`);
  if (filters.orderId !== undefined) where.push(`order_id = ${param(filters.orderId)}`);
  if (filters.startTimestamp !== undefined) where.push(`created_at >= to_timestamp(${param(filters.startTimestamp)}::double precision)`);
  if (filters.endTimestamp !== undefined) where.push(`created_at < to_timestamp(${param(filters.endTimestamp)}::double precision + 1)`);
  if (filters.startBlock !== undefined) where.push(`origin_block >= ${param(filters.startBlock)}`);
  if (filters.endBlock !== undefined) where.push(`origin_block <= ${param(filters.endBlock)}`);
  if (filters.referrer !== undefined) where.push(`referrer = ${param(filters.referrer)}`);
  if (filters.depositAddress !== undefined) {
    // A strict address's quote, and every payment into an open one (its re-quoted request).
    const p = param(filters.depositAddress);
    where.push(`(id IN (SELECT request_id FROM deposit_addresses WHERE address = ${p} AND mode = 'strict') OR id IN (SELECT request_id FROM deposit_address_payments WHERE address = ${p} AND request_id IS NOT NULL))`);
  }
  if (filters.status !== undefined) where.push(publicStatusCondition(filters.status));
  if (filters.apiKey !== undefined) where.push(`api_key_id = ${param(filters.apiKey)}`);
  if (filters.continuation !== undefined) {
    const cursor = decodeCursor(filters.continuation);
    if (cursor.sortBy !== sortBy || cursor.sortDirection !== sortDirection) {
      throw new InvalidCursorError("continuation cursor belongs to another sort order");
    }
    const op = sortDirection === "desc" ? "<" : ">";
    where.push(`(${column}, id) ${op} (${param(cursor.key)}::timestamptz, ${param(cursor.id)})`);
  }

  const dir = sortDirection === "desc" ? "DESC" : "ASC";
  const { rows } = await db.query(
    `SELECT ${REQUEST_COLUMNS} FROM requests ${where.length ? `WHERE ${where.join(" AND ")}` : ""}
     ORDER BY ${column} ${dir}, id ${dir} LIMIT ${param(limit + 1)}`,
    params,
  );
  const requests = rows.slice(0, limit).map((r) => requestFromRow(r as Parameters<typeof requestFromRow>[0]));
  if (rows.length <= limit) return { requests };
  const last = requests[requests.length - 1];
  return {
    requests,
    continuation: encodeCursor({ sortBy, sortDirection, key: sortBy === "createdAt" ? last.createdAt : last.updatedAt, id: last.id }),
  };
}

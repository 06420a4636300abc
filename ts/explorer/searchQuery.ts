/**
 * What the explorer's search box was given, and the GET /requests/v2 queries that answer it. Pure.
 *
 * A 32-byte hex value is a requestId or a transaction hash (the same shape: both are asked for, and
 * the answers merged); a 20-byte one is a user (sender or recipient). Anything else is refused here,
 * before any request, with the reason shown to the visitor.
 */

export type SearchQuery =
  | { kind: "idOrHash"; value: string }
  | { kind: "user"; value: string }
  | { kind: "empty" }
  | { kind: "invalid"; reason: string };

const BYTES32 = /^0x[0-9a-fA-F]{64}$/;
const ADDRESS = /^0x[0-9a-fA-F]{40}$/;

export function parseSearchQuery(input: string | null | undefined): SearchQuery {
  const value = (input ?? "").trim();
  if (value === "") return { kind: "empty" };
  if (BYTES32.test(value)) return { kind: "idOrHash", value: value.toLowerCase() };
  // Mixed case is kept: the service checks an address's EIP-55 checksum (400 INVALID_ADDRESS).
  if (ADDRESS.test(value)) return { kind: "user", value };
  return { kind: "invalid", reason: "Enter a request id or a transaction hash (0x and 64 hex digits) or a user address (0x and 40 hex digits)." };
}

/** The GET /requests/v2 paths that answer a query (none for an empty or invalid one). */
export function searchPaths(query: SearchQuery, limit = 20): string[] {
  const page = `limit=${limit}`;
  if (query.kind === "idOrHash") return [`/requests/v2?id=${query.value}&${page}`, `/requests/v2?hash=${query.value}&${page}`];
  if (query.kind === "user") return [`/requests/v2?user=${query.value}&${page}`];
  return [];
}

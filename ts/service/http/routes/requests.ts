/**
 * GET /requests/v2 — stored requests, filtered, sorted and paged (../../store/listRequests.ts).
 * The next page's cursor is returned in `continuation` (present only when another page exists) and
 * passed back as the `continuation` query parameter with the same sortBy/sortDirection; a cursor the
 * service did not produce, or one from another sort order, is 400 INVALID_CURSOR.
 *
 * `depositAddress` lists the requests of a deposit address (the requests of the quotes that handed it
 * out: ../../store/depositAddresses.ts); a value that is not an address matches nothing. Filters with
 * nothing to match in Ferry: `privateChainsToInclude` is accepted and ignored.
 *
 * `includeChildRequests=true` adds to each record of the page its `childRequests`
 * (../../model/childRecords.ts: duplicate and mismatched deposits under its orderId, then its refund),
 * the page's strays read in one query; without it (or `=false`) the records are unchanged.
 *
 * Visibility (docs/api.md): request records are public — the spec's fields only, for anyone. What
 * belongs to an integrator is asked for with its key in the `x-api-key` header, never in the URL:
 * - `apiKey` filters by an API key *id* (`key_…`) and only by the caller's own: without `x-api-key`
 *   401 API_KEY_REQUIRED, another key's id 403 API_KEY_FORBIDDEN. A plaintext key (`ferry_…`, or anything
 *   that is not an id) in the query is 400 API_KEY_IN_URL, refused without being looked up (and
 *   redacted from the request log): a URL is written to access logs, proxy and CDN logs and browser
 *   history, so a key sent there must be treated as leaked.
 * - `includeAuthenticatedData=true` needs `x-api-key` (else 401 API_KEY_REQUIRED) and adds `referrer`
 *   to the records of requests quoted with the caller's key.
 * - `includeOrderData=true` reads the page's orders in one query.
 */
import { Type, type Static } from "typebox";
import type { Store } from "../../store/createStore.ts";
import { InvalidCursorError } from "../../store/errors.ts";
import { LIST_LIMIT, type RequestFilters } from "../../store/listRequests.ts";
import type { FerryApp } from "../ferryApp.ts";
import { commonErrorResponses } from "../httpErrors.ts";
import { RequestRecord, RequestStatusSchema, toRequestRecord } from "../../model/publicRecords.ts";
import { childRecordsOf } from "../../model/childRecords.ts";
import { ServiceError } from "../../errors/serviceError.ts";
import { addressInput } from "../addressInput.ts";
import { canonicalAddress, CanonicalHexOf, type Address } from "../../model/values.ts";

const Bool = Type.Union([Type.Literal("true"), Type.Literal("false")]);
const Str = (maxLength: number, description?: string) => Type.String({ maxLength, ...(description ? { description } : {}) });
/** A `user` of EVM shape is read as an address (a mistyped mixed case is INVALID_ADDRESS); other shapes (32-byte accounts) are matched as given. */
const EVM_ADDRESS = /^0x[0-9a-fA-F]{40}$/;
const ChainIdNumber = Type.Integer({ minimum: 0, maximum: Number.MAX_SAFE_INTEGER });
const Uint = (description: string) => Type.Integer({ minimum: 0, maximum: Number.MAX_SAFE_INTEGER, description });

export const RequestsQuery = Type.Object(
  {
    limit: Type.Optional(Type.Integer({ minimum: LIST_LIMIT.min, maximum: LIST_LIMIT.max, default: LIST_LIMIT.default, description: "Page size" })),
    continuation: Type.Optional(Str(512, "The `continuation` of the previous page (same sortBy and sortDirection)")),
    user: Type.Optional(Str(66, "Sender or recipient address")),
    hash: Type.Optional(CanonicalHexOf(Str(66, "Origin or destination transaction hash"))),
    originChainId: Type.Optional(ChainIdNumber),
    destinationChainId: Type.Optional(ChainIdNumber),
    chainId: Type.Optional(Type.String({ pattern: "^[0-9]{1,15}$", description: "Either direction; ignored when originChainId or destinationChainId is set" })),
    privateChainsToInclude: Type.Optional(Str(1024, "Accepted and ignored (Ferry has no private chains)")),
    id: Type.Optional(CanonicalHexOf(Str(66, "requestId"))),
    orderId: Type.Optional(CanonicalHexOf(Str(66, "Protocol orderId"))),
    includeOrderData: Type.Optional(Bool),
    startTimestamp: Type.Optional(Uint("Unix seconds, creation time, inclusive")),
    endTimestamp: Type.Optional(Uint("Unix seconds, creation time, inclusive")),
    startBlock: Type.Optional(Uint("Origin-chain block, inclusive")),
    endBlock: Type.Optional(Uint("Origin-chain block, inclusive")),
    referrer: Type.Optional(Str(256)),
    depositAddress: Type.Optional(Str(66, "Every request of this deposit address (its quotes' requests; a strict address has one)")),
    includeChildRequests: Type.Optional(
      Type.Union([Type.Literal("true"), Type.Literal("false")], { description: "true: each record gets `childRequests` (duplicate and mismatched deposits under its orderId, then its refund)" }),
    ),
    includeAuthenticatedData: Type.Optional(Bool),
    status: Type.Optional(RequestStatusSchema),
    apiKey: Type.Optional(
      Str(256, "The id (key_…) of the caller's own API key (sent in x-api-key): its requests only. Never the key itself: a key in a URL is refused (API_KEY_IN_URL)"),
    ),
    sortBy: Type.Optional(Type.Union([Type.Literal("createdAt"), Type.Literal("updatedAt")], { default: "createdAt" })),
    sortDirection: Type.Optional(Type.Union([Type.Literal("asc"), Type.Literal("desc")], { default: "desc" })),
  },
  { additionalProperties: false },
);
export type RequestsQuery = Static<typeof RequestsQuery>;

export const requestsSchema = {
  summary: "Requests",
  description:
    "Stored requests, newest first by default. The next page's cursor is in `continuation` (absent on the last page); " +
    "pass it back with the same sortBy/sortDirection. An invalid cursor is 400 INVALID_CURSOR.",
  tags: ["Requests"],
  querystring: RequestsQuery,
  response: {
    200: Type.Object({ requests: Type.Array(RequestRecord), continuation: Type.Optional(Type.String()) }),
    ...commonErrorResponses,
  },
};

/** API key ids as `ferry keys create` makes them (../../store/apiKeys.ts); anything else in `apiKey` is not an id. */
const API_KEY_ID = /^key_[0-9a-f]{16}$/;

/** An address filter's value: an address is decoded (a malformed one is 400), anything else kept as given, lowercase, so it matches nothing. */
const addressFilter = (value: string, field: string): Address => (EVM_ADDRESS.test(value) ? addressInput(value, field) : canonicalAddress(value));

export function registerRequestsRoute(app: FerryApp, options: { store: Store }): void {
  app.get("/requests/v2", { schema: requestsSchema }, async (request) => {
    const q = request.query;
    const caller = request.apiKey;
    if (q.apiKey !== undefined) {
      if (!API_KEY_ID.test(q.apiKey)) {
        throw new ServiceError("API_KEY_IN_URL", "apiKey takes an API key id (key_…), never the key: send the key in the x-api-key header (and rotate one that was sent in a URL)");
      }
      if (!caller) throw new ServiceError("API_KEY_REQUIRED", "the apiKey filter needs the caller's key in the x-api-key header");
      if (caller.id !== q.apiKey) throw new ServiceError("API_KEY_FORBIDDEN", "the apiKey filter may only name the caller's own API key");
    }
    const authenticated = q.includeAuthenticatedData === "true";
    if (authenticated && !caller) throw new ServiceError("API_KEY_REQUIRED", "includeAuthenticatedData needs the caller's key in the x-api-key header");
    const filters: RequestFilters = {
      // The validator does not apply schema defaults: apply them here.
      limit: q.limit ?? LIST_LIMIT.default,
      sortBy: (q.sortBy ?? "createdAt") as "createdAt" | "updatedAt",
      sortDirection: (q.sortDirection ?? "desc") as "asc" | "desc",
      ...(q.continuation !== undefined && { continuation: q.continuation }),
      // A `user` that is not an address matches nothing (canonical form only, as every value is compared).
      ...(q.user !== undefined && { user: addressFilter(q.user, "querystring/user") }),
      // As `user`: a value that is not an address matches nothing.
      ...(q.depositAddress !== undefined && { depositAddress: addressFilter(q.depositAddress, "querystring/depositAddress") }),
      ...(q.hash !== undefined && { hash: q.hash }),
      ...(q.originChainId !== undefined && { originChainId: q.originChainId }),
      ...(q.destinationChainId !== undefined && { destinationChainId: q.destinationChainId }),
      ...(q.chainId !== undefined && { chainId: Number(q.chainId) }),
      ...(q.id !== undefined && { id: q.id }),
      ...(q.orderId !== undefined && { orderId: q.orderId }),
      ...(q.startTimestamp !== undefined && { startTimestamp: q.startTimestamp }),
      ...(q.endTimestamp !== undefined && { endTimestamp: q.endTimestamp }),
      ...(q.startBlock !== undefined && { startBlock: q.startBlock }),
      ...(q.endBlock !== undefined && { endBlock: q.endBlock }),
      ...(q.referrer !== undefined && { referrer: q.referrer }),
      ...(q.status !== undefined && { status: q.status as RequestFilters["status"] }),
      ...(q.apiKey !== undefined && { apiKey: q.apiKey }),
    };
    let page;
    try {
      page = await options.store.listRequests(filters);
    } catch (error) {
      if (error instanceof InvalidCursorError) throw new ServiceError("INVALID_CURSOR", error.message);
      throw error;
    }
    const ids = page.requests.map((r) => r.id);
    const [orders, strays] = await Promise.all([
      q.includeOrderData === "true" ? options.store.getOrderDataByRequestIds(ids) : undefined,
      q.includeChildRequests === "true" ? options.store.listStrayDepositsByRequestIds(ids) : undefined,
    ]);
    const requests = page.requests.map((stored) => {
      const order = orders?.get(stored.id);
      return toRequestRecord(stored, {
        ...(order && { order }),
        authenticated: authenticated && caller !== undefined && stored.apiKeyId === caller.id,
        ...(strays && { children: childRecordsOf(stored, strays.get(stored.id) ?? []) }),
      });
    });
    return { requests, ...(page.continuation !== undefined && { continuation: page.continuation }) };
  });
}

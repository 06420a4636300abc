/**
 * `FerryApi`: every endpoint of the service as a typed method — what `createFerryClient` returns
 * (with `executeQuote` on top) and what `executeQuote` and `waitForRequest` call.
 */
import type {
  AttestationRecord,
  ChainRecord,
  ExecutePermitResult,
  HealthRecord,
  IndexTransactionResult,
  Quote,
  QuoteRequest,
  ReadinessRecord,
  RequestFilters,
  RequestRecord,
  RequestsPage,
  StatusRecord,
} from "./apiTypes.ts";

export type FerryApi = {
  readonly baseUrl: string;
  getChains(): Promise<{ chains: ChainRecord[] }>;
  getQuote(body: QuoteRequest): Promise<Quote>;
  getStatus(requestId: string): Promise<StatusRecord>;
  /** Follows a quote item's `check.endpoint` (`/intents/status?requestId=…` or `/intents/status/v3?requestId=…`). */
  getStatusAt(checkEndpoint: string): Promise<StatusRecord>;
  /** One page of GET /requests/v2; pass `continuation` back for the next one. */
  getRequests(filters?: RequestFilters): Promise<RequestsPage>;
  /** Every page from `filters.continuation` (or the first) to the last, following `continuation`. */
  requestPages(filters?: RequestFilters): AsyncIterable<RequestsPage>;
  /** Every request record across pages. */
  allRequests(filters?: RequestFilters): AsyncIterable<RequestRecord>;
  /** GET /requests/{requestId}/signature; `gate`: an AttestationGate to bind the attestations to (`gateAttestation`). */
  getRequestSignature(requestId: string, options?: { gate?: string }): Promise<AttestationRecord>;
  indexTransaction(args: { chainId: number; txHash: string }): Promise<IndexTransactionResult>;
  /**
   * POST /execute/permits?signature=… with a permit quote's `authorize` item's `post.body`: the service
   * checks the signature against the stored quote and submits the deposit (`txHash`).
   */
  executePermit(args: { signature: string; body: Record<string, unknown> }): Promise<ExecutePermitResult>;
  health(): Promise<HealthRecord>;
  /** GET /ready: `{ready: false, checks}` on 503 NOT_READY instead of throwing. */
  ready(): Promise<ReadinessRecord>;
};

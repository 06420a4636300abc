/**
 * `createFerryClient({baseUrl, apiKey?, fetch?})`: a typed client for every endpoint of the service.
 * It talks only to `baseUrl` (through the given or the global `fetch`); a non-2xx answer throws
 * `FerryApiError` with the status, the service's `errorCode` and `message`, and `retryAfter` on 429.
 */
import type { ReadinessRecord, RequestFilters, RequestsPage } from "./apiTypes.ts";
import { FerryApiError } from "./clientErrors.ts";
import { executeQuote, type ExecuteQuoteOptions, type ExecuteQuoteResult } from "./executeQuote.ts";
import type { FerryApi } from "./ferryApi.ts";
import { requestsQueryString, statusPathOf } from "./requestPaths.ts";

export type FerryClientOptions = {
  /** The service's base URL, e.g. `http://127.0.0.1:8080` (a path prefix is kept). */
  baseUrl: string;
  /** Sent as `x-api-key` (higher rate limit; required by /execute). */
  apiKey?: string;
  /** Default: the global fetch. */
  fetch?: typeof fetch;
  /** Per-request timeout in ms. Default 30 s. */
  requestTimeoutMs?: number;
};

/** The endpoints (./ferryApi.ts) and `executeQuote` (./executeQuote.ts) with this client. */
export type FerryClient = FerryApi & {
  executeQuote(options: Omit<ExecuteQuoteOptions, "client">): Promise<ExecuteQuoteResult>;
};

export function createFerryClient(options: FerryClientOptions): FerryClient {
  const base = new URL(options.baseUrl);
  if (base.protocol !== "http:" && base.protocol !== "https:") throw new TypeError(`baseUrl must be http(s): ${options.baseUrl}`);
  const baseUrl = base.href.replace(/\/+$/, "");
  const fetchFn = options.fetch ?? globalThis.fetch;
  const timeoutMs = options.requestTimeoutMs ?? 30_000;

  async function request<T>(method: "GET" | "POST", path: string, body?: unknown): Promise<T> {
    const headers: Record<string, string> = { accept: "application/json" };
    if (options.apiKey !== undefined) headers["x-api-key"] = options.apiKey;
    if (body !== undefined) headers["content-type"] = "application/json";
    const response = await fetchFn(`${baseUrl}${path}`, {
      method,
      headers,
      ...(body !== undefined && { body: JSON.stringify(body) }),
      signal: AbortSignal.timeout(timeoutMs),
    });
    const text = await response.text();
    let parsed: unknown;
    try {
      parsed = text === "" ? undefined : JSON.parse(text);
    } catch {
      parsed = undefined;
    }
    if (!response.ok) throw apiError(response, parsed, text, method, path);
    if (parsed === undefined) {
      throw new FerryApiError({ status: response.status, errorCode: "INVALID_RESPONSE", message: "the response is not JSON", method, path });
    }
    return parsed as T;
  }

  async function* requestPages(filters: RequestFilters = {}): AsyncIterable<RequestsPage> {
    let continuation = filters.continuation;
    do {
      const page = await request<RequestsPage>("GET", `/requests/v2${requestsQueryString({ ...filters, continuation })}`);
      yield page;
      continuation = page.continuation;
    } while (continuation !== undefined && continuation !== "");
  }

  const client: FerryClient = {
    baseUrl,
    getChains: () => request("GET", "/chains"),
    getQuote: (body) => request("POST", "/quote/v2", body),
    getStatus: (requestId) => request("GET", `/intents/status/v3?requestId=${encodeURIComponent(requestId)}`),
    getStatusAt: (checkEndpoint) => request("GET", statusPathOf(checkEndpoint)),
    getRequests: (filters = {}) => request("GET", `/requests/v2${requestsQueryString(filters)}`),
    requestPages,
    async *allRequests(filters = {}) {
      for await (const page of requestPages(filters)) yield* page.requests;
    },
    getRequestSignature: (requestId, options) =>
      request("GET", `/requests/${encodeURIComponent(requestId)}/signature${options?.gate ? `?gate=${encodeURIComponent(options.gate)}` : ""}`),
    indexTransaction: ({ chainId, txHash }) => request("POST", "/transactions/index", { chainId, txHash }),
    executePermit: ({ signature, body }) => request("POST", `/execute/permits?signature=${encodeURIComponent(signature)}`, body),
    health: () => request("GET", "/health"),
    async ready() {
      try {
        const body = await request<{ checks?: ReadinessRecord["checks"] }>("GET", "/ready");
        return { ready: true, checks: body.checks ?? [] };
      } catch (error) {
        if (error instanceof FerryApiError && error.status === 503) {
          const checks = (error.body as { checks?: ReadinessRecord["checks"] } | undefined)?.checks ?? [];
          return { ready: false, checks };
        }
        throw error;
      }
    },
    executeQuote: (executeOptions) => executeQuote({ ...executeOptions, client }),
  };
  return client;
}

function apiError(response: Response, body: unknown, text: string, method: string, path: string): FerryApiError {
  const record = typeof body === "object" && body !== null ? (body as Record<string, unknown>) : {};
  const errorCode = typeof record.errorCode === "string" ? record.errorCode : `HTTP_${response.status}`;
  const message =
    typeof record.message === "string" ? record.message : text.slice(0, 200) || `${method} ${path}: HTTP ${response.status}`;
  const retryAfter = parseRetryAfter(response.headers.get("retry-after"));
  return new FerryApiError({
    status: response.status,
    errorCode,
    message,
    ...(retryAfter !== undefined && { retryAfter }),
    body,
    method,
    path,
  });
}

/** `Retry-After` as seconds (delta-seconds; an HTTP date is converted relative to now). */
function parseRetryAfter(value: string | null): number | undefined {
  if (value === null) return undefined;
  if (/^\d+$/.test(value.trim())) return Number(value.trim());
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, Math.ceil((date - Date.now()) / 1000));
}

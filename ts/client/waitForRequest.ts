/**
 * `waitForRequest`: polls GET /intents/status/v3 until the request is terminal — `success` resolves,
 * `failure`/`refund`/`fallback` reject with RequestFailedError (the status record, `failReason`) —
 * or until `until(status)` holds, when given (e.g. wait past `failure` for `refund`). Transient
 * answers (404 before the request is stored, 429 honouring Retry-After, 5xx, network errors) are
 * polled again; TIMEOUT (ExecuteQuoteError) at the deadline, carrying the last status.
 */
import type { StatusRecord } from "./apiTypes.ts";
import { ExecuteQuoteError, ExecuteQuoteErrorCode, FerryApiError, RequestFailedError } from "./clientErrors.ts";
import type { FerryApi } from "./ferryApi.ts";
import { statusOutcome } from "./quoteExecutionPlan.ts";

export type WaitForRequestOptions = {
  client: Pick<FerryApi, "getStatus">;
  requestId: string;
  /** Default 1 s (the spec's recommended polling). */
  pollIntervalMs?: number;
  /** Default 10 min. */
  timeoutMs?: number;
  /** Absolute deadline (ms since epoch); overrides timeoutMs. */
  deadline?: number;
  /** Called with each new status (a change of status, updatedAt or hashes). */
  onStatus?: (status: StatusRecord) => void;
  /** Resolve as soon as this holds, whatever the status (checked before the terminal rules). */
  until?: (status: StatusRecord) => boolean;
};

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export async function waitForRequest(options: WaitForRequestOptions): Promise<StatusRecord> {
  const { client, requestId } = options;
  const pollIntervalMs = options.pollIntervalMs ?? 1_000;
  const deadline = options.deadline ?? Date.now() + (options.timeoutMs ?? 600_000);
  let last: StatusRecord | undefined;
  let lastKey = "";
  for (;;) {
    let wait = pollIntervalMs;
    try {
      const status = await client.getStatus(requestId);
      const key = `${status.status}|${status.updatedAt}|${status.inTxHashes.join()}|${status.txHashes.join()}`;
      if (key !== lastKey) {
        lastKey = key;
        last = status;
        options.onStatus?.(status);
      }
      if (options.until?.(status)) return status;
      const outcome = statusOutcome(status);
      if (outcome === "success" && options.until === undefined) return status;
      if (outcome === "failed" && options.until === undefined) throw new RequestFailedError(requestId, status);
    } catch (error) {
      if (!isTransient(error)) throw error;
      if (error instanceof FerryApiError && error.retryAfter !== undefined) wait = Math.max(wait, error.retryAfter * 1000);
    }
    if (Date.now() + wait > deadline) {
      throw new ExecuteQuoteError(ExecuteQuoteErrorCode.TIMEOUT, `request ${requestId}: no terminal status in time (last: ${last?.status ?? "none"})`, {
        ...(last !== undefined && { lastStatus: last }),
      });
    }
    await sleep(wait);
  }
}

/** 404 (not stored yet), 429, 5xx and network failures are worth another poll. */
function isTransient(error: unknown): boolean {
  if (error instanceof FerryApiError) return error.status === 404 || error.retryable;
  return error instanceof TypeError || (error instanceof Error && (error.name === "TimeoutError" || error.name === "AbortError"));
}

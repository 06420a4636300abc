/**
 * The admin API of a running service (/admin/…, ts/service/http/admin/adminRoutes.ts) as the same
 * `AdminOperations` the CLI otherwise runs on the store, so `ferry keys|webhooks|requests` print the
 * same either way. The token goes in `authorization: Bearer …`, never in the URL. An error answer
 * becomes a FerryError with the service's code and message (exit 2); a 5xx without detail, exit 3;
 * a service that cannot be reached, SERVICE_UNREACHABLE naming the URL and the fix (exit 2).
 */
import { FerryError } from "../core/errors.ts";
import type { AdminOperations } from "../service/admin/adminOperations.ts";

/** The service did not answer (refused, timed out, not HTTP). */
export class ServiceUnreachableError extends FerryError {
  constructor(url: string, reason: string, hint: string) {
    super("SERVICE_UNREACHABLE", `cannot reach the service at ${url} (${reason}): ${hint}`);
  }
}

export type AdminClientOptions = {
  /** The service's base URL (its /admin routes are below it). */
  url: string;
  token: string;
  /** What to tell the operator when the service does not answer (where the URL came from). */
  unreachableHint?: string;
  timeoutMs?: number;
};

export function adminClient(options: AdminClientOptions): AdminOperations {
  const base = options.url.replace(/\/+$/, "");
  const hint = options.unreachableHint ?? "is it running? check --api-url / FERRY_API_URL";
  const call = async <T>(method: string, path: string, body?: unknown): Promise<T> => {
    let response: Response;
    try {
      response = await fetch(`${base}${path}`, {
        method,
        headers: { authorization: `Bearer ${options.token}`, accept: "application/json", ...(body !== undefined ? { "content-type": "application/json" } : {}) },
        ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
        signal: AbortSignal.timeout(options.timeoutMs ?? 30_000),
      });
    } catch (error) {
      const cause = (error as { cause?: { code?: string; message?: string } }).cause;
      const reason = cause?.code ?? cause?.message ?? ((error as Error).name === "TimeoutError" ? "timed out" : (error as Error).message);
      throw new ServiceUnreachableError(base, reason, hint);
    }
    const text = await response.text();
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      throw new ServiceUnreachableError(base, `HTTP ${response.status}, not JSON`, "is this Ferry's URL?");
    }
    if (response.ok) return json as T;
    const { errorCode, message } = (json ?? {}) as { errorCode?: unknown; message?: unknown };
    if (typeof errorCode !== "string" || typeof message !== "string") throw new ServiceUnreachableError(base, `HTTP ${response.status}`, "is this Ferry's URL?");
    if (response.status === 404 && errorCode === "NOT_FOUND") {
      throw new FerryError("ADMIN_API_OFF", `${base} has no admin API: start the service with FERRY_ADMIN_TOKEN set (the same value as here)`);
    }
    if (response.status >= 500 && response.status !== 503) throw new Error(`the service answered ${response.status} ${errorCode}: ${message}`);
    throw new FerryError(errorCode, message);
  };
  const id = (value: string) => encodeURIComponent(value);
  return {
    createApiKey: (input) => call("POST", "/admin/keys", input),
    listApiKeys: async () => (await call<{ keys: Awaited<ReturnType<AdminOperations["listApiKeys"]>> }>("GET", "/admin/keys")).keys,
    revokeApiKey: (keyId) => call("DELETE", `/admin/keys/${id(keyId)}`),
    setApiKeyReferrer: (keyId, referrer) => call("PUT", `/admin/keys/${id(keyId)}/referrer`, { referrer }),
    appBalance: (keyId, limit = 20) => call("GET", `/admin/keys/${id(keyId)}/balance?limit=${limit}`),
    setApiKeyFundingAddress: (keyId, fundingAddress) => call("PUT", `/admin/keys/${id(keyId)}/funding-address`, { fundingAddress }),
    setWebhook: (input) => call("PUT", "/admin/webhooks", input),
    clearWebhook: async (keyId) => void (await call("DELETE", `/admin/webhooks/${id(keyId)}`)),
    listWebhooks: async (keyId) =>
      (await call<{ webhooks: Awaited<ReturnType<AdminOperations["listWebhooks"]>> }>("GET", `/admin/webhooks${keyId === undefined ? "" : `?keyId=${id(keyId)}`}`)).webhooks,
    deliveryLog: async (target) =>
      (
        await call<{ deliveries: Awaited<ReturnType<AdminOperations["deliveryLog"]>> }>(
          "GET",
          `/admin/webhooks/deliveries?${"eventId" in target ? `eventId=${target.eventId}` : `requestId=${id(target.requestId)}`}`,
        )
      ).deliveries,
    redeliver: async (target) =>
      (await call<{ redelivered: number }>("POST", "/admin/webhooks/redeliver", "eventId" in target ? { eventId: target.eventId } : { since: target.since.toISOString() }))
        .redelivered,
    listParkedRequests: async (limit) =>
      (await call<{ requests: Awaited<ReturnType<AdminOperations["listParkedRequests"]>> }>("GET", `/admin/requests/parked${limit === undefined ? "" : `?limit=${limit}`}`))
        .requests,
    unparkRequest: async (requestId) =>
      (await call<{ request: Awaited<ReturnType<AdminOperations["unparkRequest"]>> }>("DELETE", `/admin/requests/parked/${id(requestId)}`)).request,
    showDepositAddress: async (address) =>
      (await call<{ depositAddresses: Awaited<ReturnType<AdminOperations["showDepositAddress"]>> }>("GET", `/admin/deposit-addresses/${id(address)}`)).depositAddresses,
  };
}

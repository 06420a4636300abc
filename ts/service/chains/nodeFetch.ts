/**
 * The `fetchFn` the service's RPC transport gives viem's HTTP JSON-RPC client (./rpcTransport.ts): a
 * POST over node:http or node:https with keep-alive sockets, answering with the few parts of a fetch
 * `Response` that client reads (`ok`, `status`, `statusText`, `headers`, `text()`; `body` null). The
 * global fetch (undici) cost about 0.9–1.2 ms of CPU per call on this project's machines, this about
 * 0.35 ms (issue 26: CPU per intent; an intent makes about ten RPC calls).
 *
 * What it keeps of fetch: the caller's abort signal (viem's timeout) destroys the request and its socket;
 * a connection error rejects with the socket's own error (viem wraps it in an HttpRequestError, a fault
 * of the URL). What differs: redirects are not followed (a 3xx is an HTTP error: the URL fails over), and
 * a body over MAX_RESPONSE_BYTES is refused while it is read instead of after.
 */
import http from "node:http";
import https from "node:https";

/** viem's own default limit of a JSON-RPC answer. */
export const MAX_RESPONSE_BYTES = 10_485_760;

export class RpcResponseTooLargeError extends Error {
  override readonly name = "ResponseBodyTooLargeError";
  constructor(url: string) {
    super(`${url} answered with more than ${MAX_RESPONSE_BYTES} bytes`);
  }
}

type FetchInit = { method?: string; headers?: Record<string, string>; body?: string; signal?: AbortSignal | null };

/** The parts of a fetch Response that viem's HTTP RPC client reads. */
export type NodeFetchResponse = { ok: boolean; status: number; statusText: string; headers: Headers; body: null; text(): Promise<string> };

/** A fetch function over `agents` (one per protocol, sockets kept alive between calls). */
export function nodeFetch(agents: { http: http.Agent; https: https.Agent } = defaultAgents()) {
  return (url: string | URL, init: FetchInit = {}): Promise<NodeFetchResponse> =>
    new Promise((resolve, reject) => {
      const target = typeof url === "string" ? new URL(url) : url;
      const signal = init.signal ?? undefined;
      if (signal?.aborted) return reject(signal.reason);
      const secure = target.protocol === "https:";
      const send = secure ? https.request : http.request;
      const request = send(target, { method: init.method ?? "POST", headers: init.headers, agent: secure ? agents.https : agents.http }, (response) => {
        const chunks: Buffer[] = [];
        let size = 0;
        response.on("data", (chunk: Buffer) => {
          size += chunk.length;
          if (size > MAX_RESPONSE_BYTES) return void request.destroy(new RpcResponseTooLargeError(target.origin));
          chunks.push(chunk);
        });
        response.on("end", () => {
          signal?.removeEventListener("abort", onAbort);
          const status = response.statusCode ?? 0;
          const text = Buffer.concat(chunks).toString("utf8");
          const headers = new Headers();
          for (const [name, value] of Object.entries(response.headers)) {
            if (value !== undefined) headers.set(name, Array.isArray(value) ? value.join(", ") : value);
          }
          resolve({ ok: status >= 200 && status < 300, status, statusText: response.statusMessage ?? "", headers, body: null, text: async () => text });
        });
        response.on("error", fail);
      });
      function fail(error: unknown) {
        signal?.removeEventListener("abort", onAbort);
        reject(error);
      }
      function onAbort() {
        request.destroy(signal?.reason instanceof Error ? signal.reason : new Error("aborted"));
      }
      signal?.addEventListener("abort", onAbort, { once: true });
      request.on("error", fail);
      request.end(init.body);
    });
}

let shared: { http: http.Agent; https: https.Agent } | undefined;

/** One pair of keep-alive agents for the process: every chain's URLs share its socket pools. */
function defaultAgents(): { http: http.Agent; https: https.Agent } {
  shared ??= { http: new http.Agent({ keepAlive: true }), https: new https.Agent({ keepAlive: true }) };
  return shared;
}

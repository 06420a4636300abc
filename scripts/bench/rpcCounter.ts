/**
 * A counting JSON-RPC proxy in front of one chain, for bench:intent-cost: the service's RPC URL for the
 * chain points here (loopback, a free port) and every call is counted by method before it is passed
 * on unchanged to the chain's own URL. A batch counts each of its entries (a node does the work of
 * each). Counted from outside the service, so the figure does not depend on the service's own metrics
 * being complete. The proxy's own CPU is spent in the bench's process (the "chains + users" column).
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

export type RpcCounter = {
  url: string;
  /** Calls so far by method (batch entries counted one by one). */
  counts(): Map<string, number>;
  /**
   * `eth_call` and `eth_estimateGas` so far by the 4-byte selector of their data (`eth_call 0x70a08231`):
   * which contract reads an intent costs; and `eth_getBlockByNumber` by its tag or "(a number)".
   */
  contractCalls(): Map<string, number>;
  reset(): void;
  close(): Promise<void>;
};

export async function startRpcCounter(targetUrl: string): Promise<RpcCounter> {
  let counts = new Map<string, number>();
  let contractCalls = new Map<string, number>();
  const count = (entry: unknown) => {
    const method = typeof entry === "object" && entry !== null && typeof (entry as { method?: unknown }).method === "string" ? (entry as { method: string }).method : "(malformed)";
    counts.set(method, (counts.get(method) ?? 0) + 1);
    if (method === "eth_call" || method === "eth_estimateGas") {
      const call = (entry as { params?: unknown[] }).params?.[0] as { data?: unknown; input?: unknown } | undefined;
      const data = typeof call?.data === "string" ? call.data : typeof call?.input === "string" ? call.input : "";
      const key = `${method} ${data.length >= 10 ? data.slice(0, 10).toLowerCase() : "(no selector)"}`;
      contractCalls.set(key, (contractCalls.get(key) ?? 0) + 1);
    }
    if (method === "eth_getBlockByNumber") {
      // By tag, or "a number": the head's reads are `latest`, a block's time or a log scan's floor are numbers.
      const params = (entry as { params?: unknown[] }).params;
      const at = typeof params?.[0] === "string" && !params[0].startsWith("0x") ? params[0] : "(a number)";
      const key = `${method} ${at}${params?.[1] === true ? " +txs" : ""}`;
      contractCalls.set(key, (contractCalls.get(key) ?? 0) + 1);
    }
  };
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      const body = Buffer.concat(chunks);
      try {
        const parsed: unknown = JSON.parse(body.toString("utf8"));
        if (Array.isArray(parsed)) parsed.forEach(count);
        else count(parsed);
      } catch {
        count(undefined);
      }
      fetch(targetUrl, { method: "POST", headers: { "content-type": "application/json" }, body })
        .then(async (answer) => {
          res.writeHead(answer.status, { "content-type": answer.headers.get("content-type") ?? "application/json" });
          res.end(Buffer.from(await answer.arrayBuffer()));
        })
        .catch((error: Error) => {
          res.writeHead(502, { "content-type": "text/plain" });
          res.end(error.message);
        });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    counts: () => new Map(counts),
    contractCalls: () => new Map(contractCalls),
    reset: () => {
      counts = new Map();
      contractCalls = new Map();
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

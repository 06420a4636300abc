/**
 * A real proxy in front of a JSON-RPC endpoint, on its own loopback TCP port, that a test turns into a
 * bad RPC: down (the port refuses connections, like a stopped node), hanging (accepts, never
 * answers), answering HTTP or JSON-RPC errors, lagging (a frozen head: reads beyond it see nothing,
 * as a node that stopped syncing answers them), swallowing answers after forwarding (the node got the
 * request, the client never hears back), answering results that are not what was asked (a broken
 * node), and refusing log ranges over a limit with a real provider's
 * error. Every request is counted per method.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo, Socket } from "node:net";

export type ProxyMode =
  | { kind: "pass" }
  /** The port refuses connections (the listener is closed, open connections are reset). */
  | { kind: "down" }
  /** Connections are accepted and requests read, never answered. */
  | { kind: "hang"; methods?: string[] }
  /** HTTP `status` with a plain body. */
  | { kind: "httpError"; status: number; methods?: string[] }
  /** A JSON-RPC error object with `code` and `message` (HTTP 200). */
  | { kind: "rpcError"; code: number; message: string; methods?: string[] }
  /** A node stuck at `head`: it reports that head and has nothing after it. */
  | { kind: "stale"; head: bigint }
  /** Forwards the request upstream, then never answers (a response lost on the way back). */
  | { kind: "forwardThenHang"; methods?: string[] }
  /** HTTP 200 with a well-formed JSON-RPC envelope whose `result` is `result` (a broken or hostile node). */
  | { kind: "malformed"; result: unknown; methods?: string[] };
// `methods`: the mode applies to these JSON-RPC methods only; every other request passes.

/** The error a provider answers for a log range over its limit (Alchemy's shape: -32602 with the limit in words). */
export const RANGE_ERROR = { code: -32602, message: "Log response size exceeded. You can make eth_getLogs requests with up to a 500 block range." };

export type ChainProxy = {
  url: string;
  port: number;
  mode: ProxyMode;
  setMode(mode: ProxyMode): Promise<void>;
  /** Refuse eth_getLogs spanning more than this many blocks (null: no limit). */
  maxLogRange: number | null;
  /** Answer the `finalized` and `safe` block tags with this block (null: as the node does). */
  finalizedBlock: bigint | null;
  /** Requests seen per method (including refused log ranges; not connections refused while down). */
  counts: Map<string, number>;
  /** eth_getLogs spans asked for, in order: [from, to]. */
  logRanges: [bigint, bigint][];
  /** Requests currently held open (hang / forwardThenHang). */
  hanging(): number;
  /** The JSON-RPC method and params of each request held open now (to know which call a process is parked in). */
  held(): { method: string; params: unknown[] }[];
  close(): Promise<void>;
};

type RpcBody = { jsonrpc: "2.0"; id: unknown; method: string; params?: unknown[] };

const hex = (n: bigint) => `0x${n.toString(16)}`;
const TAGS = new Set(["latest", "pending", "safe", "finalized"]);

export async function startChainProxy(upstream: string, options: { port?: number } = {}): Promise<ChainProxy> {
  const sockets = new Set<Socket>();
  const held = new Set<ServerResponse>();
  const heldBodies = new Map<ServerResponse, RpcBody>();
  const proxy = {
    mode: { kind: "pass" } as ProxyMode,
    maxLogRange: null as number | null,
    finalizedBlock: null as bigint | null,
    counts: new Map<string, number>(),
    logRanges: [] as [bigint, bigint][],
  } as ChainProxy;

  const forward = async (body: RpcBody): Promise<unknown> => {
    const response = await fetch(upstream, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
    return response.json();
  };

  /** What a node stuck at `head` answers. */
  const staleAnswer = async (body: RpcBody, head: bigint): Promise<unknown> => {
    const params = [...(body.params ?? [])];
    const reply = (result: unknown) => ({ jsonrpc: "2.0", id: body.id, result });
    const beyond = (tag: unknown) => typeof tag === "string" && !TAGS.has(tag) && tag !== "earliest" && BigInt(tag) > head;
    const clamp = (tag: unknown) => (typeof tag === "string" && TAGS.has(tag) ? hex(head) : tag);
    switch (body.method) {
      case "eth_blockNumber":
        return reply(hex(head));
      case "eth_getBlockByNumber":
        if (beyond(params[0])) return reply(null);
        params[0] = clamp(params[0]);
        return forward({ ...body, params });
      case "eth_getLogs": {
        const filter = { ...(params[0] as Record<string, unknown>) };
        if (beyond(filter.fromBlock)) return reply([]);
        if (filter.toBlock === undefined || beyond(filter.toBlock) || TAGS.has(filter.toBlock as string)) filter.toBlock = hex(head);
        return forward({ ...body, params: [filter] });
      }
      case "eth_getTransactionReceipt":
      case "eth_getTransactionByHash": {
        const answer = (await forward(body)) as { result?: { blockNumber?: string } | null };
        if (answer.result?.blockNumber && BigInt(answer.result.blockNumber) > head) return reply(null);
        return answer;
      }
      case "eth_call":
      case "eth_getBalance":
      case "eth_getCode":
      case "eth_getTransactionCount": {
        const at = body.method === "eth_call" || params.length > 1 ? 1 : -1;
        if (at >= 0) params[at] = clamp(params[at] ?? "latest");
        return forward({ ...body, params });
      }
      default:
        return forward(body);
    }
  };

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    let body: RpcBody;
    try {
      body = JSON.parse(Buffer.concat(chunks).toString("utf8")) as RpcBody;
    } catch {
      res.statusCode = 400;
      res.end("bad json");
      return;
    }
    proxy.counts.set(body.method, (proxy.counts.get(body.method) ?? 0) + 1);
    const chosen = proxy.mode;
    const scoped = (chosen as { methods?: string[] }).methods;
    const mode: ProxyMode = scoped && !scoped.includes(body.method) ? { kind: "pass" } : chosen;
    const send = (answer: unknown) => {
      res.setHeader("content-type", "application/json");
      res.end(JSON.stringify(answer));
    };
    if (body.method === "eth_getLogs") {
      const filter = (body.params?.[0] ?? {}) as { fromBlock?: string; toBlock?: string };
      if (filter.fromBlock?.startsWith("0x") && filter.toBlock?.startsWith("0x")) {
        const span: [bigint, bigint] = [BigInt(filter.fromBlock), BigInt(filter.toBlock)];
        proxy.logRanges.push(span);
        if (proxy.maxLogRange !== null && span[1] - span[0] + 1n > BigInt(proxy.maxLogRange)) {
          send({ jsonrpc: "2.0", id: body.id, error: RANGE_ERROR });
          return;
        }
      }
    }
    if (proxy.finalizedBlock !== null && body.method === "eth_getBlockByNumber" && (body.params?.[0] === "finalized" || body.params?.[0] === "safe")) {
      body = { ...body, params: [hex(proxy.finalizedBlock), ...(body.params ?? []).slice(1)] };
    }
    switch (mode.kind) {
      case "hang":
        held.add(res);
        heldBodies.set(res, body);
        res.once("close", () => heldBodies.delete(res));
        return;
      case "forwardThenHang":
        held.add(res);
        heldBodies.set(res, body);
        res.once("close", () => heldBodies.delete(res));
        await forward(body).catch(() => {});
        return;
      case "httpError":
        res.statusCode = mode.status;
        res.end("upstream unavailable");
        return;
      case "rpcError":
        send({ jsonrpc: "2.0", id: body.id, error: { code: mode.code, message: mode.message } });
        return;
      case "stale":
        send(await staleAnswer(body, mode.head));
        return;
      case "malformed":
        send({ jsonrpc: "2.0", id: body.id, result: mode.result });
        return;
      default:
        send(await forward(body));
    }
  };

  const server: Server = createServer((req, res) => {
    handle(req, res).catch(() => {
      if (!res.headersSent) res.statusCode = 502;
      res.end();
    });
  });
  server.on("connection", (socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });
  const listen = (port: number) => new Promise<void>((resolve, reject) => server.once("error", reject).listen(port, "127.0.0.1", () => resolve()));
  const stopListening = async () => {
    const closed = new Promise<void>((resolve) => server.close(() => resolve()));
    for (const res of held) res.destroy();
    held.clear();
    heldBodies.clear();
    for (const socket of sockets) socket.destroy();
    await closed;
  };

  await listen(options.port ?? 0);
  proxy.port = (server.address() as AddressInfo).port;
  proxy.url = `http://127.0.0.1:${proxy.port}`;
  proxy.hanging = () => held.size;
  // Only requests whose client still waits (a killed client's connection closes: its request is dropped here).
  proxy.held = () => [...heldBodies.values()].map((body) => ({ method: body.method, params: body.params ?? [] }));
  proxy.setMode = async (mode: ProxyMode) => {
    const wasDown = proxy.mode.kind === "down";
    proxy.mode = mode;
    if (mode.kind === "down" && !wasDown) await stopListening();
    // Requests held by an earlier mode stay unanswered (their clients time out), as with a real outage.
    if (mode.kind !== "down" && wasDown) await listen(proxy.port);
  };
  proxy.close = async () => {
    if (proxy.mode.kind !== "down") await stopListening();
  };
  return proxy;
}

/** A `ws` client for the websocket tests: collects the server's JSON messages and waits for them. */
import WebSocket, { type ClientOptions } from "ws";

export type ServerMessage = Record<string, any>;

export type TestSocket = {
  ws: WebSocket;
  /** The next unconsumed message matching `match` (consumed); fails after `timeoutMs`. */
  next(match?: (message: ServerMessage) => boolean, timeoutMs?: number): Promise<ServerMessage>;
  /** Waits `ms`, then returns (and consumes) every unconsumed message matching `match`. */
  drain(ms: number, match?: (message: ServerMessage) => boolean): Promise<ServerMessage[]>;
  send(message: unknown): void;
  /** Resolves with the close code and reason once the connection is closed. */
  closed: Promise<{ code: number; reason: string }>;
  /** The connection id from the greeting. */
  connectionId: string;
};

export const wsUrl = (httpUrl: string, path = "/ws", query = "") => `${httpUrl.replace(/^http/, "ws")}${path}${query}`;

export const isUpdate = (requestId?: string) => (m: ServerMessage) => m.event === "request.status.updated" && (!requestId || m.data?.requestId === requestId);

/** Connects and waits for the greeting (consumed; its id is `connectionId`). */
export async function connect(url: string, options: ClientOptions = {}): Promise<TestSocket> {
  const ws = new WebSocket(url, options);
  const queue: ServerMessage[] = [];
  const waiters: { match: (m: ServerMessage) => boolean; resolve: (m: ServerMessage) => void }[] = [];
  ws.on("message", (data) => {
    const message = JSON.parse(data.toString()) as ServerMessage;
    const waiter = waiters.findIndex((w) => w.match(message));
    if (waiter >= 0) waiters.splice(waiter, 1)[0]!.resolve(message);
    else queue.push(message);
  });
  const closed = new Promise<{ code: number; reason: string }>((resolve) => ws.on("close", (code, reason) => resolve({ code, reason: reason.toString() })));
  const socket: TestSocket = {
    ws,
    closed,
    connectionId: "",
    next(match = () => true, timeoutMs = 5_000) {
      const index = queue.findIndex(match);
      if (index >= 0) return Promise.resolve(queue.splice(index, 1)[0]!);
      return new Promise((resolve, reject) => {
        const waiter = {
          match,
          resolve: (m: ServerMessage) => {
            clearTimeout(timer);
            resolve(m);
          },
        };
        const timer = setTimeout(() => {
          waiters.splice(waiters.indexOf(waiter), 1);
          reject(new Error(`no matching message within ${timeoutMs} ms; unconsumed: ${JSON.stringify(queue).slice(0, 500)}`));
        }, timeoutMs);
        waiters.push(waiter);
      });
    },
    async drain(ms, match = () => true) {
      await new Promise((resolve) => setTimeout(resolve, ms));
      const taken = queue.filter(match);
      for (const m of taken) queue.splice(queue.indexOf(m), 1);
      return taken;
    },
    send: (message) => ws.send(typeof message === "string" ? message : JSON.stringify(message)),
  };
  await new Promise<void>((resolve, reject) => {
    ws.once("open", () => resolve());
    ws.once("error", reject);
  });
  const greeting = await socket.next((m) => m.type === "connection");
  socket.connectionId = greeting.data.id;
  return socket;
}

/** The HTTP status a failed upgrade was answered with (and its body). */
export function upgradeRejection(url: string, options: ClientOptions = {}): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url, options);
    ws.on("open", () => {
      ws.close();
      reject(new Error("the upgrade was accepted"));
    });
    ws.on("unexpected-response", (_request, response) => {
      let body = "";
      response.on("data", (chunk: Buffer) => (body += chunk.toString()));
      response.on("end", () => resolve({ status: response.statusCode ?? 0, body }));
    });
    ws.on("error", () => {});
  });
}

export const subscribe = (id: string) => ({ type: "subscribe", event: "request.status.updated", filters: { id } });
export const unsubscribe = (id: string) => ({ type: "unsubscribe", event: "request.status.updated", filters: { id } });

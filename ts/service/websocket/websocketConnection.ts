/**
 * One accepted websocket connection: greets, reads subscribe/unsubscribe messages (one at a time, in
 * order, so acks come back in the order asked), answers bad input with an error message and keeps the
 * connection open, and guards the server against the client:
 *
 * - **Slow consumer**: after each send, if more than `maxBufferedBytes` wait to be written to the
 *   client, nothing more is sent and the connection is closed with 1008 (`slow consumer`); if the
 *   client does not take the close frame within `closeGraceMs`, the TCP connection is dropped.
 * - **Heartbeat**: `heartbeat()` (called every `heartbeatMs` by ./heartbeat.ts) terminates the
 *   connection when the previous ping got no pong, else pings again.
 * - **Bounded work**: at most `maxSubscriptionsPerConnection` subscriptions, at most
 *   MAX_QUEUED_MESSAGES messages waiting to be handled (more are refused with TOO_MANY_MESSAGES).
 */
import type { RawData, WebSocket } from "ws";
import type { HubConnection, StatusHub } from "./statusHub.ts";
import {
  CloseCode,
  WebsocketErrorCode,
  WebsocketMessageError,
  connectionReadyMessage,
  errorMessage,
  operationSuccessMessage,
  parseClientMessage,
  type ClientMessage,
} from "./websocketMessages.ts";
import type { ServerCloseReason, WebsocketMetrics } from "./websocketMetrics.ts";

export const MAX_QUEUED_MESSAGES = 16;
/** How long a closing connection may take to answer the close frame before it is dropped. */
export const CLOSE_GRACE_MS = 1_000;

export type ConnectionLimits = { maxBufferedBytes: number; maxSubscriptionsPerConnection: number; closeGraceMs?: number };

export type WebsocketConnection = HubConnection & {
  /** Terminates the connection if the last ping went unanswered (returns false), else pings (true). */
  heartbeat(): boolean;
  /** Closes with `code`, dropping the connection if the client does not answer within the grace period. */
  close(code: number, reason: string, why: ServerCloseReason): void;
  /** Resolves once the connection is closed. */
  readonly closed: Promise<void>;
};

const OPEN = 1;

const textOf = (data: RawData): string =>
  (Buffer.isBuffer(data) ? data : Array.isArray(data) ? Buffer.concat(data) : Buffer.from(data)).toString("utf8");

export function acceptConnection(
  socket: WebSocket,
  deps: { id: string; hub: StatusHub; limits: ConnectionLimits; metrics?: WebsocketMetrics; onError?: (error: Error) => void },
): WebsocketConnection {
  const { hub, limits, metrics } = deps;
  const graceMs = limits.closeGraceMs ?? CLOSE_GRACE_MS;
  let alive = true;
  let closing = false;
  let queued = 0;
  let queue: Promise<void> = Promise.resolve();
  let resolveClosed: () => void;
  const closed = new Promise<void>((resolve) => (resolveClosed = resolve));

  const connection: WebsocketConnection = {
    id: deps.id,
    send(text) {
      if (closing || socket.readyState !== OPEN) return;
      socket.send(text);
      if (socket.bufferedAmount > limits.maxBufferedBytes) connection.close(CloseCode.SLOW_CONSUMER, "slow consumer", "slow_consumer");
    },
    heartbeat() {
      if (!alive) {
        metrics?.serverCloses.inc({ reason: "heartbeat_timeout" });
        socket.terminate();
        return false;
      }
      alive = false;
      if (socket.readyState === OPEN) socket.ping();
      return true;
    },
    close(code, reason, why) {
      if (closing || socket.readyState !== OPEN) return;
      closing = true;
      metrics?.serverCloses.inc({ reason: why });
      socket.close(code, reason);
      setTimeout(() => socket.terminate(), graceMs).unref();
    },
    closed,
  };

  const reply = (message: unknown) => connection.send(JSON.stringify(message));

  async function handle(message: ClientMessage): Promise<void> {
    if (message.type === "unsubscribe") {
      // Idempotent: unsubscribing from a request not subscribed to is acked too.
      hub.unsubscribe(connection, message.requestId);
      reply(operationSuccessMessage("unsubscribe", message.requestId));
      return;
    }
    if (!hub.has(connection, message.requestId) && hub.subscriptionCount(connection) >= limits.maxSubscriptionsPerConnection) {
      throw new WebsocketMessageError(
        WebsocketErrorCode.TOO_MANY_SUBSCRIPTIONS,
        `at most ${limits.maxSubscriptionsPerConnection} subscriptions per connection`,
        { operation: "subscribe" },
      );
    }
    try {
      await hub.subscribe(connection, message.requestId);
    } catch (error) {
      deps.onError?.(error as Error);
      throw new WebsocketMessageError(WebsocketErrorCode.INTERNAL_ERROR, "the subscription failed; try again", { operation: "subscribe", cause: error });
    }
  }

  async function onMessage(data: RawData, isBinary: boolean): Promise<void> {
    // Queued before the connection closed: a subscription now would never be removed.
    if (socket.readyState !== OPEN) return;
    try {
      if (isBinary) throw new WebsocketMessageError(WebsocketErrorCode.INVALID_MESSAGE, "binary frames are not accepted: send JSON text");
      await handle(parseClientMessage(textOf(data)));
    } catch (error) {
      if (error instanceof WebsocketMessageError) reply(errorMessage(error));
      else {
        deps.onError?.(error as Error);
        reply(errorMessage(new WebsocketMessageError(WebsocketErrorCode.INTERNAL_ERROR, "internal error")));
      }
    }
  }

  socket.on("message", (data, isBinary) => {
    if (queued >= MAX_QUEUED_MESSAGES) {
      reply(errorMessage(new WebsocketMessageError(WebsocketErrorCode.TOO_MANY_MESSAGES, `at most ${MAX_QUEUED_MESSAGES} messages may wait; wait for the acks`)));
      return;
    }
    queued++;
    queue = queue.then(() => onMessage(data, isBinary)).finally(() => void queued--);
  });
  socket.on("pong", () => {
    alive = true;
  });
  socket.once("close", () => {
    hub.disconnect(connection);
    metrics?.connections.dec();
    resolveClosed();
  });

  metrics?.connections.inc();
  reply(connectionReadyMessage(deps.id));
  return connection;
}

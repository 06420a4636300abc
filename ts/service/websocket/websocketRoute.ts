/**
 * GET `settings.path` (default `/ws`) — the websocket status stream (README.md), registered by
 * buildApp when the app has a store and `websocket.enabled`. @fastify/websocket runs the upgrade
 * through the app's hooks, so the `x-api-key` check and the rate limit apply to it like to any request.
 * An API key is never taken from the URL (query strings end up in proxies' and servers' logs): an
 * `apiKey` query parameter is a 400 `API_KEY_IN_URL` before the upgrade, whatever its value, and is
 * redacted from this server's request log. Browsers, which cannot set headers on a websocket, connect
 * without a key: the stream is public (a subscriber names the requestId), only the rate limit differs.
 * A plain GET (no upgrade) is a 426 `UPGRADE_REQUIRED`; an upgrade on any other path a 404. The route
 * is hidden from /openapi.json (not an HTTP endpoint).
 *
 * The hub starts with the app (`onReady`; its outbox tail runs while someone is subscribed) and stops
 * in `preClose`: the heartbeat and the outbox tail stop, every connection is closed with 1001 and dropped if it does not answer within a second. It is
 * preClose and not onClose because the HTTP server's close waits for the upgraded sockets, and the
 * store (closed in an onClose hook of server.ts) must outlive the tail's last poll.
 */
import { randomBytes } from "node:crypto";
import type { TypeBoxTypeProvider } from "@fastify/type-provider-typebox";
import websocketPlugin from "@fastify/websocket";
import type { FastifyInstance } from "fastify";
import type { Registry } from "prom-client";
import { Type } from "typebox";
import type { WebsocketSettings } from "../config/configSchema.ts";
import { loggableError } from "../logging/loggableError.ts";
import type { Store } from "../store/createStore.ts";
import { startHeartbeat, type Heartbeat } from "./heartbeat.ts";
import { createStatusHub, type StatusHub } from "./statusHub.ts";
import { acceptConnection, type WebsocketConnection } from "./websocketConnection.ts";
import { CloseCode } from "./websocketMessages.ts";
import { createWebsocketMetrics } from "./websocketMetrics.ts";
import { ServiceError } from "../errors/serviceError.ts";

/** Largest frame a client may send (a subscribe message is ~150 bytes); larger → closed with 1009. */
export const MAX_MESSAGE_BYTES = 4 * 1024;

/** The errorCode of a plain GET on the websocket path. */
export const UPGRADE_REQUIRED = "UPGRADE_REQUIRED";

/** No query parameters (an `apiKey` one is refused by name before validation: API_KEY_IN_URL). */
const WebsocketQuery = Type.Object({}, { additionalProperties: false });

export type WebsocketRouteOptions = {
  store: Store;
  settings: WebsocketSettings;
  registry: Registry;
  /** Scrubbed from logged errors. */
  secrets: readonly string[];
};

/** A connection id in the style of the public service's (`9nqpzwmwh86`): 64 random bits in base 36. */
const connectionId = () => randomBytes(8).readBigUInt64BE().toString(36);

/**
 * Registers the route on `fastify` (the service's app: its API key hook sets `request.apiKey`, its error
 * handler answers the thrown ServiceErrors). Typed as any Fastify instance so the websocket does not
 * depend on the HTTP layer that registers it.
 */
export async function registerWebsocketRoute(fastify: FastifyInstance, options: WebsocketRouteOptions): Promise<StatusHub> {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const { settings, secrets } = options;
  const metrics = createWebsocketMetrics(options.registry);
  const hub = createStatusHub({
    engine: options.store.engine,
    getQuote: (requestId) => options.store.getQuote(requestId),
    pollIntervalMs: settings.pollIntervalMs,
    metrics,
    onError: (error) => app.log.error({ err: loggableError(error, secrets, false) }, "websocket: reading the outbox failed (retrying)"),
  });
  const connections = new Set<WebsocketConnection>();
  let heartbeat: Heartbeat | undefined;

  // Status changes committed by this process reach subscribers at once; other replicas' within a poll.
  let stopNudging: (() => void) | undefined;
  app.addHook("onReady", async () => {
    await hub.start();
    stopNudging = options.store.onOutboxChange(() => hub.nudge());
    heartbeat = startHeartbeat(connections, settings.heartbeatMs);
  });
  // Before @fastify/websocket's own preClose (which closes the ws server), so clients get 1001.
  app.addHook("preClose", async () => {
    stopNudging?.();
    heartbeat?.stop();
    await hub.stop();
    const open = [...connections];
    for (const connection of open) connection.close(CloseCode.GOING_AWAY, "server shutting down", "shutdown");
    await Promise.all(open.map((connection) => connection.closed));
  });

  await app.register(websocketPlugin, {
    options: { maxPayload: MAX_MESSAGE_BYTES },
    // ws itself closes the connection on a protocol error (1002, 1009 over maxPayload, …): only log it.
    errorHandler: (error, _socket, request) => request.log.info({ err: loggableError(error, secrets, false) }, "websocket error"),
  });

  // Upgrades are served on the websocket path only (elsewhere @fastify/websocket would complete the
  // handshake and then close): a 404 before any handshake.
  app.addHook("onRequest", async (request) => {
    if (request.ws && request.routeOptions.url !== settings.path) {
      throw new ServiceError("NOT_FOUND", `websocket upgrades are served on ${settings.path} only`);
    }
  });

  app.route({
    method: "GET",
    url: settings.path,
    schema: { hide: true, querystring: WebsocketQuery },
    preValidation: async (request) => {
      if (Object.hasOwn(request.query as object, "apiKey")) {
        throw new ServiceError("API_KEY_IN_URL", "an API key is never taken from the URL: send it in the x-api-key header, or connect without one (rotate a key sent in a URL)");
      }
    },
    handler: async (_request, reply) =>
      reply
        .code(426)
        .header("upgrade", "websocket")
        .send({ message: `${settings.path} is a websocket: connect with an Upgrade: websocket request`, errorCode: UPGRADE_REQUIRED }),
    wsHandler: (socket, request) => {
      const id = connectionId();
      const connection = acceptConnection(socket, {
        id,
        hub,
        limits: settings,
        metrics,
        onError: (error) => request.log.error({ err: loggableError(error, secrets, false), connectionId: id }, "websocket subscription failed"),
      });
      connections.add(connection);
      request.log.debug({ connectionId: id, apiKeyId: request.apiKey?.id }, "websocket connected");
      void connection.closed.then(() => connections.delete(connection));
    },
  });
  return hub;
}

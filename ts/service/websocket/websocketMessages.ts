/**
 * The websocket protocol's messages (README.md), matching the public service's client
 * (@relayprotocol/relay-sdk `trackRequestStatus`): what a client may send, parsed and validated, and
 * every message the server sends, built here and nowhere else.
 */
import { STATUS_EVENT, type StatusEventData } from "../events/statusEvent.ts";
import { ServiceError, type ServiceErrorOptions } from "../errors/serviceError.ts";
import { decodeChecked } from "../model/storedValue.ts";
import { Bytes32 } from "../model/values.ts";

export const WebsocketErrorCode = {
  /** Not JSON, not a JSON object, binary, or no string `type`. */
  INVALID_MESSAGE: "INVALID_MESSAGE",
  /** `type` is neither `subscribe` nor `unsubscribe`. */
  UNKNOWN_MESSAGE_TYPE: "UNKNOWN_MESSAGE_TYPE",
  /** `event` is not `request.status.updated`. */
  UNSUPPORTED_EVENT: "UNSUPPORTED_EVENT",
  /** `filters` is not `{id}` with `id` = 0x + 64 hex digits. */
  INVALID_REQUEST_ID: "INVALID_REQUEST_ID",
  /** The connection already has `maxSubscriptionsPerConnection` subscriptions. */
  TOO_MANY_SUBSCRIPTIONS: "TOO_MANY_SUBSCRIPTIONS",
  /** More messages waiting on this connection than it may queue; this one was dropped. */
  TOO_MANY_MESSAGES: "TOO_MANY_MESSAGES",
  /** The subscription failed on the server's side (e.g. the database); it is not active. */
  INTERNAL_ERROR: "INTERNAL_ERROR",
} as const;
export type WebsocketErrorCode = (typeof WebsocketErrorCode)[keyof typeof WebsocketErrorCode];

export type Operation = "subscribe" | "unsubscribe";

/**
 * A message the server refuses. With `operation`, the error answers that subscribe/unsubscribe (sent
 * as its ack with `status: "error"`); without, it is a general `{type: "error"}` message.
 */
export class WebsocketMessageError extends ServiceError {
  readonly operation: Operation | undefined;
  constructor(code: WebsocketErrorCode, message: string, options: { operation?: Operation; cause?: unknown } = {}) {
    super(code, message, options.cause === undefined ? {} : { cause: options.cause });
    this.operation = options.operation;
  }
}

/** A valid client message; `requestId` is decoded to its canonical (lowercase) form, as requests are stored. */
export type ClientMessage = { type: Operation; event: typeof STATUS_EVENT; requestId: Bytes32 };

const REQUEST_ID = /^0x[0-9a-fA-F]{64}$/;

const isObject = (value: unknown): value is Record<string, unknown> =>
  value !== null && typeof value === "object" && !Array.isArray(value);

/**
 * Parses one text frame. Unknown top-level fields are ignored (clients of the public service may
 * add some); `filters` must be exactly `{id}`, since a filter Ferry does not understand would
 * silently widen the subscription. Error messages never echo the client's input.
 */
export function parseClientMessage(text: string): ClientMessage {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new WebsocketMessageError(WebsocketErrorCode.INVALID_MESSAGE, "message is not valid JSON");
  }
  if (!isObject(value)) throw new WebsocketMessageError(WebsocketErrorCode.INVALID_MESSAGE, "message must be a JSON object");
  if (typeof value.type !== "string") throw new WebsocketMessageError(WebsocketErrorCode.INVALID_MESSAGE, "type must be a string");
  if (value.type !== "subscribe" && value.type !== "unsubscribe") {
    throw new WebsocketMessageError(WebsocketErrorCode.UNKNOWN_MESSAGE_TYPE, 'type must be "subscribe" or "unsubscribe"');
  }
  const operation = value.type;
  if (value.event !== STATUS_EVENT) {
    throw new WebsocketMessageError(WebsocketErrorCode.UNSUPPORTED_EVENT, `event must be "${STATUS_EVENT}"`, { operation });
  }
  const filters = value.filters;
  if (!isObject(filters) || Object.keys(filters).some((key) => key !== "id") || typeof filters.id !== "string" || !REQUEST_ID.test(filters.id)) {
    throw new WebsocketMessageError(WebsocketErrorCode.INVALID_REQUEST_ID, "filters must be {id} with id = 0x + 64 hex digits", { operation });
  }
  return { type: operation, event: STATUS_EVENT, requestId: decodeChecked(Bytes32, filters.id) };
}

/** Sent once, first, on every connection. */
export const connectionReadyMessage = (connectionId: string) => ({ type: "connection", status: "ready", data: { id: connectionId } }) as const;

/** The ack of a subscribe or unsubscribe that succeeded. */
export const operationSuccessMessage = (operation: Operation, requestId: string) =>
  ({ type: operation, status: "success", data: { event: STATUS_EVENT, filters: { id: requestId } } }) as const;

/** The answer to a refused message: an error ack of its operation, or a general error. */
export function errorMessage(error: WebsocketMessageError): Record<string, unknown> {
  return error.operation
    ? { type: error.operation, status: "error", errorCode: error.code, message: error.message }
    : { type: "error", errorCode: error.code, message: error.message };
}

/** A status update: the event's `data` (../events/statusEvent.ts) and when this server sent it (Unix ms). */
export const statusUpdateMessage = (data: StatusEventData, publishedAt: number) => ({ event: STATUS_EVENT, data, publishedAt }) as const;

/** Close codes the server uses (besides ws's own 1009 for a frame over the size limit). */
export const CloseCode = {
  /** The server is shutting down. */
  GOING_AWAY: 1001,
  /** A slow consumer: more than `maxBufferedBytes` waiting to be sent to it. */
  SLOW_CONSUMER: 1008,
} as const;

/**
 * The status hub: who is subscribed to which requestId, and the fan-out of the outbox's events
 * (./outboxTail.ts) to them. Each event's message is serialized once and sent to every subscriber of
 * its request.
 *
 * Subscribing sends, in this order: the ack, the request's current status (once, when it has one),
 * then every later change. The current status is the stored request's status record, or `waiting`
 * from the quote for a requestId quoted but not deposited yet (../model/publicRecords.ts); a requestId
 * Ferry has never seen gets no current status, only the changes that may come. The subscription is
 * registered before the current status is read, and events arriving meanwhile are held back, then
 * sent only when newer than what the current status already reflects (the request's latest event id
 * read in the same statement), so no change is lost or sent twice.
 */
import { statusEventData, type StatusEventData } from "../events/statusEvent.ts";
import { quoteStatusRecord, toStatusRecord } from "../model/publicRecords.ts";
import type { Queryable } from "../store/engine.ts";
import { requestWithLastEventId, type StreamedEvent } from "../store/eventStream.ts";
import type { StoredQuote } from "../store/quotes.ts";
import { createOutboxTail, type OutboxTail } from "./outboxTail.ts";
import { operationSuccessMessage, statusUpdateMessage } from "./websocketMessages.ts";
import type { WebsocketMetrics } from "./websocketMetrics.ts";
import type { Bytes32 } from "../model/values.ts";

/** What the hub sends to: one websocket connection. `send` may drop the message (closed, slow). */
export type HubConnection = { readonly id: string; send(text: string): void };

type Subscription = {
  connection: HubConnection;
  requestId: string;
  /** Events at or below this id are already reflected in the current status that was sent. */
  afterId: number;
  /** Events held back while the current status is read; null once live. */
  held: StreamedEvent[] | null;
};

export type StatusHubOptions = {
  engine: Queryable;
  /** The quote of a requestId (the store's getQuote): the `waiting` status before the deposit. */
  getQuote(requestId: Bytes32): Promise<StoredQuote | null>;
  pollIntervalMs: number;
  metrics?: WebsocketMetrics;
  onError?: (error: Error) => void;
  /** Clock for `publishedAt` (ms). Default Date.now. */
  now?: () => number;
};

export type StatusHub = {
  start(): Promise<void>;
  stop(): Promise<void>;
  /**
   * Subscribes `connection` to `requestId` (lowercase) and sends the ack, the current status, then
   * the changes. Subscribing twice to one request only acks again. Throws when the current status
   * cannot be read (the subscription is then removed and nothing was sent).
   */
  subscribe(connection: HubConnection, requestId: Bytes32): Promise<void>;
  /** Removes one subscription; returns whether it existed. */
  unsubscribe(connection: HubConnection, requestId: string): boolean;
  /** Removes every subscription of a connection (it closed). */
  disconnect(connection: HubConnection): void;
  /** Whether `connection` is subscribed to `requestId`. */
  has(connection: HubConnection, requestId: string): boolean;
  /** How many requests `connection` is subscribed to. */
  subscriptionCount(connection: HubConnection): number;
  /** Subscriptions over all connections. */
  readonly size: number;
  /** The outbox tail (its position and watched holes): it runs while the hub is started and someone is subscribed. */
  readonly tail: OutboxTail;
  /**
   * Events were just committed in this process: read the outbox now — when someone is subscribed.
   * With no subscriber there is no one to hurry for: the tail keeps its position at its poll interval,
   * and a later subscription gets the current status first (events it already reflects are skipped).
   */
  nudge(): void;
};

export function createStatusHub(options: StatusHubOptions): StatusHub {
  const now = options.now ?? Date.now;
  const ctx = { engine: options.engine };
  const byRequest = new Map<string, Set<Subscription>>();
  const byConnection = new Map<HubConnection, Map<string, Subscription>>();
  let size = 0;

  const setSize = (value: number) => {
    size = value;
    options.metrics?.subscriptions.set(size);
  };

  const updateText = (data: StatusEventData) => JSON.stringify(statusUpdateMessage(data, now()));

  const deliver = (subscription: Subscription, text: string) => {
    subscription.connection.send(text);
    options.metrics?.updatesSent.inc();
  };

  function onEvents(events: StreamedEvent[]): void {
    for (const event of events) {
      const subscribers = byRequest.get(event.requestId);
      if (!subscribers) continue;
      let text: string | undefined;
      for (const subscription of subscribers) {
        if (subscription.held) subscription.held.push(event);
        else if (event.id > subscription.afterId) deliver(subscription, (text ??= updateText(statusEventData(event.payload))));
      }
    }
  }

  const tail = createOutboxTail({
    engine: options.engine,
    pollIntervalMs: options.pollIntervalMs,
    onEvents,
    ...(options.onError ? { onError: options.onError } : {}),
  });

  // The tail runs while the hub is started and someone is subscribed: with nobody to send to, reading
  // every event of every replica at each poll interval is work for no one (issue 26: each replica's
  // tail was 0.8 store queries per intent). A subscription starts it before the request's current
  // status is read: the tail begins at the latest event id then, so every later event of the request is
  // either reflected in that status or delivered (a hole still committing is watched, as at any start).
  // Starts and stops happen in order, one at a time.
  let started = false;
  let tailRunning = false;
  let tailChange: Promise<void> = Promise.resolve();
  const settleTail = (): Promise<void> => {
    const next = tailChange.then(async () => {
      const wanted = started && size > 0;
      if (wanted && !tailRunning) {
        await tail.start();
        tailRunning = true;
      } else if (!wanted && tailRunning) {
        tailRunning = false;
        await tail.stop();
      }
    });
    tailChange = next.catch(() => {});
    return next;
  };

  function remove(subscription: Subscription): boolean {
    const own = byConnection.get(subscription.connection);
    if (own?.get(subscription.requestId) !== subscription) return false;
    own.delete(subscription.requestId);
    if (own.size === 0) byConnection.delete(subscription.connection);
    const subscribers = byRequest.get(subscription.requestId)!;
    subscribers.delete(subscription);
    if (subscribers.size === 0) byRequest.delete(subscription.requestId);
    setSize(size - 1);
    if (size === 0) void settleTail();
    return true;
  }

  /** The current status of a request and the last event id it reflects; null for an id Ferry has never seen. */
  async function currentStatus(requestId: Bytes32): Promise<{ data: StatusEventData; afterId: number } | null> {
    const found = await requestWithLastEventId(ctx, requestId);
    if (found) return { data: { ...toStatusRecord(found.request), requestId }, afterId: found.lastEventId };
    const quote = await options.getQuote(requestId);
    // Not deposited yet: the request's first event (its creation) comes later and is sent in full.
    return quote ? { data: { ...quoteStatusRecord(quote), requestId }, afterId: 0 } : null;
  }

  return {
    async start() {
      started = true;
      await settleTail();
    },
    async stop() {
      started = false;
      await settleTail();
    },
    nudge: () => {
      if (byRequest.size > 0) tail.nudge();
    },

    async subscribe(connection, requestId) {
      let own = byConnection.get(connection);
      if (own?.has(requestId)) {
        connection.send(JSON.stringify(operationSuccessMessage("subscribe", requestId)));
        return;
      }
      const subscription: Subscription = { connection, requestId, afterId: 0, held: [] };
      if (!own) byConnection.set(connection, (own = new Map()));
      own.set(requestId, subscription);
      let subscribers = byRequest.get(requestId);
      if (!subscribers) byRequest.set(requestId, (subscribers = new Set()));
      subscribers.add(subscription);
      setSize(size + 1);

      let current: Awaited<ReturnType<typeof currentStatus>>;
      try {
        await settleTail();
        current = await currentStatus(requestId);
      } catch (error) {
        remove(subscription);
        throw error;
      }
      // Unsubscribed or disconnected while reading: nothing more to send.
      if (byConnection.get(connection)?.get(requestId) !== subscription) return;
      options.metrics?.subscribes.inc();
      connection.send(JSON.stringify(operationSuccessMessage("subscribe", requestId)));
      if (current) {
        subscription.afterId = current.afterId;
        deliver(subscription, updateText(current.data));
      }
      const held = subscription.held ?? [];
      subscription.held = null;
      for (const event of held) {
        if (event.id > subscription.afterId) deliver(subscription, updateText(statusEventData(event.payload)));
      }
    },

    unsubscribe(connection, requestId) {
      const subscription = byConnection.get(connection)?.get(requestId);
      return subscription ? remove(subscription) : false;
    },

    disconnect(connection) {
      for (const subscription of [...(byConnection.get(connection)?.values() ?? [])]) remove(subscription);
    },

    has: (connection, requestId) => byConnection.get(connection)?.has(requestId) ?? false,
    subscriptionCount: (connection) => byConnection.get(connection)?.size ?? 0,
    get size() {
      return size;
    },
    tail,
  };
}

/**
 * Tails the outbox (`request_events`, ../store/eventStream.ts): from the largest id at `start()`,
 * every `pollIntervalMs` it reads the events above its cursor and hands them, ascending by id, to
 * `onEvents`. Every replica writes to the same table in the transaction of each status change, so a
 * tail sees the status changes of all replicas.
 *
 * Late commits. On PostgreSQL a bigserial id is taken when the INSERT runs, not when its transaction
 * commits, so id 11 can become visible after id 12. A tail that only moved its cursor past 12 would
 * never deliver 11. So every id skipped over (a *hole*: below the cursor, not seen) is remembered and
 * asked for again on each poll until it shows up or `holeTimeoutMs` passes (a rolled-back transaction
 * leaves a hole that is never filled). At start, the holes among the last `startWindow` ids are
 * watched the same way (transactions in flight while the tail starts). An id is delivered at most
 * once: the cursor only moves forward and a hole is forgotten when delivered. Holes are bounded by
 * `maxHoles` (the oldest are dropped first).
 */
import type { Queryable } from "../store/engine.ts";
import { eventIdsBetween, eventsAfter, latestEventId, type StreamedEvent } from "../store/eventStream.ts";

export type OutboxTailOptions = {
  engine: Queryable;
  pollIntervalMs: number;
  /** Called once per poll with the new events, ascending by id (late commits after the newer ids of an earlier poll). */
  onEvents: (events: StreamedEvent[]) => void;
  /** A failed poll (the next one retries); called once per streak of failures. */
  onError?: (error: Error) => void;
  /** Rows per query; a full batch is followed by another query at once. Default 500. */
  batchSize?: number;
  /** How long a hole is asked for before it is taken for a rollback. Default 30 s. */
  holeTimeoutMs?: number;
  /** At most this many holes are watched. Default 10 000. */
  maxHoles?: number;
  /** Ids below the starting position checked for holes. Default 1 000. */
  startWindow?: number;
  /** Clock for hole expiry (ms). Default Date.now. */
  now?: () => number;
};

export type OutboxTail = {
  /** Reads the starting position and begins polling. */
  start(): Promise<void>;
  /** Stops polling; resolves after the poll in flight (if any) has finished. */
  stop(): Promise<void>;
  /** Polls once now (tests, and the loop itself). */
  poll(): Promise<void>;
  /** Asks the running loop to poll now rather than at its next tick (events were just written here). */
  nudge(): void;
  /** The largest id seen so far. */
  readonly position: number;
  /** Ids being watched for a late commit. */
  readonly holes: readonly number[];
};

export const OUTBOX_TAIL_DEFAULTS = { batchSize: 500, holeTimeoutMs: 30_000, maxHoles: 10_000, startWindow: 1_000 } as const;

export function createOutboxTail(options: OutboxTailOptions): OutboxTail {
  const batchSize = options.batchSize ?? OUTBOX_TAIL_DEFAULTS.batchSize;
  const holeTimeoutMs = options.holeTimeoutMs ?? OUTBOX_TAIL_DEFAULTS.holeTimeoutMs;
  const maxHoles = options.maxHoles ?? OUTBOX_TAIL_DEFAULTS.maxHoles;
  const startWindow = options.startWindow ?? OUTBOX_TAIL_DEFAULTS.startWindow;
  const now = options.now ?? Date.now;
  const ctx = { engine: options.engine };

  let cursor = 0;
  /** Hole id → when it was first seen missing. Map keeps insertion order: the oldest first. */
  const holes = new Map<number, number>();
  let running = false;
  let failing = false;
  let timer: NodeJS.Timeout | undefined;
  let inFlight: Promise<void> | undefined;

  const addHole = (id: number, at: number) => {
    holes.set(id, at);
    while (holes.size > maxHoles) holes.delete(holes.keys().next().value!);
  };

  const expireHoles = (at: number) => {
    for (const [id, since] of holes) {
      if (at - since < holeTimeoutMs) break; // insertion order ≈ age order
      holes.delete(id);
    }
  };

  /** One query; returns whether the batch was full (more may be waiting). */
  async function pollOnce(): Promise<boolean> {
    const at = now();
    expireHoles(at);
    const events = await eventsAfter(ctx, cursor, { ids: [...holes.keys()], limit: batchSize });
    const fresh: StreamedEvent[] = [];
    for (const event of events) {
      if (event.id <= cursor) {
        // A late commit filling a hole (or, if it is not one, an id already delivered: skip).
        if (holes.delete(event.id)) fresh.push(event);
        continue;
      }
      // Every id between the cursor and this one is a hole; only the newest maxHoles are kept.
      for (let id = Math.max(cursor + 1, event.id - maxHoles); id < event.id; id++) addHole(id, at);
      cursor = event.id;
      fresh.push(event);
    }
    if (fresh.length > 0) options.onEvents(fresh);
    return events.length >= batchSize;
  }

  // Polls never overlap (the loop's and a caller's): each waits for the previous one.
  let queue: Promise<void> = Promise.resolve();
  const poll = (): Promise<void> => (queue = queue.then(pollGuarded));

  async function pollGuarded(): Promise<void> {
    try {
      while ((await pollOnce()) && running) {
        // a full batch: read on at once
      }
      failing = false;
    } catch (error) {
      if (!failing) options.onError?.(error as Error);
      failing = true;
    }
  }

  // A nudge (an outbox write committed in this process) polls now instead of at the next tick; one
  // that comes while a poll runs makes the next poll follow at once.
  let nudged = false;
  const run = () => {
    timer = undefined;
    inFlight = poll().finally(() => {
      inFlight = undefined;
      schedule();
    });
  };
  const schedule = () => {
    if (!running) return;
    const delay = nudged ? 0 : options.pollIntervalMs;
    nudged = false;
    timer = setTimeout(run, delay);
    // The tail alone does not keep the process alive (the server's socket does).
    timer.unref();
  };

  return {
    async start() {
      if (running) return;
      cursor = await latestEventId(ctx);
      const from = Math.max(0, cursor - startWindow);
      const present = new Set(await eventIdsBetween(ctx, from, cursor));
      const at = now();
      for (let id = from + 1; id < cursor; id++) if (!present.has(id)) addHole(id, at);
      running = true;
      schedule();
    },
    async stop() {
      running = false;
      if (timer) clearTimeout(timer);
      timer = undefined;
      await inFlight;
    },
    poll,
    nudge() {
      if (!running) return;
      if (inFlight) {
        nudged = true;
        return;
      }
      if (timer) clearTimeout(timer);
      run();
    },
    get position() {
      return cursor;
    },
    get holes() {
      return [...holes.keys()];
    },
  };
}

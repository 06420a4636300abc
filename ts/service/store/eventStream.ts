/**
 * Reading the outbox (`request_events`) as a stream, for tailers such as the websocket hub
 * (../websocket/outboxTail.ts). Unlike ./outbox.ts (the webhook worker's undelivered-events queue)
 * these reads ignore `delivered_at`: every replica's tailer sees every event, whoever delivers the
 * webhooks. Plain functions over `{ engine }` (any Queryable: an engine, a pool, a transaction).
 */
import type { Queryable } from "./engine.ts";
import { OutboxPayload } from "./outbox.ts";
import { decodeStored } from "../model/storedValue.ts";
import type { StoredRequest } from "../model/storedRequest.ts";
import { REQUEST_COLUMNS, requestFromRow } from "./requests.ts";

export type EventStreamContext = { engine: Queryable };

/** One outbox row as a tailer needs it: its id (the stream position) and the frozen payload. */
export type StreamedEvent = { id: number; requestId: string; payload: OutboxPayload };

type StreamRow = { id: number | string; request_id: string; payload: unknown };

const toEvent = (row: StreamRow): StreamedEvent => ({
  id: Number(row.id),
  requestId: row.request_id,
  payload: decodeStored(OutboxPayload, row.payload, "request_events.payload", String(row.id)),
});

/** The largest event id so far (0 when the outbox is empty): where a tailer starting now begins. */
export async function latestEventId({ engine }: EventStreamContext): Promise<number> {
  const { rows } = await engine.query<{ max: number | string | null }>("SELECT max(id) AS max FROM request_events");
  return rows[0]?.max == null ? 0 : Number(rows[0].max);
}

/** The ids present among `(after, upTo]`, ascending (to find the holes a tailer must keep watching). */
export async function eventIdsBetween({ engine }: EventStreamContext, after: number, upTo: number): Promise<number[]> {
  const { rows } = await engine.query<{ id: number | string }>(
    "SELECT id FROM request_events WHERE id > $1 AND id <= $2 ORDER BY id",
    [after, upTo],
  );
  return rows.map((row) => Number(row.id));
}

/**
 * Events with an id above `after`, plus the events among `ids` (holes below `after` that may still be
 * filled by a transaction committing late), ascending by id, at most `limit` rows.
 */
export async function eventsAfter(
  { engine }: EventStreamContext,
  after: number,
  { ids = [], limit }: { ids?: readonly number[]; limit: number },
): Promise<StreamedEvent[]> {
  const { rows } =
    ids.length === 0
      ? await engine.query<StreamRow>("SELECT id, request_id, payload FROM request_events WHERE id > $1 ORDER BY id LIMIT $2", [after, limit])
      : await engine.query<StreamRow>(
          "SELECT id, request_id, payload FROM request_events WHERE id > $1 OR id = ANY($2::bigint[]) ORDER BY id LIMIT $3",
          [after, ids, limit],
        );
  return rows.map(toEvent);
}

/**
 * A request and the id of its latest event, read in one statement (one snapshot on PostgreSQL), so a
 * subscriber that is sent this request's current status can skip the events at or below that id.
 * `lastEventId` is 0 when the request has no event (it always has one: created with it).
 */
export async function requestWithLastEventId(
  { engine }: EventStreamContext,
  requestId: string,
): Promise<{ request: StoredRequest; lastEventId: number } | null> {
  const { rows } = await engine.query<Parameters<typeof requestFromRow>[0] & { last_event_id: number | string | null }>(
    `SELECT ${REQUEST_COLUMNS}, (SELECT max(e.id) FROM request_events e WHERE e.request_id = requests.id) AS last_event_id
       FROM requests WHERE id = $1`,
    [requestId],
  );
  const row = rows[0];
  if (!row) return null;
  return { request: requestFromRow(row), lastEventId: row.last_event_id == null ? 0 : Number(row.last_event_id) };
}

/**
 * The webhook worker's side of the outbox (`request_events.webhook_*`, migration 0004): claim due
 * events, record the outcome of an attempt. No network I/O happens in here; the worker posts between
 * `claimWebhookEvents` and `recordWebhookAttempt`, outside any transaction (PGlite is one connection).
 *
 * - **Claim**: one short transaction picks due pending events — only the oldest pending event of each
 *   request (per-request order), and for each endpoint (an API key's webhook) only while it is not
 *   paused and has fewer than `maxInFlightPerEndpoint` attempts in flight (leased, any replica's),
 *   at most up to that limit — then locks them with `FOR UPDATE … SKIP LOCKED` (replicas never pick the
 *   same row), and for each either settles it (`skipped` when it has nowhere to go, `failed` when its
 *   attempts are used up) or takes it: attempt number + 1, lease owner and expiry. An attempt whose
 *   worker died is logged `ABANDONED` then; it counts as an attempt.
 * - **Record**: one transaction writes the attempt's log row and, only if this worker still holds the
 *   lease for this attempt number, the event's new state (delivered / pending with a next attempt time /
 *   failed after the last attempt); and the endpoint's state: a delivery clears its failures, a failure
 *   counts one more and pauses it (migration 0009).
 * - **Release**: after the database was away, a worker gives back its own leases that no attempt of
 *   its uses (a claim that committed unheard of), `releaseUnusedWebhookLeases`.
 */
import { OutboxPayload } from "../outbox.ts";
import { decodeStored } from "../../model/storedValue.ts";
import { isoColumn, type Engine, type Queryable } from "../engine.ts";
import { openWebhookSecret, type WebhookSecretKeys } from "./webhookSecrets.ts";

export type WebhookJob = {
  eventId: number;
  requestId: string;
  /** The redelivery round (0 until the event is redelivered) and the 1-based attempt number in it. */
  round: number;
  attempt: number;
  payload: OutboxPayload;
  createdAt: string;
  keyId: string;
  url: string;
  headers: Record<string, string>;
  /** The plaintext API key to sign with; null when neither the current nor the previous secret key opens the stored ciphertext. */
  secret: string | null;
};

export type ClaimOptions = {
  owner: string;
  leaseMs: number;
  /** Attempts per round: 1 + retries. */
  maxAttempts: number;
  limit: number;
  /** What the stored API keys are encrypted under: the current key, and the previous one during a rotation. */
  secretKeys: WebhookSecretKeys;
  /** Attempts in flight to one endpoint at once, counted over every replica's leases; also skips paused endpoints. Default: no cap, no pause (the worker always sets it). */
  maxInFlightPerEndpoint?: number;
};

export type ClaimResult = {
  jobs: WebhookJob[];
  /** Events settled without an attempt (skipped, or failed after an abandoned last attempt): their successors are due now. */
  settled: number;
};

/** Why an event was skipped (its `lastError`). */
export const SKIP_REASON = {
  NO_API_KEY: "NO_API_KEY",
  API_KEY_REVOKED: "API_KEY_REVOKED",
  NO_WEBHOOK: "NO_WEBHOOK",
} as const;

export const ABANDONED = "ABANDONED";

type CandidateRow = {
  id: number;
  request_id: string;
  payload: OutboxPayload;
  created_at: string;
  webhook_round: number;
  webhook_attempts: number;
  webhook_lease_owner: string | null;
  webhook_lease_expires_at: string | null;
  api_key_id: string | null;
  revoked: boolean | null;
  webhook_url: string | null;
  webhook_headers: Record<string, string> | null;
  webhook_secret: string | null;
};

/** How many due events one claim looks at, oldest first, before capping them per endpoint. */
const CLAIM_SCAN = 1_000;

/** Whether an event's request has somewhere to send it (else the claim settles it `skipped`/`failed` without an attempt). */
const DELIVERABLE = `(r.api_key_id IS NOT NULL AND k.revoked_at IS NULL AND k.webhook_url IS NOT NULL AND k.webhook_secret IS NOT NULL
  AND e.webhook_attempts < $4)`;

/** Due: pending, its backoff over, not leased (or the lease lapsed), and the oldest pending event of its request. */
const DUE = `e.webhook_state = 'pending'
  AND (e.webhook_next_attempt_at IS NULL OR e.webhook_next_attempt_at <= $1::timestamptz)
  AND (e.webhook_lease_expires_at IS NULL OR e.webhook_lease_expires_at <= $1::timestamptz)
  AND NOT EXISTS (SELECT 1 FROM request_events p WHERE p.request_id = e.request_id AND p.id < e.id AND p.webhook_state = 'pending')`;

const CANDIDATE_COLUMNS = `e.id, e.request_id, e.payload, ${isoColumn("e.created_at", "created_at")}, e.webhook_round, e.webhook_attempts,
  e.webhook_lease_owner, ${isoColumn("e.webhook_lease_expires_at", "webhook_lease_expires_at")},
  r.api_key_id, k.revoked_at IS NOT NULL AS revoked, k.webhook_url, k.webhook_headers, k.webhook_secret`;

/** Without a per-endpoint cap: the oldest `limit` due events, locked (`SKIP LOCKED`: concurrent claims take the next ones). */
async function lockDue(tx: Queryable, at: string, limit: number): Promise<CandidateRow[]> {
  const { rows } = await tx.query<CandidateRow>(
    `SELECT ${CANDIDATE_COLUMNS}
     FROM request_events e
     JOIN requests r ON r.id = e.request_id
     LEFT JOIN api_keys k ON k.id = r.api_key_id
     WHERE ${DUE}
     ORDER BY e.id
     LIMIT $2
     FOR UPDATE OF e SKIP LOCKED`,
    [at, limit],
  );
  return rows;
}

/**
 * With a per-endpoint cap: 1. which events — due ones, oldest first, leaving out endpoints that are
 * paused or already have `maxInFlightPerEndpoint` attempts in flight (any replica's leases), and taking
 * at most what each endpoint has left (events with nowhere to go are not capped: they are settled
 * without an attempt); 2. lock those (`SKIP LOCKED`: one a concurrent claim took meanwhile is left to it).
 * Two replicas claiming at the same instant may each take an endpoint's remaining budget once.
 */
async function lockDueCapped(tx: Queryable, at: string, options: ClaimOptions): Promise<CandidateRow[]> {
  const { rows: picked } = await tx.query<{ id: number }>(
    `WITH inflight AS (
       SELECT r.api_key_id AS key_id, count(*)::int AS n
       FROM request_events e JOIN requests r ON r.id = e.request_id
       WHERE e.webhook_state = 'pending' AND e.webhook_lease_expires_at > $1::timestamptz
       GROUP BY r.api_key_id
     ), due AS (
       SELECT e.id, r.api_key_id, ${DELIVERABLE} AS deliverable, coalesce(i.n, 0) AS in_flight
       FROM request_events e
       JOIN requests r ON r.id = e.request_id
       LEFT JOIN api_keys k ON k.id = r.api_key_id
       LEFT JOIN inflight i ON i.key_id = r.api_key_id
       WHERE ${DUE}
         AND (NOT ${DELIVERABLE} OR ((k.webhook_paused_until IS NULL OR k.webhook_paused_until <= $1::timestamptz) AND coalesce(i.n, 0) < $3))
       ORDER BY e.id
       LIMIT $5
     ), ranked AS (
       SELECT id, deliverable, in_flight, row_number() OVER (PARTITION BY api_key_id, deliverable ORDER BY id) AS rank FROM due
     )
     SELECT id FROM ranked WHERE NOT deliverable OR rank <= $3 - in_flight ORDER BY id LIMIT $2`,
    [at, options.limit, options.maxInFlightPerEndpoint, options.maxAttempts, CLAIM_SCAN],
  );
  if (picked.length === 0) return [];
  const { rows } = await tx.query<CandidateRow>(
    `SELECT ${CANDIDATE_COLUMNS}
     FROM request_events e
     JOIN requests r ON r.id = e.request_id
     LEFT JOIN api_keys k ON k.id = r.api_key_id
     WHERE e.id = ANY($2::bigint[]) AND ${DUE}
     ORDER BY e.id
     FOR UPDATE OF e SKIP LOCKED`,
    [at, picked.map((row) => row.id)],
  );
  return rows;
}

export async function claimWebhookEvents(engine: Pick<Engine, "transaction">, now: Date, options: ClaimOptions): Promise<ClaimResult> {
  const at = now.toISOString();
  return engine.transaction(async (tx) => {
    const rows = options.maxInFlightPerEndpoint === undefined ? await lockDue(tx, at, options.limit) : await lockDueCapped(tx, at, options);
    const jobs: WebhookJob[] = [];
    let settled = 0;
    const leaseUntil = new Date(now.getTime() + options.leaseMs).toISOString();
    for (const row of rows) {
      if (row.webhook_lease_owner !== null && row.webhook_attempts > 0) {
        // The previous attempt's worker never recorded it (killed, or stopped mid-send).
        await logAttempt(tx, { eventId: row.id, round: row.webhook_round, attempt: row.webhook_attempts, at: row.webhook_lease_expires_at ?? at, statusCode: null, error: ABANDONED, durationMs: 0 }, false);
      }
      const skip = !row.api_key_id ? SKIP_REASON.NO_API_KEY : row.revoked ? SKIP_REASON.API_KEY_REVOKED : !row.webhook_url || !row.webhook_secret ? SKIP_REASON.NO_WEBHOOK : null;
      if (skip || row.webhook_attempts >= options.maxAttempts) {
        await tx.query(
          `UPDATE request_events SET webhook_state = $2, webhook_last_error = coalesce($3, webhook_last_error), webhook_next_attempt_at = NULL,
             webhook_lease_owner = NULL, webhook_lease_expires_at = NULL WHERE id = $1`,
          [row.id, skip ? "skipped" : "failed", skip ?? (row.webhook_lease_owner !== null ? ABANDONED : null)],
        );
        settled++;
        continue;
      }
      const attempt = row.webhook_attempts + 1;
      jobs.push({
        eventId: row.id,
        requestId: row.request_id,
        round: row.webhook_round,
        attempt,
        payload: decodeStored(OutboxPayload, row.payload, "request_events.payload", String(row.id)),
        createdAt: row.created_at,
        keyId: row.api_key_id!,
        url: row.webhook_url!,
        headers: row.webhook_headers ?? {},
        secret: openWebhookSecret(options.secretKeys, row.api_key_id!, row.webhook_secret!)?.plaintext ?? null,
      });
    }
    if (jobs.length > 0) {
      await tx.query(
        `UPDATE request_events SET webhook_attempts = webhook_attempts + 1, webhook_lease_owner = $2, webhook_lease_expires_at = $3::timestamptz
         WHERE id = ANY($1::bigint[])`,
        [jobs.map((job) => job.eventId), options.owner, leaseUntil],
      );
    }
    return { jobs, settled };
  });
}

/**
 * Gives back the leases `owner` holds on pending events that none of its attempts uses (`inUse`: the
 * events it is posting or still has to record). After the database was away, a claim may have
 * committed without its worker hearing of it: those events are leased to it, never posted, and would
 * sit out the whole lease (holding their endpoint's in-flight slots). Their attempt was never made,
 * so its number is taken back; the next claim sends it. Only `owner`'s own leases are touched: another
 * replica's are live as far as this worker can tell. Returns the released event ids.
 */
export async function releaseUnusedWebhookLeases(engine: Pick<Engine, "transaction">, owner: string, inUse: readonly number[]): Promise<number[]> {
  const { rows } = await engine.transaction((tx) =>
    tx.query<{ id: number }>(
      `UPDATE request_events SET webhook_attempts = greatest(webhook_attempts - 1, 0), webhook_lease_owner = NULL, webhook_lease_expires_at = NULL
       WHERE webhook_lease_owner = $1 AND webhook_state = 'pending' AND NOT (id = ANY($2::bigint[]))
       RETURNING id`,
      [owner, [...inUse]],
    ),
  );
  return rows.map((row) => Number(row.id));
}

export type AttemptOutcome = {
  eventId: number;
  /** The endpoint's API key id (its webhook is the endpoint): its failures and pause are updated. */
  keyId?: string;
  round: number;
  attempt: number;
  /** When the attempt started (sending time). */
  at: Date;
  statusCode: number | null;
  error: string | null;
  durationMs: number;
  delivered: boolean;
};

/**
 * Records one attempt: its log row always (what happened is a fact even when the lease was lost), and
 * the event's new state only if `owner` still holds the lease for this attempt. `nextAttemptAt` is used
 * when the attempt failed and attempts remain; after the `maxAttempts`-th failure the event is `failed`.
 * Returns whether the event's state was updated.
 */
export async function recordWebhookAttempt(
  engine: Pick<Engine, "transaction">,
  owner: string,
  outcome: AttemptOutcome,
  options: {
    maxAttempts: number;
    nextAttemptAt: Date;
    now: Date;
    /** How long to pause the endpoint after its `failures`-th consecutive failed attempt (ms). Default: no pause. */
    endpointPauseMs?: (failures: number) => number;
  },
): Promise<boolean> {
  const error = outcome.error === null ? null : outcome.error.slice(0, 500);
  return engine.transaction(async (tx) => {
    const { rows } = await tx.query(
      `SELECT id FROM request_events WHERE id = $1 AND webhook_lease_owner = $2 AND webhook_round = $3 AND webhook_attempts = $4
         AND webhook_state = 'pending' FOR UPDATE`,
      [outcome.eventId, owner, outcome.round, outcome.attempt],
    );
    const held = rows[0];
    // The log row and the endpoint's state are written either way: the attempt happened even when
    // the lease was lost meanwhile.
    await logAttempt(tx, { ...outcome, error, at: outcome.at.toISOString() }, true);
    if (outcome.keyId !== undefined) await recordEndpointOutcome(tx, outcome.keyId, outcome.delivered, { now: options.now, pauseMs: options.endpointPauseMs ?? (() => 0) });
    if (!held) return false;
    const state = outcome.delivered ? "delivered" : outcome.attempt >= options.maxAttempts ? "failed" : "pending";
    await tx.query(
      `UPDATE request_events SET webhook_state = $2, webhook_lease_owner = NULL, webhook_lease_expires_at = NULL,
         webhook_next_attempt_at = $3::timestamptz, webhook_last_status_code = $4, webhook_last_error = $5,
         webhook_delivered_at = $6::timestamptz
       WHERE id = $1`,
      [
        outcome.eventId,
        state,
        state === "pending" ? options.nextAttemptAt.toISOString() : null,
        outcome.statusCode,
        error,
        outcome.delivered ? options.now.toISOString() : null,
      ],
    );
    return true;
  });
}

/**
 * The endpoint's side of an attempt: a delivery clears its failures and any pause; a failure counts
 * one more consecutive failure and pauses it for `endpointPauseMs(failures)` from now (never shortening
 * a longer pause another replica set).
 */
async function recordEndpointOutcome(
  tx: Queryable,
  keyId: string,
  delivered: boolean,
  options: { now: Date; pauseMs: (failures: number) => number },
): Promise<void> {
  if (delivered) {
    await tx.query("UPDATE api_keys SET webhook_failures = 0, webhook_paused_until = NULL WHERE id = $1 AND (webhook_failures <> 0 OR webhook_paused_until IS NOT NULL)", [keyId]);
    return;
  }
  const { rows } = await tx.query<{ failures: number }>("UPDATE api_keys SET webhook_failures = webhook_failures + 1 WHERE id = $1 RETURNING webhook_failures AS failures", [keyId]);
  const failures = rows[0]?.failures;
  if (failures === undefined) return;
  const until = new Date(options.now.getTime() + options.pauseMs(failures)).toISOString();
  await tx.query(
    "UPDATE api_keys SET webhook_paused_until = greatest(coalesce(webhook_paused_until, $2::timestamptz), $2::timestamptz) WHERE id = $1",
    [keyId, until],
  );
}

/** One log row; `replace` lets a real record overwrite an ABANDONED placeholder for the same attempt. */
async function logAttempt(
  tx: Queryable,
  row: { eventId: number; round: number; attempt: number; at: string; statusCode: number | null; error: string | null; durationMs: number },
  replace: boolean,
): Promise<void> {
  await tx.query(
    `INSERT INTO webhook_attempts (event_id, round, attempt, at, status_code, error, duration_ms)
     VALUES ($1, $2, $3, $4::timestamptz, $5, $6, $7)
     ON CONFLICT (event_id, round, attempt) DO ${
       replace
         ? "UPDATE SET at = EXCLUDED.at, status_code = EXCLUDED.status_code, error = EXCLUDED.error, duration_ms = EXCLUDED.duration_ms WHERE webhook_attempts.error = 'ABANDONED'"
         : "NOTHING"
     }`,
    [row.eventId, row.round, row.attempt, row.at, row.statusCode, row.error, Math.max(0, Math.round(row.durationMs))],
  );
}

/** What /metrics reports of webhook delivery, database-wide (every replica's). */
export type WebhookBacklog = {
  /** Events per delivery state (every state present, 0 when none). */
  byState: Record<"pending" | "delivered" | "failed" | "skipped", number>;
  /** When the oldest pending event was written (unix ms), or null with none pending. */
  oldestPendingAt: number | null;
  /** Endpoints with pending events, failures or a pause: their API key id, pending events, consecutive failures, pause end (unix ms or null). */
  endpoints: Array<{ keyId: string; pending: number; consecutiveFailures: number; pausedUntil: number | null }>;
};

/**
 * The webhook backlog at this moment: one count by state (a scan of the outbox: scrape-time cost grows
 * with it), the oldest pending event (through the pending index), and per endpoint its pending events
 * and failure state.
 */
export async function webhookBacklog(db: Queryable): Promise<WebhookBacklog> {
  const byState: WebhookBacklog["byState"] = { pending: 0, delivered: 0, failed: 0, skipped: 0 };
  const { rows: states } = await db.query<{ state: keyof WebhookBacklog["byState"]; n: number }>(
    "SELECT webhook_state AS state, count(*)::int AS n FROM request_events GROUP BY webhook_state",
  );
  for (const { state, n } of states) byState[state] = Number(n);
  const { rows: oldest } = await db.query<{ at: number }>(
    "SELECT (extract(epoch FROM created_at) * 1000)::float8 AS at FROM request_events WHERE webhook_state = 'pending' ORDER BY id LIMIT 1",
  );
  const { rows: endpoints } = await db.query<{ key_id: string; pending: number; failures: number; paused_until: number | null }>(
    `SELECT k.id AS key_id, coalesce(p.n, 0)::int AS pending, k.webhook_failures AS failures,
            (extract(epoch FROM k.webhook_paused_until) * 1000)::float8 AS paused_until
     FROM api_keys k
     LEFT JOIN (SELECT r.api_key_id, count(*) AS n FROM request_events e JOIN requests r ON r.id = e.request_id
                WHERE e.webhook_state = 'pending' GROUP BY r.api_key_id) p ON p.api_key_id = k.id
     WHERE k.webhook_url IS NOT NULL AND (p.n > 0 OR k.webhook_failures > 0 OR k.webhook_paused_until IS NOT NULL)
     ORDER BY k.id`,
  );
  return {
    byState,
    oldestPendingAt: oldest[0] ? Math.round(Number(oldest[0].at)) : null,
    endpoints: endpoints.map((e) => ({
      keyId: e.key_id,
      pending: Number(e.pending),
      consecutiveFailures: Number(e.failures),
      pausedUntil: e.paused_until === null ? null : Math.round(Number(e.paused_until)),
    })),
  };
}

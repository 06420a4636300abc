/**
 * `startWebhookWorker({store, settings, secretKey})`: the delivery loop. Each tick
 * keeps up to `batchSize` attempts in flight:
 * 1. claims due events for the free slots (../store/webhooks/webhookOutbox.ts: one short transaction,
 *    `FOR UPDATE SKIP LOCKED`, the oldest pending event of each request only, attempt + 1, a lease);
 * 2. posts each, outside any transaction (./postWebhook.ts);
 * 3. records each outcome in its own transaction, guarded by the lease: delivered, pending again after
 *    the backoff (./backoff.ts), or failed after the last attempt.
 * `stop()` lets in-flight attempts finish for up to `graceMs`, then aborts them without recording: they
 * stay leased and are retried (logged ABANDONED) when the lease lapses.
 *
 * The database away (a retryable failure of a claim or a record): an attempt made meanwhile keeps its
 * outcome here and is recorded before the next claim — a delivery stays one delivery, not a lease that
 * lapses into a second POST — and, since a claim that failed may have committed unheard of, the next
 * claim first gives back this worker's leases that no attempt of it uses
 * (../store/webhooks/webhookOutbox.ts `releaseUnusedWebhookLeases`). Other replicas' leases are theirs.
 */
import { randomUUID } from "node:crypto";
import { ConfigInvalidError } from "../config/configErrors.ts";
import { addressFilter } from "../config/addressFilter.ts";
import { CONFIG_DEFAULTS, type WebhookSettings } from "../config/configSchema.ts";
import type { Engine } from "../store/engine.ts";
import type { HostResolver } from "../store/webhooks/webhookDestination.ts";
import { claimWebhookEvents, recordWebhookAttempt, releaseUnusedWebhookLeases, type WebhookJob } from "../store/webhooks/webhookOutbox.ts";
import { validateWebhookUrl, WebhookError } from "../store/webhooks/webhookRules.ts";
import { WEBHOOK_SECRET_KEY_ENV, WEBHOOK_SECRET_KEY_PREVIOUS_ENV } from "../store/webhooks/webhookSecrets.ts";
import { isRetryable } from "../errors/serviceError.ts";
import { SILENT_LOG, errorFields, type Logger } from "../logging/logger.ts";
import { backoffDelayMs } from "./backoff.ts";
import { postWebhook, webhookBody, type WebhookPostResult } from "./postWebhook.ts";
import { startWorkerLoop } from "../worker/workerLoop.ts";

/**
 * What one worker runs with: the config's webhook settings without the process switch and the key
 * (passed decoded); the endpoint limits default to the config's defaults.
 */
export type WebhookWorkerSettings = Omit<WebhookSettings, "secretKey" | "previousSecretKey" | "enabled" | "maxInFlightPerEndpoint" | "denyNetworks"> &
  Partial<Pick<WebhookSettings, "maxInFlightPerEndpoint" | "denyNetworks">>;

export type WebhookWorkerOptions = {
  /**
   * `onOutboxChange` (else `onOutboxCommit`), when the store has it, wakes the loop as soon as a status
   * change commits — in this process, or (PostgreSQL) in any replica.
   */
  store: { engine: Pick<Engine, "transaction">; onOutboxCommit?: (listener: () => void) => () => void; onOutboxChange?: (listener: () => void) => () => void };
  settings: WebhookWorkerSettings;
  /** The 32-byte key the stored API keys are encrypted under (FERRY_WEBHOOK_SECRET_KEY). */
  secretKey: Uint8Array;
  /** The key they may still be under while a rotation runs (FERRY_WEBHOOK_SECRET_KEY_PREVIOUS): read only. */
  previousSecretKey?: Uint8Array;
  /** pino's call shape; only ids, attempt numbers, status codes and error codes are logged (never URLs, keys or bodies). */
  log?: Logger;
  /** This worker's lease owner id. Default: a random UUID. */
  owner?: string;
  now?: () => Date;
  /** The backoff jitter source, in [0, 1). */
  random?: () => number;
  /** How an endpoint's name is resolved, once per attempt (../store/webhooks/webhookDestination.ts). Default: the system resolver. */
  resolve?: HostResolver;
};

export type WebhookTickResult = { attempted: number; delivered: number; settled: number };

export type RunningWebhookWorker = {
  readonly owner: string;
  /** One claim → post → record pass for the free slots, awaited to the end (tests). Claims never overlap. */
  tick(): Promise<WebhookTickResult>;
  /** Stops the loop; in-flight attempts get `graceMs` (default 5000) to finish, then are abandoned under their lease. */
  stop(options?: { graceMs?: number }): Promise<void>;
};

export const DEFAULT_STOP_GRACE_MS = 5000;

export function createWebhookWorker(options: WebhookWorkerOptions): RunningWebhookWorker {
  return createWorker(options);
}

function createWorker(options: WebhookWorkerOptions): InternalWorker {
  const { settings, secretKey, previousSecretKey } = options;
  // A lease shorter than an attempt could let another worker send the same event while it is still in flight.
  if (!(settings.leaseMs > settings.timeoutMs)) throw new ConfigInvalidError("webhooks.leaseMs", "must be greater than webhooks.timeoutMs");
  for (const [name, key] of [[WEBHOOK_SECRET_KEY_ENV, secretKey], [WEBHOOK_SECRET_KEY_PREVIOUS_ENV, previousSecretKey]] as const) {
    if (key !== undefined && key.length !== 32) throw new WebhookError("WEBHOOK_SECRET_KEY_INVALID", `${name} must be 32 bytes`, { field: name });
  }
  const engine = options.store.engine;
  const log = options.log ?? SILENT_LOG;
  const owner = options.owner ?? randomUUID();
  const now = options.now ?? (() => new Date());
  const random = options.random ?? Math.random;
  const maxAttempts = settings.maxRetries + 1;
  const shutdown = new AbortController();
  const denied = addressFilter(settings.denyNetworks ?? CONFIG_DEFAULTS.webhooks.denyNetworks);

  const attempt = async (job: WebhookJob): Promise<WebhookPostResult> => {
    try {
      validateWebhookUrl(job.url, { allowHttp: settings.allowHttp });
    } catch {
      return { delivered: false, statusCode: null, error: "INVALID_WEBHOOK_URL", durationMs: 0, aborted: false };
    }
    if (job.secret === null) return { delivered: false, statusCode: null, error: "WEBHOOK_SECRET_UNREADABLE", durationMs: 0, aborted: false };
    return postWebhook({
      url: job.url,
      headers: job.headers,
      eventId: job.eventId,
      body: webhookBody(job.payload),
      secret: job.secret,
      timestamp: Math.floor(now().getTime() / 1000),
      timeoutMs: settings.timeoutMs,
      signal: shutdown.signal,
      denied,
      ...(options.resolve ? { resolve: options.resolve } : {}),
    });
  };

  /** An attempt made, its outcome not recorded yet. */
  type Made = { job: WebhookJob; at: Date; finished: Date; result: WebhookPostResult };
  /** Attempts whose record failed while the database was away, by event id: recorded before the next claim. */
  const unrecorded = new Map<number, Made>();
  /** Attempts whose record failed for good (not retryable): their lease is left to lapse, never released. */
  const lapsing = new Set<number>();
  /** A claim or a record failed: this worker may hold leases it does not know of. */
  let leasesInDoubt = false;

  /** Records an attempt (its outcome as of when it finished); throws when the database does not take it. */
  const record = async ({ job, at, finished, result }: Made): Promise<void> => {
    const fields = { eventId: job.eventId, requestId: job.requestId, attempt: job.attempt, statusCode: result.statusCode, error: result.error };
    const recorded = await recordWebhookAttempt(
      engine,
      owner,
      { eventId: job.eventId, keyId: job.keyId, round: job.round, attempt: job.attempt, at, statusCode: result.statusCode, error: result.error, durationMs: result.durationMs, delivered: result.delivered },
      {
        maxAttempts,
        now: finished,
        nextAttemptAt: new Date(finished.getTime() + backoffDelayMs(job.attempt, settings, random)),
        // The endpoint backs off on the events' schedule, by its consecutive failures.
        endpointPauseMs: (failures) => backoffDelayMs(failures, settings, random),
      },
    );
    if (!recorded) log.warn(fields, "webhook attempt finished after its lease was lost; logged, state left to the new holder");
    else if (result.delivered) log.debug(fields, "webhook delivered");
    else if (job.attempt >= maxAttempts) log.error(fields, "webhook delivery failed: retries exhausted");
    else log.warn(fields, "webhook attempt failed; will retry");
  };

  const deliver = async (job: WebhookJob): Promise<boolean> => {
    const at = now();
    const result = await attempt(job);
    if (result.aborted) return false;
    const made: Made = { job, at, finished: now(), result };
    try {
      await record(made);
    } catch (error) {
      const fields = { eventId: job.eventId, requestId: job.requestId, attempt: job.attempt, statusCode: result.statusCode, err: errorFields(error) };
      leasesInDoubt = true;
      if (isRetryable(error)) {
        unrecorded.set(job.eventId, made);
        log.warn(fields, "recording a webhook attempt failed; it is recorded once the database answers again");
      } else {
        lapsing.add(job.eventId);
        log.error(fields, "recording a webhook attempt failed; the lease will lapse and it is retried");
      }
    }
    return result.delivered;
  };

  /**
   * Before a claim, once the database answers again: records the attempts it missed, then gives back
   * this worker's leases that no attempt uses. Throws (the pass backs off) while it still does not answer.
   */
  const settleAfterOutage = async () => {
    for (const [eventId, made] of unrecorded) {
      try {
        await record(made);
      } catch (error) {
        if (isRetryable(error)) throw error;
        lapsing.add(eventId);
        log.error({ eventId, err: errorFields(error) }, "recording a webhook attempt failed; the lease will lapse and it is retried");
      }
      unrecorded.delete(eventId);
    }
    if (!leasesInDoubt) return;
    const inUse = [...inFlight.keys(), ...unrecorded.keys(), ...lapsing];
    const released = await releaseUnusedWebhookLeases(engine, owner, inUse);
    leasesInDoubt = false;
    if (released.length > 0) log.info({ eventIds: released }, "webhook leases of claims never sent released after the database came back");
  };

  /** Attempts being posted or recorded, by event id. */
  const inFlight = new Map<number, Promise<boolean>>();
  let onSettled: () => void = () => {};

  /** Claims as many due events as there are free slots and starts posting them; resolves once they are claimed. */
  const fill = async (): Promise<{ free: number; started: Promise<boolean>[]; settled: number }> => {
    const free = settings.batchSize - inFlight.size;
    if (free <= 0) return { free, started: [], settled: 0 };
    await settleAfterOutage();
    let claimed;
    try {
      claimed = await claimWebhookEvents(engine, now(), {
        owner,
        leaseMs: settings.leaseMs,
        maxAttempts,
        limit: free,
        secretKeys: { current: secretKey, ...(previousSecretKey ? { previous: previousSecretKey } : {}) },
        maxInFlightPerEndpoint: settings.maxInFlightPerEndpoint ?? CONFIG_DEFAULTS.webhooks.maxInFlightPerEndpoint,
      });
    } catch (error) {
      // Its commit may have happened with the answer lost: leases this worker never heard of.
      leasesInDoubt = true;
      throw error;
    }
    const { jobs, settled } = claimed;
    const started = jobs.map((job) => {
      const delivery: Promise<boolean> = deliver(job).finally(() => {
        inFlight.delete(job.eventId);
        onSettled();
      });
      inFlight.set(job.eventId, delivery);
      return delivery;
    });
    return { free, started, settled };
  };

  let filling: Promise<unknown> | null = null;
  const serialFill = async () => {
    while (filling) await filling.catch(() => {});
    const current = fill();
    filling = current;
    try {
      return await current;
    } finally {
      filling = null;
    }
  };

  return {
    owner,
    async tick() {
      const { started, settled } = await serialFill();
      const results = await Promise.all(started);
      return { attempted: started.length, delivered: results.filter(Boolean).length, settled };
    },
    fill: async () => {
      const { free, started, settled } = await serialFill();
      return { free, claimed: started.length, settled };
    },
    inFlight: () => inFlight.size,
    onSettled: (listener) => void (onSettled = listener),
    async stop({ graceMs = DEFAULT_STOP_GRACE_MS } = {}) {
      await filling?.catch(() => {});
      if (inFlight.size === 0) return;
      const timer = setTimeout(() => shutdown.abort(), graceMs);
      try {
        await Promise.allSettled([...inFlight.values()]);
      } finally {
        clearTimeout(timer);
      }
    },
  };
}

/**
 * The worker with its loop running: it claims whenever slots are free — at once after a full claim or
 * after events were settled without an attempt, as soon as an attempt finishes, otherwise every
 * `pollIntervalMs` — so one slow endpoint holds one slot, not the whole worker.
 */
export function startWebhookWorker(options: WebhookWorkerOptions): RunningWebhookWorker {
  const worker = createWorker(options);
  const log = options.log ?? SILENT_LOG;
  // Woken by a status change committed (here, or in a replica) and by an attempt that settled — also
  // while the loop is busy claiming: the claim in progress may have read the database before it.
  const loop = startWorkerLoop({
    intervalMs: options.settings.pollIntervalMs,
    wakeOn: (wake) => {
      worker.onSettled(wake);
      return (options.store.onOutboxChange ?? options.store.onOutboxCommit)?.(wake);
    },
    pass: async () => {
      const { free, claimed, settled } = await worker.fill();
      // Claim again at once after a full claim or after events settled without an attempt, while slots are free.
      return (settled > 0 || (claimed > 0 && claimed === free)) && worker.inFlight() < options.settings.batchSize;
    },
    // Consecutive failed claims (the database is down) back off up to 2 s: a log line every couple of
    // seconds during an outage, not one per poll.
    onFailure: (error, failures) => log[failureLevel(error)]({ err: errorFields(error), failures }, "webhook claim failed; retrying with backoff"),
    onRecovered: (failures) => log.info({ failures }, "webhook claims work again"),
  });
  return {
    owner: worker.owner,
    tick: worker.tick,
    async stop(stopOptions) {
      await loop.stop();
      await worker.stop(stopOptions);
    },
  };
}

/**
 * The loop goes on after any failure (other events, other replicas), but the error registry says whether
 * waiting can fix it: a retryable one (a dropped connection) is a warning, a non-retryable one (a row
 * that does not decode, a configuration error) an error for an operator.
 */
function failureLevel(error: unknown): "warn" | "error" {
  return isRetryable(error) ? "warn" : "error";
}

type InternalWorker = RunningWebhookWorker & {
  fill(): Promise<{ free: number; claimed: number; settled: number }>;
  inFlight(): number;
  onSettled(listener: () => void): void;
};

import pg from "pg";
import { ServiceError } from "../errors/serviceError.ts";
import { errorFields, SILENT_LOG, type Logger } from "../logging/logger.ts";
import { asDatabaseError, DatabaseUnavailableError } from "./databaseUnavailable.ts";
import type { Engine, Queryable, Row } from "./engine.ts";
import { isStalePlan, statementNames } from "./preparedStatements.ts";

const INT8_OID = 20;

/** Pool size and timeouts (config `database.*`, ../config/README.md); defaults for tests and the CLI. */
export type PostgresSettings = {
  poolSize: number;
  connectTimeoutMs: number;
  statementTimeoutMs: number;
  idleInTransactionTimeoutMs: number;
  /** Data statements prepared once per connection under a name (./preparedStatements.ts); off: every statement unnamed. */
  preparedStatements: boolean;
};

export const DEFAULT_POSTGRES_SETTINGS: PostgresSettings = { poolSize: 20, connectTimeoutMs: 5000, statementTimeoutMs: 30_000, idleInTransactionTimeoutMs: 60_000, preparedStatements: true };

/** How long the LISTEN connection waits before reconnecting, at most (it doubles from 100 ms). */
const LISTEN_MAX_BACKOFF_MS = 5000;

/**
 * PostgreSQL through a pg Pool. `schema`, when given, is created if missing and becomes every
 * connection's search_path (tests use one fresh schema per run so that runs never collide); a name
 * that is not a lower-case SQL identifier is INVALID_INPUT (it is spliced into SQL).
 *
 * Resilience (the database may go away at any moment — a restart, a failover, a network cut):
 * - every client, idle or checked out, has an `error` listener, so a connection the server ends never
 *   becomes an uncaught exception; a transaction's client that broke is destroyed, not returned;
 * - connect, statement (`statement_timeout`, server side, and a client-side read timeout a little
 *   above it for a server that stopped answering) and idle-in-transaction timeouts are set;
 * - an error that is about the database's availability is DATABASE_UNAVAILABLE
 *   (./databaseUnavailable.ts): 503 + Retry-After on the API, back off in the workers;
 * - data statements are prepared once per connection under a name (./preparedStatements.ts);
 * - `listen(channel)` keeps one dedicated connection LISTENing, reconnecting with backoff, and calls
 *   back after every reconnect too (notifications sent while it was away are lost, so the caller
 *   re-reads); the notifications its own pool's connections sent are left out (the store told its
 *   listeners of those writes when they committed).
 */
export async function createPostgresEngine({
  databaseUrl,
  schema,
  settings = DEFAULT_POSTGRES_SETTINGS,
  log = SILENT_LOG,
}: {
  databaseUrl: string;
  schema?: string;
  settings?: PostgresSettings;
  log?: Logger;
}): Promise<Engine> {
  if (schema !== undefined && !/^[a-z_][a-z0-9_]*$/.test(schema)) throw new ServiceError("INVALID_INPUT", "schema must be a lower-case SQL identifier ([a-z_][a-z0-9_]*)");
  if (schema !== undefined) {
    const admin = new pg.Client({ connectionString: databaseUrl, connectionTimeoutMillis: settings.connectTimeoutMs });
    admin.on("error", () => {});
    try {
      await admin.connect();
      await admin.query(`CREATE SCHEMA IF NOT EXISTS ${schema}`);
    } catch (error) {
      // Two connections creating the same schema at once: the loser sees a duplicate, which is fine.
      const code = (error as { code?: string }).code;
      if (code !== "23505" && code !== "42P06") throw asDatabaseError(error);
    } finally {
      await admin.end().catch(() => {});
    }
  }
  const types = {
    getTypeParser: ((oid: number, format?: "text" | "binary") =>
      oid === INT8_OID ? (value: string) => Number(value) : pg.types.getTypeParser(oid, format)) as typeof pg.types.getTypeParser,
  };
  const clientConfig = {
    connectionString: databaseUrl,
    options: schema === undefined ? undefined : `-c search_path=${schema}`,
    types,
    connectionTimeoutMillis: settings.connectTimeoutMs,
    keepAlive: true,
  };
  const pool = new pg.Pool({
    ...clientConfig,
    max: settings.poolSize,
    statement_timeout: settings.statementTimeoutMs,
    idle_in_transaction_session_timeout: settings.idleInTransactionTimeoutMs,
    // A server that stopped answering (no RST, no FIN) must not hold a caller forever.
    query_timeout: settings.statementTimeoutMs + 5000,
  });
  let lastErrorLog = 0;
  const onConnectionError = (error: Error) => {
    // One line per second at most: a server going away ends every connection at once.
    const now = Date.now();
    if (now - lastErrorLog < 1000) return;
    lastErrorLog = now;
    log.warn({ err: errorFields(error) }, "database connection lost");
  };
  // Idle clients: the pool emits their errors. Checked-out clients emit their own: every client gets a
  // listener when it is created, so neither can crash the process.
  pool.on("error", onConnectionError);
  // The server processes behind this pool's connections: a notification one of them sent is this
  // process's own write, whose listeners the store has told already (see `listen`).
  const ownBackends = new Set<number>();
  const backendOf = (client: pg.PoolClient) => (client as pg.PoolClient & { processID?: number | null }).processID ?? undefined;
  pool.on("connect", (client) => {
    client.on("error", onConnectionError);
    const backend = backendOf(client);
    if (backend !== undefined) ownBackends.add(backend);
  });
  pool.on("remove", (client) => {
    const backend = backendOf(client);
    if (backend !== undefined) ownBackends.delete(backend);
  });

  // Data statements are prepared once per connection under a name (./preparedStatements.ts).
  const names = statementNames(settings.preparedStatements ? undefined : 0);
  const wrap = (q: pg.Pool | pg.PoolClient): Queryable => ({
    async query<T extends Row>(sql: string, params: readonly unknown[] = []) {
      const run = (name: string | undefined) => q.query(name === undefined ? { text: sql, values: [...params] } : { name, text: sql, values: [...params] });
      const name = names.nameOf(sql);
      try {
        const result = await run(name).catch(async (error: unknown) => {
          if (name === undefined || !isStalePlan(error)) throw error;
          // Its plan went stale on this connection (another process migrated): never named again here.
          // Outside a transaction it runs again at once, unnamed; inside one the transaction has failed.
          names.forget(sql);
          if (q !== pool) throw error;
          return run(undefined);
        });
        return { rows: result.rows as T[], rowCount: result.rowCount ?? 0 };
      } catch (error) {
        throw asDatabaseError(error);
      }
    },
    async exec(sql: string) {
      try {
        await q.query(sql);
      } catch (error) {
        throw asDatabaseError(error);
      }
    },
  });

  const listeners = new Set<ListenConnection>();
  return {
    kind: "postgres",
    ...wrap(pool),
    async transaction(fn) {
      let client: pg.PoolClient;
      try {
        client = await pool.connect();
      } catch (error) {
        throw asDatabaseError(error);
      }
      let broken: Error | undefined;
      try {
        await client.query("BEGIN");
        const result = await fn(wrap(client));
        await client.query("COMMIT");
        return result;
      } catch (error) {
        const mapped = asDatabaseError(error);
        if (mapped instanceof DatabaseUnavailableError) broken = error as Error;
        else await client.query("ROLLBACK").catch((rollbackError: Error) => (broken = rollbackError));
        throw mapped;
      } finally {
        // A client whose connection broke is destroyed instead of going back to the pool.
        client.release(broken);
      }
    },
    async listen(channel, onNotify) {
      if (!/^[a-z_][a-z0-9_]*$/.test(channel)) throw new ServiceError("INVALID_INPUT", "channel must be a lower-case SQL identifier");
      const connection = listenConnection({ clientConfig, channel, onNotify, fromElsewhere: (backend) => !ownBackends.has(backend), log });
      listeners.add(connection);
      await connection.ready;
      return async () => {
        listeners.delete(connection);
        await connection.close();
      };
    },
    close: async () => {
      await Promise.all([...listeners].map((l) => l.close()));
      await pool.end();
    },
  };
}

type ListenConnection = { ready: Promise<void>; close(): Promise<void> };

/**
 * One client that LISTENs on `channel`, reconnecting (100 ms, doubling up to 5 s) whenever its
 * connection breaks; `onNotify` runs on every notification sent from elsewhere and after every
 * (re)connect. `ready`
 * resolves after the first attempt, successful or not (a database down at start is retried).
 */
function listenConnection(args: {
  clientConfig: pg.ClientConfig;
  channel: string;
  onNotify: () => void;
  /** False for a notification sent by one of this process's own connections (it is not passed on). */
  fromElsewhere: (backend: number) => boolean;
  log: Logger;
}): ListenConnection {
  let closed = false;
  let client: pg.Client | undefined;
  let timer: NodeJS.Timeout | undefined;
  let backoff = 100;
  const notify = () => {
    try {
      args.onNotify();
    } catch {
      // The listener's failure is its own.
    }
  };
  const connect = async (): Promise<void> => {
    if (closed) return;
    const next = new pg.Client(args.clientConfig);
    client = next;
    let failed = false;
    const retry = () => {
      if (failed || closed) return;
      failed = true;
      void next.end().catch(() => {});
      timer = setTimeout(() => void connect(), backoff);
      backoff = Math.min(backoff * 2, LISTEN_MAX_BACKOFF_MS);
    };
    next.on("error", retry);
    next.on("end", retry);
    next.on("notification", (message) => {
      if (args.fromElsewhere(message.processId)) notify();
    });
    try {
      await next.connect();
      await next.query(`LISTEN ${args.channel}`);
      backoff = 100;
      notify();
    } catch (error) {
      if (!closed) args.log.warn({ channel: args.channel, err: errorFields(error) }, "database LISTEN connection failed; retrying");
      retry();
    }
  };
  const ready = connect();
  return {
    ready,
    async close() {
      closed = true;
      if (timer) clearTimeout(timer);
      await client?.end().catch(() => {});
    },
  };
}

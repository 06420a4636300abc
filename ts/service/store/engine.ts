/**
 * The tiny database interface the repositories are written against, so they run unchanged on the
 * embedded engine (PGlite) and on PostgreSQL (pg Pool). Both engines parse int8 as a JS number
 * (chain ids, blocks and outbox ids fit in 2^53) and jsonb as parsed JSON.
 */

export type Row = Record<string, unknown>;

export interface Queryable {
  /** One statement, `$1…` parameters. */
  query<T extends Row = Row>(sql: string, params?: readonly unknown[]): Promise<{ rows: T[]; rowCount: number }>;
  /** Several statements, no parameters (migrations). */
  exec(sql: string): Promise<void>;
}

export interface Engine extends Queryable {
  readonly kind: "pglite" | "postgres";
  /** Runs `fn` in one transaction: commits when it resolves, rolls back when it throws. */
  transaction<T>(fn: (tx: Queryable) => Promise<T>): Promise<T>;
  /**
   * PostgreSQL only: calls `onNotify` on every NOTIFY on `channel` from another process (another
   * engine's connections: a replica, the CLI, a second store in this process) and after every
   * reconnect of the listening connection. A NOTIFY sent by one of this engine's own connections is
   * not passed on: the process that wrote knows of its write already. Resolves to the unsubscribe function.
   */
  listen?(channel: string, onNotify: () => void): Promise<() => Promise<void>>;
  close(): Promise<void>;
}

/**
 * What repositories run on: queries plus `transaction`, which opens one on an engine and simply joins
 * the current one inside a transaction, so a repository call composes into a caller's transaction.
 */
export interface Db extends Queryable {
  transaction<T>(fn: (tx: Db) => Promise<T>): Promise<T>;
}

export function engineDb(engine: Engine): Db {
  return {
    query: (sql, params) => engine.query(sql, params),
    exec: (sql) => engine.exec(sql),
    transaction: (fn) => engine.transaction((tx) => fn(joinedDb(tx))),
  };
}

function joinedDb(tx: Queryable): Db {
  const db: Db = {
    query: (sql, params) => tx.query(sql, params),
    exec: (sql) => tx.exec(sql),
    transaction: (fn) => fn(db),
  };
  return db;
}

/** The repositories' context: the database and the injected clock. */
export type StoreContext = { db: Db; now: () => Date };

/** A column of type timestamptz(3) as an ISO 8601 string in UTC with milliseconds, on both engines. */
export function isoColumn(column: string, alias = column): string {
  return `to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS ${alias}`;
}

/**
 * When the database itself is the problem — the server is down, restarting, refusing connections,
 * the connection broke mid-query, or a statement ran past `statement_timeout` — a query fails with
 * `DATABASE_UNAVAILABLE` (503, retryable: ../errors/errorRegistry.ts) instead of the driver's raw
 * error: routes answer 503 with Retry-After, the solver and the webhook worker back off and resume.
 * Errors that are about the statement (a constraint, a syntax error, a serialization failure) keep
 * their own identity. `isDatabaseUnavailable` is pure.
 */
import { ServiceError } from "../errors/serviceError.ts";

/** SQLSTATE classes/codes that mean "the server or the connection", not "the statement". */
const UNAVAILABLE_SQLSTATES = new Set([
  "57P01", // admin_shutdown (pg_ctl stop -m fast, a restart)
  "57P02", // crash_shutdown
  "57P03", // cannot_connect_now (starting up, shutting down, recovering)
  "57P05", // idle_session_timeout
  "57014", // query_canceled: statement_timeout (the server is too slow to answer now)
  "53300", // too_many_connections
  "53400", // configuration_limit_exceeded
  "25P03", // idle_in_transaction_session_timeout
]);

/** Node socket errors of a connection that could not be made or broke. */
const UNAVAILABLE_ERRNOS = new Set(["ECONNREFUSED", "ECONNRESET", "ETIMEDOUT", "EPIPE", "ENOTFOUND", "EHOSTUNREACH", "ENETUNREACH", "EAI_AGAIN", "ECONNABORTED"]);

/** node-postgres' own messages for a connection that broke or never came (it sets no code on these). */
const UNAVAILABLE_MESSAGES = [
  "Connection terminated",
  "timeout exceeded when trying to connect",
  "Client has encountered a connection error and is not queryable",
  "Client was closed and is not queryable",
  "Query read timeout",
  "the database system is",
  "Connection ended",
];

export function isDatabaseUnavailable(error: unknown): boolean {
  if (error instanceof DatabaseUnavailableError) return true;
  const e = error as { code?: unknown; message?: unknown; errors?: unknown } | null;
  if (!e || typeof e !== "object") return false;
  const code = typeof e.code === "string" ? e.code : "";
  if (UNAVAILABLE_SQLSTATES.has(code) || code.startsWith("08") || UNAVAILABLE_ERRNOS.has(code)) return true;
  const message = typeof e.message === "string" ? e.message : "";
  if (UNAVAILABLE_MESSAGES.some((m) => message.includes(m))) return true;
  // An AggregateError (a connect that tried several addresses) is unavailable when all its parts are.
  if (Array.isArray(e.errors) && e.errors.length > 0) return e.errors.every(isDatabaseUnavailable);
  return false;
}

export class DatabaseUnavailableError extends ServiceError {
  constructor(cause: unknown) {
    super("DATABASE_UNAVAILABLE", "the database is unavailable; retry later", { cause });
  }
}

/** `error` as DATABASE_UNAVAILABLE when it is about the database's availability, else unchanged. */
export function asDatabaseError(error: unknown): unknown {
  return error instanceof DatabaseUnavailableError || !isDatabaseUnavailable(error) ? error : new DatabaseUnavailableError(error);
}

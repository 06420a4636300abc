/**
 * Names for PostgreSQL prepared statements (./postgresEngine.ts): a statement sent with a name is
 * parsed, analysed and planned once per connection and then only bound and executed, where an unnamed
 * one is parsed and planned on every call. Measured here on the statements an intent runs most (a
 * request's write with its outbox event, the work list): 1.5 → 0.3 ms and 0.7 → 0.06 ms of the
 * database's CPU per statement, and about half the service's own (issue 26: CPU per intent).
 *
 * A name is a hash of the statement's text, so one text always has one name on every connection and in
 * every process. Only data statements are named (SELECT, WITH, INSERT, UPDATE, DELETE): not BEGIN,
 * COMMIT, SET or DDL. At most MAX_NAMED texts are named per process; texts past that (a statement
 * built with values in its text would be one) run unnamed as before, so neither this process nor the
 * server holds an unbounded number of plans.
 *
 * A text whose prepared plan the server refuses to run again ("cached plan must not change result
 * type", after a migration by another process changed what it returns) is not named again in this
 * process: `forget` it and run it unnamed.
 */
import { createHash } from "node:crypto";

export const MAX_NAMED = 1000;

const DATA_STATEMENT = /^\s*(SELECT|WITH|INSERT|UPDATE|DELETE)\b/i;

export type StatementNames = {
  /** The name to prepare `sql` under, or undefined to send it unnamed. */
  nameOf(sql: string): string | undefined;
  /** Never name `sql` again (its plan went stale on a connection). */
  forget(sql: string): void;
};

export function statementNames(max = MAX_NAMED): StatementNames {
  const names = new Map<string, string | undefined>();
  return {
    nameOf(sql) {
      const known = names.get(sql);
      if (known !== undefined || names.has(sql)) return known;
      if (names.size >= max || !DATA_STATEMENT.test(sql)) return undefined;
      const name = `ferry_${createHash("sha256").update(sql).digest("base64url").slice(0, 24)}`;
      names.set(sql, name);
      return name;
    },
    forget(sql) {
      names.set(sql, undefined);
    },
  };
}

/** PostgreSQL's refusal to run a prepared plan whose result columns changed since it was prepared. */
export function isStalePlan(error: unknown): boolean {
  const e = error as { code?: unknown; message?: unknown };
  return e?.code === "0A000" && typeof e.message === "string" && e.message.includes("cached plan must not change result type");
}

/**
 * A counting proxy in front of PostgreSQL, for bench:intent-cost: the replicas' DATABASE_URL points at
 * it (loopback TCP, a free port) and it passes every byte on to the server named by `serverUrl` (TCP
 * or its unix socket) unchanged, reading the client → server stream of the wire protocol on the way:
 *
 * - a simple query (`Q`) counts one statement (its SQL's first keyword and table name the kind);
 * - an extended query counts at its `E` (Execute), of the kind of the statement its last `B` (Bind)
 *   named, whose SQL came with its `P` (Parse).
 *
 * So every statement the server runs on the service's behalf is counted once — BEGIN and COMMIT too —
 * from outside the service (pg_stat_statements would need a server restart with the module preloaded,
 * on a server other people share). The proxy's own CPU is spent in the bench's process.
 */
import { connect, createServer, type Socket } from "node:net";
import type { AddressInfo } from "node:net";

export type PgCounter = {
  /** `serverUrl` with its host and port replaced by the proxy's, database `database`. */
  urlFor(database: string): string;
  /** Statements so far by kind ("SELECT requests", "BEGIN", …). */
  counts(): Map<string, number>;
  reset(): void;
  close(): Promise<void>;
};

/**
 * "SELECT requests", "INSERT solver_claims", "BEGIN", "SELECT pg_advisory_xact_lock()": what a statement
 * is, for the breakdown — its own verb and table, read with every parenthesized part (subqueries, a
 * CTE's body, function arguments) left out, so a subquery's table never names the statement.
 */
export function statementKind(sql: string): string {
  let text = sql.replace(/--[^\n]*/g, " ").replace(/'(?:[^']|'')*'/g, "''");
  for (let inner = text.replace(/\([^()]*\)/g, " "); inner !== text; inner = text.replace(/\([^()]*\)/g, " ")) text = inner;
  text = text.replace(/^\s*with\s+(?:recursive\s+)?[a-z_][a-z0-9_]*\s+as\s+(?:,\s*[a-z_][a-z0-9_]*\s+as\s+)*/i, "").trim();
  const verb = (/^([a-z]+)/i.exec(text)?.[1] ?? "?").toUpperCase();
  const table = /\b(?:from|into|update|table|notify|listen)\s+("?[a-z_][a-z0-9_.]*"?)/i.exec(text)?.[1]?.replace(/"/g, "").toLowerCase();
  if (table && !["BEGIN", "COMMIT", "ROLLBACK"].includes(verb)) return `${verb} ${table}`;
  // A SELECT of a function and nothing else (an advisory lock): named by the function.
  const call = verb === "SELECT" ? /^select\s+([a-z_][a-z0-9_]*)\s*\(/i.exec(sql.trim())?.[1] : undefined;
  return call ? `${verb} ${call.toLowerCase()}()` : verb;
}

/** The parts of a postgres:// URL this proxy needs (`new URL` refuses an empty host: `postgres://root@/db?host=/run/…`). */
function parseServerUrl(serverUrl: string): { user: string; password: string; to: { path: string } | { host: string; port: number } } {
  const match = /^postgres(?:ql)?:\/\/(?:([^:@/]*)(?::([^@/]*))?@)?([^/?]*)(?:\/[^?]*)?(?:\?(.*))?$/.exec(serverUrl);
  if (!match) throw new Error(`not a postgres:// URL: ${serverUrl}`);
  const [, user = "", password = "", hostPort = "", query = ""] = match;
  const socketDir = new URLSearchParams(query).get("host");
  const [host, portText] = hostPort.split(":");
  const port = Number(portText || 5432);
  const to = socketDir?.startsWith("/") ? { path: `${socketDir}/.s.PGSQL.${port}` } : { host: host || "127.0.0.1", port };
  return { user: decodeURIComponent(user), password: decodeURIComponent(password), to };
}

export async function startPgCounter(serverUrl: string): Promise<PgCounter> {
  let counts = new Map<string, number>();
  const add = (kind: string) => counts.set(kind, (counts.get(kind) ?? 0) + 1);
  const sockets = new Set<Socket>();
  const { user, password, to } = parseServerUrl(serverUrl);

  const server = createServer((client) => {
    const upstream = "path" in to ? connect(to.path) : connect(to.port, to.host);
    sockets.add(client).add(upstream);
    const drop = () => {
      client.destroy();
      upstream.destroy();
      sockets.delete(client);
      sockets.delete(upstream);
    };
    client.on("error", drop).on("close", drop);
    upstream.on("error", drop).on("close", drop);
    upstream.pipe(client);

    let pending: Buffer = Buffer.alloc(0);
    let startup = true;
    const statements = new Map<string, string>();
    const portals = new Map<string, string>();
    const cString = (buf: Buffer, at: number): [string, number] => {
      const end = buf.indexOf(0, at);
      return [buf.toString("utf8", at, end), end + 1];
    };
    client.on("data", (chunk: Buffer) => {
      upstream.write(chunk);
      pending = pending.length === 0 ? chunk : Buffer.concat([pending, chunk]);
      for (;;) {
        if (startup) {
          if (pending.length < 8) break;
          const length = pending.readUInt32BE(0);
          if (pending.length < length) break;
          const code = pending.readUInt32BE(4);
          // SSLRequest / GSSENCRequest are followed by the real startup message; anything else is it.
          if (code !== 80877103 && code !== 80877104) startup = false;
          pending = pending.subarray(length);
          continue;
        }
        if (pending.length < 5) break;
        const length = pending.readUInt32BE(1);
        if (pending.length < 1 + length) break;
        const type = String.fromCharCode(pending[0]!);
        const body = pending.subarray(5, 1 + length);
        if (type === "Q") add(statementKind(cString(body, 0)[0]));
        else if (type === "P") {
          const [name, at] = cString(body, 0);
          statements.set(name, statementKind(cString(body, at)[0]));
        } else if (type === "B") {
          const [portal, at] = cString(body, 0);
          portals.set(portal, statements.get(cString(body, at)[0]) ?? "?");
        } else if (type === "E") add(portals.get(cString(body, 0)[0]) ?? "?");
        pending = pending.subarray(1 + length);
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  const credentials = `${encodeURIComponent(user || "root")}${password ? `:${encodeURIComponent(password)}` : ""}`;
  return {
    urlFor: (database) => `postgres://${credentials}@127.0.0.1:${port}/${database}`,
    counts: () => new Map(counts),
    reset: () => {
      counts = new Map();
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

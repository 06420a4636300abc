/**
 * A private PostgreSQL 15 cluster for fault tests: initdb in a temp folder, a server of its own on a
 * free loopback port, stopped and started again at will (the shared server on 5432 is never touched:
 * other suites use it). The server runs as the `postgres` OS user when the tests run as root (initdb
 * refuses root); trust authentication on loopback, fsync off (a fault test measures behaviour, not
 * durability against power loss).
 */
import { execFile } from "node:child_process";
import { chownSync, existsSync, mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import pg from "pg";

const run = promisify(execFile);
const BIN = process.env.FERRY_TEST_PG_BIN ?? "/usr/lib/postgresql/15/bin";

export type PrivatePostgres = {
  /** postgres://root@127.0.0.1:<port>/ferry */
  url: string;
  port: number;
  /** `pg_ctl stop -m fast`: every session is terminated, new connections are refused. */
  stop(): Promise<void>;
  start(): Promise<void>;
  /** Stops the server (if running) and removes its folder. */
  destroy(): Promise<void>;
};

export function privatePostgresAvailable(): boolean {
  return existsSync(join(BIN, "initdb")) && existsSync(join(BIN, "pg_ctl"));
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

export async function startPrivatePostgres(): Promise<PrivatePostgres> {
  const dir = mkdtempSync(join(tmpdir(), "ferry-pg-"));
  const asRoot = process.getuid?.() === 0;
  if (asRoot) chownSync(dir, Number((await run("id", ["-u", "postgres"])).stdout.trim()), Number((await run("id", ["-g", "postgres"])).stdout.trim()));
  const as = async (command: string, args: string[]) => (asRoot ? run("runuser", ["-u", "postgres", "--", join(BIN, command), ...args]) : run(join(BIN, command), args));
  const data = join(dir, "data");
  await as("initdb", ["-D", data, "-A", "trust", "-U", "root", "--no-sync", "-E", "UTF8"]);
  const port = await freePort();
  const options = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off -c max_connections=200`;
  let running = false;
  const start = async () => {
    await as("pg_ctl", ["-D", data, "-o", options, "-l", join(dir, "server.log"), "-w", "-t", "60", "start"]);
    running = true;
  };
  const stop = async () => {
    if (!running) return;
    await as("pg_ctl", ["-D", data, "-m", "fast", "-w", "-t", "60", "stop"]);
    running = false;
  };
  await start();
  const admin = new pg.Client({ connectionString: `postgres://root@127.0.0.1:${port}/postgres` });
  await admin.connect();
  await admin.query("CREATE DATABASE ferry");
  await admin.end();
  return {
    url: `postgres://root@127.0.0.1:${port}/ferry`,
    port,
    start,
    stop,
    async destroy() {
      await stop().catch(() => {});
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/**
 * A fresh database on the shared test server (FERRY_TEST_DATABASE_URL's server, else the local one as
 * TOOLCHAIN sets it up: TCP, then the socket with peer auth as root), dropped by `drop()`. For fault
 * tests that run the service as a child process on PostgreSQL without stopping the server.
 */
export async function createScratchDatabase(): Promise<{ url: string; drop(): Promise<void> }> {
  const candidates = [process.env.FERRY_TEST_DATABASE_URL, "postgres://root@127.0.0.1:5432/ferry_test", "postgres://root@/ferry_test?host=/var/run/postgresql"].filter(
    (u): u is string => Boolean(u),
  );
  const name = `ferry_fault_${process.pid}_${Math.floor(Math.random() * 1e9)}`;
  for (const base of candidates) {
    const admin = new pg.Client({ connectionString: base, connectionTimeoutMillis: 3000 });
    try {
      await admin.connect();
    } catch {
      await admin.end().catch(() => {});
      continue;
    }
    await admin.query(`CREATE DATABASE ${name}`);
    await admin.end();
    // Swap the database name (the URL may have no host: the socket form is not a WHATWG URL).
    const url = base.replace(/^(postgres(?:ql)?:\/\/[^/]*)\/[^?]*/, `$1/${name}`);
    return {
      url,
      async drop() {
        const client = new pg.Client({ connectionString: base });
        await client.connect();
        await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
        await client.end();
      },
    };
  }
  throw new Error("no PostgreSQL server reachable for the fault tests (FERRY_TEST_DATABASE_URL, or the local server)");
}

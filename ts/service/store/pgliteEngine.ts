import { spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { closeSync, mkdirSync, openSync, readFileSync, unlinkSync, writeSync } from "node:fs";
import { hostname } from "node:os";
import { join, resolve } from "node:path";
import { PGlite, types } from "@electric-sql/pglite";
import type { Engine, Queryable, Row } from "./engine.ts";
import { ServiceError, type ServiceErrorOptions } from "../errors/serviceError.ts";

const PGLITE_OPTIONS = { parsers: { [types.INT8]: (value: string) => Number(value) } };

/**
 * A fresh PGlite database begins with an initdb inside the WASM PostgreSQL: 1.5–2.5 s of CPU, most
 * of what opening an in-memory store costs (a test suite opens hundreds). The process's first
 * in-memory open runs it once and keeps the fresh, empty cluster as a dump (no schema, no rows);
 * every in-memory database then starts from a copy of it (~0.4 s). On-disk folders open as before.
 */
let freshCluster: Promise<Blob> | undefined;

function openInMemory(): Promise<PGlite> {
  freshCluster ??= (async () => {
    const first = await PGlite.create(PGLITE_OPTIONS);
    try {
      return await first.dumpDataDir("none");
    } finally {
      await first.close();
    }
  })().catch((error: unknown) => {
    freshCluster = undefined;
    throw error;
  });
  return freshCluster.then((cluster) => PGlite.create({ ...PGLITE_OPTIONS, loadDataDir: cluster }));
}

/** The embedded engine: on disk under `dataDir`, in memory when it is absent. */
export async function createPgliteEngine({ dataDir }: { dataDir?: string } = {}): Promise<Engine> {
  // PGlite is one process's database: a second process on the same folder (the CLI while the
  // service runs) corrupts it. An on-disk engine therefore holds the folder's lock while open.
  const lock = dataDir === undefined ? undefined : lockDataDir(dataDir);
  let db: PGlite;
  try {
    db = dataDir === undefined ? await openInMemory() : await PGlite.create(dataDir, PGLITE_OPTIONS);
  } catch (error) {
    lock?.release();
    throw error;
  }
  const wrap = (q: Pick<PGlite, "query" | "exec">): Queryable => ({
    async query<T extends Row>(sql: string, params: readonly unknown[] = []) {
      const result = await q.query<T>(sql, [...params]);
      return { rows: result.rows, rowCount: result.affectedRows ?? result.rows.length };
    },
    async exec(sql: string) {
      await q.exec(sql);
    },
  });
  return {
    kind: "pglite",
    ...wrap(db),
    transaction: (fn) => db.transaction((tx) => fn(wrap(tx))),
    close: async () => {
      try {
        await db.close();
      } finally {
        lock?.release();
      }
    },
  };
}

// ---------------------------------------------------------------------------------------------
// The data folder's lock
// ---------------------------------------------------------------------------------------------

/** The lock file inside a PGlite data folder (PostgreSQL ignores unknown files there). */
export const DATA_DIR_LOCK_FILE = "ferry.lock";

export const DATA_DIR_LOCKED = "DATA_DIR_LOCKED";

/** Another live process (or this one, through another engine) has the embedded database open. */
export class DataDirLockedError extends ServiceError {
  readonly dataDir: string;
  readonly pid: number;
  constructor(dataDir: string, pid: number, options: ServiceErrorOptions = {}) {
    super(DATA_DIR_LOCKED, `the embedded database at ${dataDir} is in use by process ${pid}: stop the service or use DATABASE_URL`, options);
    this.dataDir = dataDir;
    this.pid = pid;
  }
}

/**
 * What the lock file holds. `startTime` and `bootId` (Linux: /proc) tell a live holder from an
 * unrelated process that reuses a dead holder's pid, e.g. pid 1 again after a container restart.
 */
type LockOwner = { pid: number; hostname: string; token: string; startTime?: string; bootId?: string };

export type DataDirLock = { readonly path: string; release(): void };

/** Lock files this process holds, so a second engine here is refused even though its pid is alive. */
const heldHere = new Set<string>();

/**
 * Takes the exclusive lock of `dataDir` (created if missing): `ferry.lock` created with O_EXCL,
 * holding the owner's pid. A lock whose process is gone (killed, crashed) is stale and taken over;
 * one whose process lives is DataDirLockedError. A killed process that its parent has not reaped yet
 * (a zombie) is gone: it runs nothing and the kernel has closed all its files. Only meaningful between processes of one host (and
 * one pid namespace): the embedded database is not meant to be shared across machines.
 */
export function lockDataDir(dataDir: string): DataDirLock {
  const dir = resolve(dataDir);
  mkdirSync(dir, { recursive: true });
  const path = join(dir, DATA_DIR_LOCK_FILE);
  const me = currentOwner();
  // A few rounds: each either creates the lock, fails on a live owner, or clears a stale one.
  for (let round = 0; round < 10; round++) {
    if (createExclusive(path, me)) {
      heldHere.add(path);
      let released = false;
      return {
        path,
        release() {
          if (released) return;
          released = true;
          heldHere.delete(path);
          // Only our own file: never delete a lock someone took over after us.
          if (readOwner(path)?.token === me.token) unlinkQuietly(path);
        },
      };
    }
    const owner = readOwner(path);
    if (owner === undefined) {
      // Gone since (released), or still being written by its creator, or unreadable garbage.
      if (!isUnreadableLeftover(path)) continue;
      clearStale(path, undefined);
      continue;
    }
    if (isAlive(owner)) throw new DataDirLockedError(dir, owner.pid);
    clearStale(path, owner.token);
  }
  throw new DataDirLockedError(dir, readOwner(path)?.pid ?? -1);
}

function currentOwner(): LockOwner {
  const startTime = processStartTime(process.pid);
  const bootId = readBootId();
  return {
    pid: process.pid,
    hostname: hostname(),
    token: `${process.pid}-${randomBytes(8).toString("hex")}`,
    ...(startTime !== undefined ? { startTime } : {}),
    ...(bootId !== undefined ? { bootId } : {}),
  };
}

/** Creates `path` with O_EXCL and writes the owner; false when it already exists. */
function createExclusive(path: string, owner: LockOwner): boolean {
  let fd: number;
  try {
    fd = openSync(path, "wx", 0o644);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "EEXIST") return false;
    throw error;
  }
  try {
    writeSync(fd, `${JSON.stringify(owner)}\n`);
  } finally {
    closeSync(fd);
  }
  return true;
}

function readOwner(path: string): LockOwner | undefined {
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch {
    return undefined;
  }
  try {
    const value = JSON.parse(text) as Partial<LockOwner>;
    if (Number.isSafeInteger(value.pid) && (value.pid as number) > 0 && typeof value.token === "string") return value as LockOwner;
  } catch {
    // fall through
  }
  return undefined;
}

/**
 * A lock file that exists but holds no owner. Its creator writes right after the O_EXCL create, so a
 * file still unreadable a moment later is a leftover of a crash between the two (or not ours at all).
 */
function isUnreadableLeftover(path: string): boolean {
  try {
    readFileSync(path);
  } catch {
    return false;
  }
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 50);
  try {
    readFileSync(path);
  } catch {
    return false;
  }
  return readOwner(path) === undefined;
}

function isAlive(owner: LockOwner): boolean {
  if (owner.pid === process.pid) {
    // Our pid: held by this process (a second engine here), or a previous incarnation that had the
    // same pid (pid 1 in a restarted container).
    return isHeldByToken(owner.token);
  }
  try {
    process.kill(owner.pid, 0);
  } catch (error) {
    // EPERM: the process exists but belongs to another user.
    if ((error as NodeJS.ErrnoException).code !== "EPERM") return false;
  }
  const bootId = readBootId();
  if (owner.bootId !== undefined && bootId !== undefined && owner.bootId !== bootId) return false;
  const startTime = processStartTime(owner.pid);
  if (owner.startTime !== undefined && startTime !== undefined && owner.startTime !== startTime) return false;
  // A zombie still answers kill(pid, 0) and keeps its start time until its parent reaps it: a
  // supervisor restarting the service right after kill -9 would be refused until then. Node has no
  // flock/fcntl lock (which the kernel would drop at exit) without a native addon, so the state decides.
  return !isDeadState(processState(owner.pid));
}

/** `Z` (zombie: exited, not reaped yet), `X` (dead): no longer runs, holds no files. */
export function isDeadState(state: string | undefined): boolean {
  return state === "Z" || state === "X";
}

/**
 * A process's state letter (R, S, D, Z, …): field 3 of /proc/<pid>/stat on Linux, else `ps -o stat=`
 * (macOS, the BSDs); undefined when neither says.
 */
export function processState(pid: number): string | undefined {
  return procStatFields(pid)?.[0] ?? psState(pid);
}

/** The state letter `ps -o stat=` shows (where there is no /proc); undefined when ps does not list the pid. */
export function psState(pid: number): string | undefined {
  const ps = spawnSync("ps", ["-o", "stat=", "-p", String(pid)], { encoding: "utf8", timeout: 2_000 });
  const state = ps.status === 0 ? ps.stdout.trim().charAt(0) : "";
  return state === "" ? undefined : state;
}

/** Tokens of the locks this process holds, read back from their files. */
function isHeldByToken(token: string): boolean {
  for (const path of heldHere) if (readOwner(path)?.token === token) return true;
  return false;
}

/**
 * Removes a stale lock. Under a second O_EXCL file, and only if the lock still holds the stale
 * owner, so two processes clearing the same stale lock cannot delete the one the first then creates.
 */
function clearStale(path: string, staleToken: string | undefined): void {
  const guard = `${path}.takeover`;
  const me = currentOwner();
  if (!createExclusive(guard, me)) {
    const owner = readOwner(guard);
    // A guard left by a process that died mid-takeover is removed; a live one is waited for.
    if (owner !== undefined && !isAlive(owner)) unlinkQuietly(guard);
    else Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 20);
    return;
  }
  try {
    const current = readOwner(path);
    if (staleToken === undefined ? current === undefined : current?.token === staleToken) unlinkQuietly(path);
  } finally {
    unlinkQuietly(guard);
  }
}

function unlinkQuietly(path: string): void {
  try {
    unlinkSync(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
  }
}

/** The fields of /proc/<pid>/stat from field 3 (the state) on; undefined off Linux or once the pid is gone. */
function procStatFields(pid: number): string[] | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    // The command name (field 2) is in parentheses and may contain spaces: split after its last ")".
    return stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  } catch {
    return undefined;
  }
}

/** Field 22 of /proc/<pid>/stat (start time in clock ticks since boot); undefined off Linux. */
function processStartTime(pid: number): string | undefined {
  return procStatFields(pid)?.[19];
}

function readBootId(): string | undefined {
  try {
    return readFileSync("/proc/sys/kernel/random/boot_id", "utf8").trim();
  } catch {
    return undefined;
  }
}

// The embedded database's folder lock: one process (one engine) at a time on a PGlite data folder.
import { spawn, spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { expect } from "chai";
import { isFerryError } from "../../../ts/core/errors.ts";
import { createStore, type Store } from "../../../ts/service/store/createStore.ts";
import { DATA_DIR_LOCK_FILE, DataDirLockedError, lockDataDir, processState, psState } from "../../../ts/service/store/pgliteEngine.ts";

const REPO_ROOT = fileURLToPath(new URL("../../../", import.meta.url));

/** Opens a store on `dataDir` in a child process; returns its outcome line. */
function openInChild(dataDir: string): { code: string; message: string } {
  const script = `
    import { createStore } from "./ts/service/store/createStore.ts";
    try {
      const store = await createStore({ dataDir: process.argv[1] });
      await store.close();
      console.log(JSON.stringify({ code: "OK", message: "" }));
    } catch (error) {
      console.log(JSON.stringify({ code: error.code ?? "THROWN", message: error.message }));
    }`;
  const run = spawnSync(process.execPath, ["--input-type=module", "-e", script, dataDir], { cwd: REPO_ROOT, timeout: 60_000 });
  if (run.status !== 0) throw new Error(`child failed: ${run.stderr.toString()}`);
  return JSON.parse(run.stdout.toString().trim().split("\n").at(-1)!) as { code: string; message: string };
}

/** The pid of a process that has exited (and been reaped). */
function deadPid(): number {
  const child = spawnSync(process.execPath, ["-e", "console.log(process.pid)"]);
  return Number(child.stdout.toString().trim());
}

function writeLock(dataDir: string, owner: Record<string, unknown>): void {
  writeFileSync(join(dataDir, DATA_DIR_LOCK_FILE), `${JSON.stringify({ hostname: "elsewhere", token: "stale-token", ...owner })}\n`);
}

function lockOwnerPid(dataDir: string): number {
  return (JSON.parse(readFileSync(join(dataDir, DATA_DIR_LOCK_FILE), "utf8")) as { pid: number }).pid;
}

async function expectLocked(promise: Promise<unknown>, pid: number, dataDir: string): Promise<void> {
  const error = await promise.then(
    () => expect.fail("expected DATA_DIR_LOCKED"),
    (e: unknown) => e,
  );
  expect(isFerryError(error, "DATA_DIR_LOCKED"), String(error)).to.equal(true);
  expect(error).to.be.instanceOf(DataDirLockedError);
  expect((error as DataDirLockedError).pid).to.equal(pid);
  expect((error as DataDirLockedError).dataDir).to.equal(dataDir);
}

describe("PGlite data folder lock", function () {
  this.timeout(120_000);
  let dataDir: string;
  const open: Store[] = [];

  beforeEach(() => {
    dataDir = mkdtempSync(join(tmpdir(), "ferry-lock-"));
  });
  afterEach(async () => {
    for (const store of open.splice(0)) await store.close().catch(() => {});
    rmSync(dataDir, { recursive: true, force: true });
  });

  it("createStore_failsInAnotherProcess_whileTheFolderIsOpen_andWorksAfterClose", async () => {
    const first = await createStore({ dataDir });
    open.push(first);
    expect(lockOwnerPid(dataDir)).to.equal(process.pid);

    const refused = openInChild(dataDir);
    expect(refused.code).to.equal("DATA_DIR_LOCKED");
    expect(refused.message).to.equal(
      `the embedded database at ${dataDir} is in use by process ${process.pid}: stop the service or use DATABASE_URL`,
    );

    await first.close();
    open.length = 0;
    expect(existsSync(join(dataDir, DATA_DIR_LOCK_FILE))).to.equal(false);
    expect(openInChild(dataDir).code).to.equal("OK");
  });

  it("createStore_failsInTheSameProcess_whileTheFolderIsOpen_andWorksAfterClose", async () => {
    const first = await createStore({ dataDir });
    open.push(first);
    await expectLocked(createStore({ dataDir }), process.pid, dataDir);
    await first.setCheckpoint(1, "0xabc", 7);
    await first.close();
    open.length = 0;

    const second = await createStore({ dataDir });
    open.push(second);
    expect(await second.getCheckpoint(1, "0xabc")).to.equal(7);
  });

  it("createStore_takesOverAStaleLock_whenItsProcessIsDead", async () => {
    const pid = deadPid();
    writeLock(dataDir, { pid });
    const store = await createStore({ dataDir });
    open.push(store);
    expect(lockOwnerPid(dataDir)).to.equal(process.pid);
  });

  it("createStore_takesOverALock_whosePidWasReusedByAnotherProcess", async () => {
    // Our own pid from a previous incarnation (pid 1 again after a container restart)…
    writeLock(dataDir, { pid: process.pid });
    const store = await createStore({ dataDir });
    await store.close();
    // …and a live process that started at another time than the lock's owner did.
    if (existsSync(`/proc/${process.ppid}/stat`)) {
      writeLock(dataDir, { pid: process.ppid, startTime: "1" });
      open.push(await createStore({ dataDir }));
      expect(lockOwnerPid(dataDir)).to.equal(process.pid);
    }
  });

  it("createStore_refuses_whenALiveProcessHoldsTheLock", async () => {
    const child = spawn(process.execPath, ["-e", "setTimeout(() => {}, 60_000)"], { stdio: "ignore" });
    try {
      writeLock(dataDir, { pid: child.pid });
      await expectLocked(createStore({ dataDir }), child.pid!, dataDir);
      // The refused open left the holder's lock alone.
      expect(lockOwnerPid(dataDir)).to.equal(child.pid);
    } finally {
      child.kill("SIGKILL");
      await new Promise((resolve) => child.once("exit", resolve));
    }
    // Killed: the lock is stale now.
    open.push(await createStore({ dataDir }));
  });

  it("createStore_takesOverALock_whoseHolderWasKilledButNotReaped_aZombie", async function () {
    if (!existsSync(`/proc/${process.pid}/stat`)) this.skip();
    // The holder's parent never reaps it (after the exec, `sleep` is its parent): killed, it stays a zombie.
    const parent = spawn("sh", ["-c", "sleep 600 & echo $!; exec sleep 600"], { stdio: ["ignore", "pipe", "ignore"], detached: true });
    try {
      const pid = Number(await new Promise<string>((resolve) => parent.stdout!.once("data", (chunk: Buffer) => resolve(chunk.toString().trim()))));
      const startTime = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ")[19];
      writeLock(dataDir, { pid, startTime });
      await expectLocked(createStore({ dataDir }), pid, dataDir);
      process.kill(pid, "SIGKILL");
      const deadline = Date.now() + 10_000;
      while (processState(pid) !== "Z" && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 10));
      // Both ways of reading the state see the zombie (ps is what a host without /proc uses).
      expect([processState(pid), psState(pid)]).to.deep.equal(["Z", "Z"]);
      open.push(await createStore({ dataDir }));
      expect(lockOwnerPid(dataDir)).to.equal(process.pid);
    } finally {
      process.kill(-parent.pid!, "SIGKILL");
    }
  });

  it("lockDataDir_releaseKeepsALockTakenOverByAnother", () => {
    const lock = lockDataDir(dataDir);
    writeLock(dataDir, { pid: deadPid(), token: "someone-else" });
    lock.release();
    expect(existsSync(join(dataDir, DATA_DIR_LOCK_FILE))).to.equal(true);
  });

  it("createStore_inMemory_takesNoLock", async () => {
    const a = await createStore();
    const b = await createStore();
    open.push(a, b);
    expect((await a.engine.query<{ n: number }>("SELECT 1 AS n")).rows[0]!.n).to.equal(1);
    expect((await b.engine.query<{ n: number }>("SELECT 1 AS n")).rows[0]!.n).to.equal(1);
  });
});

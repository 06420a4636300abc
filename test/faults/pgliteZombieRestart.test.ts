// Fault: a service on the embedded database (PGlite) is SIGKILLed and restarted 200 ms later by a
// supervisor that has not reaped the dead process yet. Until its parent waits for it the dead
// process is a zombie: its pid still answers kill(pid, 0) and /proc still shows its start time, so a
// lock judged by those refused the restart (field test: 29 of 30 restarts DATA_DIR_LOCKED). The
// kernel closed every file of the zombie and its state is `Z`: the lock must be judged by that.
//
// The holder runs under a parent that never reaps it (`sh -c 'node holder & exec sleep …'`: after the
// exec the sleeping process is the holder's parent), so the zombie lasts as long as the test needs.
// Each round: the holder takes the folder, is SIGKILLed, 200 ms later the test checks it is a zombie
// and restarts on the same folder, which must take the lock. The first and the last round are whole
// stores on both sides (the holder opens PGlite; the restart opens it, writes and reads); the rounds
// between take the folder's lock only (what createStore takes first and what a restart is refused
// on), to keep the test's CPU low.
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { expect } from "chai";
import { createStore } from "../../ts/service/store/createStore.ts";
import { lockDataDir } from "../../ts/service/store/pgliteEngine.ts";
import { skipUnlessFaults } from "./faultSuite.ts";

const ROUNDS = 30;
const RESTART_AFTER_MS = 200;
const HOLDER = fileURLToPath(new URL("./pgliteHolder.ts", import.meta.url));

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** State letter of /proc/<pid>/stat (R, S, D, Z, …), or undefined once the pid is gone. */
function procState(pid: number): string | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2).split(" ")[0];
  } catch {
    return undefined;
  }
}

/** The holder under a parent that never reaps it; resolves with the holder's pid once its store is open. */
async function startHolder(mode: "store" | "lock", dataDir: string): Promise<{ pid: number; parent: ChildProcess }> {
  // Its own process group, so the holder goes with its parent however the test ends.
  const parent = spawn("sh", ["-c", `"$0" "$1" "$2" "$3" & exec sleep 600`, process.execPath, HOLDER, mode, dataDir], { stdio: ["ignore", "pipe", "pipe"], detached: true });
  let output = "";
  parent.stdout!.on("data", (chunk: Buffer) => (output += chunk.toString()));
  parent.stderr!.on("data", (chunk: Buffer) => (output += chunk.toString()));
  const deadline = Date.now() + 120_000;
  for (;;) {
    const pid = /ready (\d+)/.exec(output)?.[1];
    if (pid) return { pid: Number(pid), parent };
    if (Date.now() > deadline || parent.exitCode !== null) {
      killGroup(parent);
      throw new Error(`the holder did not open the store:\n${output}`);
    }
    await sleep(20);
  }
}

function killGroup(parent: ChildProcess): void {
  try {
    process.kill(-parent.pid!, "SIGKILL");
  } catch {
    // already gone
  }
}

describe("fault: PGlite restarted while the killed holder is a zombie", function () {
  this.timeout(300_000);
  let dir: string;
  const parents: ChildProcess[] = [];

  before(async function () {
    skipUnlessFaults(this);
    if (procState(process.pid) === undefined) this.skip(); // needs /proc (Linux) to see the zombie
    dir = mkdtempSync(join(tmpdir(), "ferry-zombie-"));
    await (await createStore({ dataDir: join(dir, "data") })).close();
  });
  after(async () => {
    for (const parent of parents) killGroup(parent);
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it(`killMinus9ThenRestartAfter${RESTART_AFTER_MS}ms_whileTheHolderIsAZombie_takesTheLock_${ROUNDS}of${ROUNDS}`, async () => {
    const dataDir = join(dir, "data");
    const refused: string[] = [];
    let zombies = 0;
    let late = 0;
    for (let round = 1; round <= ROUNDS; round++) {
      const whole = round === 1 || round === ROUNDS;
      const holder = await startHolder(whole ? "store" : "lock", dataDir);
      parents.push(holder.parent);
      process.kill(holder.pid, "SIGKILL");
      await sleep(RESTART_AFTER_MS);
      // The attack's precondition: the dead holder is a zombie, still there, unreaped. On a loaded
      // machine the kernel may still be tearing it down at 200 ms: then the restart waits until it is.
      const tornDownBy = Date.now() + 10_000;
      if (procState(holder.pid) !== "Z") late++;
      while (procState(holder.pid) !== "Z" && Date.now() < tornDownBy) await sleep(10);
      if (procState(holder.pid) === "Z") zombies++;
      try {
        if (whole) {
          const store = await createStore({ dataDir });
          await store.setCheckpoint(1, "0xabc", round);
          expect(await store.getCheckpoint(1, "0xabc")).to.equal(round);
          await store.close();
        } else {
          lockDataDir(dataDir).release();
        }
      } catch (error) {
        refused.push(`round ${round}: ${(error as { code?: string }).code ?? ""} ${(error as Error).message}`);
      }
      // Reap the zombie: its parent exits, the zombie goes to init, which waits for it.
      killGroup(holder.parent);
      await new Promise((resolve) => (holder.parent.exitCode !== null || holder.parent.signalCode !== null ? resolve(null) : holder.parent.once("exit", resolve)));
    }
    console.log(`      ${ROUNDS} restarts ${RESTART_AFTER_MS} ms after kill -9: ${zombies} while the holder was a zombie (${late} of them a little later: not yet a zombie at ${RESTART_AFTER_MS} ms), ${refused.length} refused`);
    expect(zombies, "the holder was reaped before the restart: the test did not reproduce the zombie").to.equal(ROUNDS);
    expect(refused, refused.join("\n")).to.deep.equal([]);
  });
});

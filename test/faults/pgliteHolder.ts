/**
 * A process that holds the embedded database's data folder (argv[3]) until it is killed: `store` opens
 * it as the service does (createStore: the folder's lock, then PGlite), `lock` takes only the folder's
 * lock (what createStore takes first, and the only thing a restart is judged against), which costs a
 * fraction of the CPU. Prints `ready <pid>` once it holds it. Run by ./pgliteZombieRestart.test.ts.
 */
import { pathToFileURL } from "node:url";
import { createStore } from "../../ts/service/store/createStore.ts";
import { lockDataDir } from "../../ts/service/store/pgliteEngine.ts";

/** Holds the folder as `mode` says, then prints `ready <pid>` and waits to be killed. */
async function hold(mode: string | undefined, dataDir: string | undefined): Promise<void> {
  if ((mode !== "store" && mode !== "lock") || !dataDir) throw new Error("usage: pgliteHolder.ts store|lock <dataDir>");
  if (mode === "store") await createStore({ dataDir });
  else lockDataDir(dataDir);
  process.stdout.write(`ready ${process.pid}\n`);
  setInterval(() => {}, 60_000);
}

// Only when run as a program: the test runner loads every file under test/, this one included, and
// must find nothing to run here (nor a top-level await, which its CommonJS loader refuses).
if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  hold(process.argv[2], process.argv[3]).catch((error: unknown) => {
    process.stderr.write(`${String(error)}\n`);
    process.exit(1);
  });
}

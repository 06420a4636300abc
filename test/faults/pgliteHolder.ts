/**
 * A process that holds the embedded database's data folder (argv[3]) until it is killed: `store` opens
 * it as the service does (createStore: the folder's lock, then PGlite), `lock` takes only the folder's
 * lock (what createStore takes first, and the only thing a restart is judged against), which costs a
 * fraction of the CPU. Prints `ready <pid>` once it holds it. Run by ./pgliteZombieRestart.test.ts.
 */
import { createStore } from "../../ts/service/store/createStore.ts";
import { lockDataDir } from "../../ts/service/store/pgliteEngine.ts";

const [mode, dataDir] = process.argv.slice(2);
if ((mode !== "store" && mode !== "lock") || !dataDir) throw new Error("usage: pgliteHolder.ts store|lock <dataDir>");
if (mode === "store") await createStore({ dataDir });
else lockDataDir(dataDir);
process.stdout.write(`ready ${process.pid}\n`);
setInterval(() => {}, 60_000);

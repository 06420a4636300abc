/**
 * The devnet's database starts empty on every run. Its chains are in-memory EDR chains that start
 * from block 0 each time, so a database kept from an earlier run would describe transactions that no
 * longer exist: old requests would linger as if pending, and its indexer checkpoints (past the new
 * chains' head) would skip every new deposit. Fresh chains, fresh store — the one coherent pairing
 * without persisting the chains' state too.
 *
 * The folder is emptied under its lock (ts/service/store/pgliteEngine.ts), so a devnet still running on
 * the same folder is DATA_DIR_LOCKED instead of having its database deleted under it — with a hint
 * naming what the devnet user changes (FERRY_DEVNET_DIR and the ports), not the service's DATABASE_URL.
 */
import { readdirSync, rmSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { FerryError } from "../core/errors.ts";
import { DATA_DIR_LOCK_FILE, DataDirLockedError, lockDataDir } from "../service/store/pgliteEngine.ts";

/** Empties `dataDir` (created if missing); returns whether an earlier run's data was removed. */
export function resetDevnetData(dataDir: string): boolean {
  let lock;
  try {
    lock = lockDataDir(dataDir);
  } catch (error) {
    if (!(error instanceof DataDirLockedError)) throw error;
    const shown = relative(process.cwd(), dirname(dataDir)) || ".";
    throw new FerryError(
      "DATA_DIR_LOCKED",
      `another devnet (process ${error.pid}) is running on ${shown.startsWith("..") ? dirname(dataDir) : shown}: stop it (Ctrl-C in its terminal), or run this one in another folder: FERRY_DEVNET_DIR=<dir> with FERRY_PORT, FERRY_DEVNET_ORIGIN_PORT and FERRY_DEVNET_DESTINATION_PORT set to free ports (0 = any)`,
      { cause: error },
    );
  }
  try {
    const entries = readdirSync(dataDir).filter((entry) => entry !== DATA_DIR_LOCK_FILE);
    for (const entry of entries) rmSync(join(dataDir, entry), { recursive: true, force: true });
    return entries.length > 0;
  } finally {
    lock.release();
  }
}

/**
 * The devnet's database starts empty on every run. Its chains are in-memory EDR chains that start
 * from block 0 each time, so a database kept from an earlier run would describe transactions that no
 * longer exist: old requests would linger as if pending, and its indexer checkpoints (past the new
 * chains' head) would skip every new deposit. Fresh chains, fresh store — the one coherent pairing
 * without persisting the chains' state too.
 *
 * The folder is emptied under its lock (ts/service/store/pgliteEngine.ts), so a devnet still running on
 * the same folder is DATA_DIR_LOCKED instead of having its database deleted under it.
 */
import { readdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import { DATA_DIR_LOCK_FILE, lockDataDir } from "../service/store/pgliteEngine.ts";

/** Empties `dataDir` (created if missing); returns whether an earlier run's data was removed. */
export function resetDevnetData(dataDir: string): boolean {
  const lock = lockDataDir(dataDir);
  try {
    const entries = readdirSync(dataDir).filter((entry) => entry !== DATA_DIR_LOCK_FILE);
    for (const entry of entries) rmSync(join(dataDir, entry), { recursive: true, force: true });
    return entries.length > 0;
  } finally {
    lock.release();
  }
}

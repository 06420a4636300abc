/**
 * A PGlite data folder as the service leaves it after its first start: created and migrated, closed.
 * Opening a new folder costs ~5 s (initdb inside the WASM PostgreSQL, then every migration); opening
 * a copy of a migrated one ~0.2 s. Tests that need a database, not its creation, start from a copy:
 * this process migrates one folder, once, on first use, and copies it. Tests about a folder that is
 * not there yet (created by the CLI or the service, or refused) keep starting from nothing. No tests here.
 */
import { cpSync, existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createStore } from "../../../ts/service/store/createStore.ts";

let template: Promise<string> | undefined;

function migratedTemplate(): Promise<string> {
  template ??= (async () => {
    const root = mkdtempSync(join(tmpdir(), "ferry-pglite-migrated-"));
    process.once("exit", () => rmSync(root, { recursive: true, force: true }));
    const dataDir = join(root, "data");
    // Closed before any copy: the folder's lock is released and PGlite has written everything out.
    await (await createStore({ dataDir })).close();
    return dataDir;
  })().catch((error: unknown) => {
    template = undefined;
    throw error;
  });
  return template;
}

/** Makes `dataDir` (which must not exist yet) a copy of a migrated, empty database; returns it. */
export async function copyMigratedDataDir(dataDir: string): Promise<string> {
  if (existsSync(dataDir)) throw new Error(`copyMigratedDataDir: ${dataDir} exists already`);
  cpSync(await migratedTemplate(), dataDir, { recursive: true });
  return dataDir;
}

/**
 * Which service `ferry keys|webhooks|requests` act on, decided once per command:
 *  1. `--api-url <url>` or $FERRY_API_URL: the running service's admin API, with $FERRY_ADMIN_TOKEN
 *     (the token is never a flag: flags show in the process list);
 *  2. `--data-dir <dir>`, $FERRY_DATA_DIR, $DATABASE_URL or `--config`/$FERRY_CONFIG: the service's
 *     database opened directly (./serviceStore.ts) — PostgreSQL at any time, the embedded one only
 *     while the service is stopped (DATA_DIR_LOCKED otherwise). A read (list, show, log) of an
 *     embedded database that does not exist is DATA_DIR_MISSING, never a new empty database;
 *  3. neither, and a devnet file (`--devnet-dir`, $FERRY_DEVNET_DIR or ./.devnet/devnet.json): the
 *     devnet's admin API with the token `npm start` wrote there;
 *  4. none of these: NO_SERVICE, naming the options. Exit 2.
 *
 * Only the target chosen is loaded: the store, the config and the devnet file's schema are imported
 * where they are used, so a command over the admin API (or one that fails on its usage) starts
 * without them (they cost about a second of CPU per `ferry` process).
 */
import { existsSync } from "node:fs";
import { resolve } from "node:path";
import { FerryError, isFerryError } from "../core/errors.ts";
import type { AdminOperations } from "../service/admin/adminOperations.ts";
import type { CliIo } from "./cliIo.ts";
import { adminClient } from "./adminClient.ts";
import { findDevnetJson } from "./devnetDir.ts";
import type { ParsedCommand } from "./parseCommandArgs.ts";

/** The flags every admin command takes (merge into its parseCommandArgs options). */
export const TARGET_OPTIONS = {
  "api-url": { type: "string" },
  "data-dir": { type: "string" },
  config: { type: "string" },
  "devnet-dir": { type: "string" },
} as const;

export const TARGET_HELP = `Where (first that applies):
  --api-url <url>       a running service's admin API ($FERRY_API_URL); token from $FERRY_ADMIN_TOKEN
  --data-dir <dir>      the service's embedded database, service stopped ($FERRY_DATA_DIR); or
                        $DATABASE_URL (PostgreSQL, any time); --config <file> ($FERRY_CONFIG) reads
                        the database settings of the service's config file
  (neither)             the devnet's admin API, from .devnet/devnet.json ($FERRY_DEVNET_DIR, --devnet-dir)`;

/** What the command does with the database: a read never creates an embedded one. */
export type Access = "read" | "write";

const flag = (parsed: ParsedCommand, name: string): string | undefined => {
  const value = parsed.values[name];
  return typeof value === "string" && value !== "" ? value : undefined;
};
const env = (io: CliIo, name: string): string | undefined => (io.env[name] ? io.env[name] : undefined);

/** Runs `fn` with the operations of the service the flags and the environment name. */
export async function withAdmin<T>(io: CliIo, parsed: ParsedCommand, access: Access, fn: (admin: AdminOperations) => Promise<T>): Promise<T> {
  const apiUrl = flag(parsed, "api-url") ?? (flag(parsed, "data-dir") ? undefined : env(io, "FERRY_API_URL"));
  if (apiUrl !== undefined) {
    if (!/^https?:\/\/[^\s/]+/.test(apiUrl)) throw new FerryError("USAGE", "--api-url (FERRY_API_URL) must be an http:// or https:// URL");
    const token = env(io, "FERRY_ADMIN_TOKEN");
    if (token === undefined) {
      throw new FerryError("ADMIN_TOKEN_MISSING", "set FERRY_ADMIN_TOKEN to the service's admin token (the same FERRY_ADMIN_TOKEN the service was started with)");
    }
    return fn(adminClient({ url: apiUrl, token }));
  }

  const dataDir = flag(parsed, "data-dir");
  const config = flag(parsed, "config");
  if (dataDir !== undefined || config !== undefined || env(io, "FERRY_DATA_DIR") || env(io, "DATABASE_URL") || env(io, "FERRY_CONFIG")) {
    const storeEnv = { ...io.env, ...(dataDir !== undefined ? { FERRY_DATA_DIR: dataDir } : {}), ...(config !== undefined ? { FERRY_CONFIG: config } : {}) };
    const storeIo: CliIo = { ...io, env: storeEnv };
    const [{ withServiceStore }, { adminOperations }] = await Promise.all([import("./serviceStore.ts"), import("../service/admin/adminOperations.ts")]);
    try {
      return await withServiceStore(
        storeIo,
        (store, loaded) => fn(adminOperations(store, loaded)),
        access === "read" ? { beforeOpen: (loaded) => requireExistingDatabase(loaded.database) } : {},
      );
    } catch (error) {
      if (isFerryError(error, "DATA_DIR_LOCKED")) {
        error.message = `${error.message}; while it runs, use its admin API: --api-url <url> with FERRY_ADMIN_TOKEN`;
      }
      throw error;
    }
  }

  const devnet = findDevnetJson(io, flag(parsed, "devnet-dir"));
  if (devnet !== undefined) {
    const { readDevnetJson } = await import("./devnetJson.ts");
    const file = await readDevnetJson(io, devnet);
    if (!file.adminToken) throw new FerryError("DEVNET_FILE_INVALID", `${devnet} has no adminToken: restart the devnet (npm start) to rewrite it`);
    return fn(adminClient({ url: file.apiUrl, token: file.adminToken, unreachableHint: `from ${devnet}: is the devnet (npm start) running?` }));
  }

  throw new FerryError(
    "NO_SERVICE",
    "name the service: --api-url <url> (or FERRY_API_URL) with FERRY_ADMIN_TOKEN for a running service, or its database with --data-dir <dir> / FERRY_DATA_DIR / DATABASE_URL / --config <file>; on the devnet, run from the folder holding .devnet/devnet.json",
  );
}

/** A read of an embedded database that is not there is an error: the operator named the wrong folder. */
export function requireExistingDatabase(database: { url?: unknown; dataDir: string }): void {
  if (database.url !== undefined) return;
  if (!existsSync(resolve(database.dataDir, "PG_VERSION"))) {
    throw new FerryError("DATA_DIR_MISSING", `no database at ${database.dataDir}: pass the service's --data-dir / FERRY_DATA_DIR (or DATABASE_URL)`);
  }
}

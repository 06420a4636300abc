/**
 * Where `.devnet/devnet.json` is (`npm start` writes it: ts/devnet/devnetFile.ts): `--devnet-dir`,
 * else $FERRY_DEVNET_DIR, else `./.devnet` (relative to the working directory, as `npm start` writes
 * it). Apart from ./devnetJson.ts, which decodes the file, so that asking whether there is a devnet
 * (`ferry keys|webhooks|requests` with no other target) does not load the schema library.
 */
import { existsSync } from "node:fs";
import { resolve } from "node:path";
import type { CliIo } from "./cliIo.ts";

/** The devnet folder: `flag`, else $FERRY_DEVNET_DIR, else ./.devnet. */
export function devnetDir(io: CliIo, flag?: string): string {
  return resolve(flag || io.env.FERRY_DEVNET_DIR || ".devnet");
}

/** The path of devnet.json when it exists, else undefined. */
export function findDevnetJson(io: CliIo, flag?: string): string | undefined {
  const path = resolve(devnetDir(io, flag), "devnet.json");
  return existsSync(path) ? path : undefined;
}

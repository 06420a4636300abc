/**
 * Configuration I/O: reads the JSON file named by FERRY_CONFIG (none: defaults and env only), then
 * the deployment record of every chain whose contracts the file leaves out. The rules live in
 * `parseConfig.ts`.
 */
import { readFile } from "node:fs/promises";
import { dirname, resolve } from "node:path";
import { readDeploymentRecord, type DeploymentRecord } from "../../deploy/deploymentRecord.ts";
import { isFerryError } from "../../core/errors.ts";
import { ConfigInvalidError } from "./configErrors.ts";
import type { FerryConfig, UnresolvedFerryConfig } from "./configSchema.ts";
import { parseConfig, resolveChainContracts, type Env } from "./parseConfig.ts";

export type LoadConfigOptions = {
  env?: Env;
  /** Anchors relative paths when there is no config file. Default: the working directory. */
  cwd?: string;
};

/**
 * The FERRY_CONFIG file plus the environment, parsed, before contracts are filled from deployment
 * records — what `ferry deploy --config` needs (it writes those records).
 */
export async function readConfigFile(options: LoadConfigOptions = {}): Promise<UnresolvedFerryConfig> {
  const env = options.env ?? process.env;
  const cwd = options.cwd ?? process.cwd();
  let json: unknown = {};
  let baseDir = cwd;
  if (env.FERRY_CONFIG) {
    const path = resolve(cwd, env.FERRY_CONFIG);
    baseDir = dirname(path);
    let text: string;
    try {
      text = await readFile(path, "utf8");
    } catch (cause) {
      throw new ConfigInvalidError("FERRY_CONFIG", `cannot read ${path}`, { cause });
    }
    try {
      json = JSON.parse(text);
    } catch (cause) {
      throw new ConfigInvalidError("FERRY_CONFIG", `${path} is not valid JSON`, { cause });
    }
  }
  return parseConfig(json, env, baseDir);
}

export async function loadConfig(options: LoadConfigOptions = {}): Promise<FerryConfig> {
  const config = await readConfigFile(options);
  const records = new Map<number, DeploymentRecord | undefined>();
  for (const [i, chain] of config.chains.entries()) {
    const { depository, attestedReceiver, multicaller } = chain.contracts;
    if (depository && attestedReceiver && multicaller) continue;
    try {
      records.set(chain.id, await readDeploymentRecord(config.deploymentsDir, chain.id));
    } catch (cause) {
      if (!isFerryError(cause)) throw cause;
      throw new ConfigInvalidError(`chains[${i}].contracts`, `deployment record: ${cause.message}`, { cause });
    }
  }
  return resolveChainContracts(config, records);
}

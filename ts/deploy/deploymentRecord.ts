/**
 * `deployments/<chainId>.json`: what is where on one chain, written by `ferry deploy` and read by the
 * service (contract addresses, the block to start indexing from) and by `ferry deploy --check`
 * (the configuration to expect). The pure parts (building, merging, parsing) sit beside the two
 * file functions.
 */
import { mkdir, readdir, readFile, rename, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { getAddress, isAddress, type Address, type Hex } from "viem";
import { DeploymentRecordInvalidError } from "./deployErrors.ts";
import type { FerryContractName } from "./ferryArtifacts.ts";
import type { FerryAddresses, RecordedFerryAddresses } from "./ferryPlan.ts";

export const DEPLOYMENT_RECORD_FORMAT = "ferry-deployment-1";

export type CompilerRecord = {
  solcVersion: string;
  /** ts/deploy/compilerSettings.ts COMPILER_SETTINGS: optimizer, evmVersion. */
  settings: { optimizer: { enabled: boolean; runs: number }; evmVersion: string };
  /** ts/deploy/compilerSettings.ts VIA_IR_SOURCES: the sources compiled with viaIR (otherwise identical settings). */
  viaIRSources: string[];
  /** Records written before deposit addresses have no DepositAddressFactory entry. */
  contracts: Partial<Record<
    FerryContractName,
    { sourceName: string; viaIR: boolean; buildInfoId: string; initCodeHash: Hex; runtimeCodeFingerprint: Hex }
  >>;
};

export type DeploymentRecord = {
  format: typeof DEPLOYMENT_RECORD_FORMAT;
  chainId: number;
  /** Records written before deposit addresses have no `depositAddressFactory`. */
  addresses: RecordedFerryAddresses;
  /** Initial owner of the contracts and part of their addresses (with the salt and the build). */
  deployer: Address;
  salt: Hex;
  /** The CREATE2 proxy the contracts were deployed through. */
  deterministicDeployer: Address;
  /** The block the Depository appeared in (the first block of this deployment): where an indexer starts. */
  blockNumber: number;
  /** ISO time of that block. */
  deployedAt?: string;
  /** Hash of every transaction the deployment sent, by step ("Depository", "AttestedReceiver.setSigner(0x…)", …). */
  transactions: Record<string, Hex>;
  constructorArgs: Partial<Record<FerryContractName, Address[]>>;
  /** The configuration the deployment established (what --check expects by default). */
  configuration: { owner: Address; allocator: Address; signers: Address[]; currencies?: Address[] };
  compiler: CompilerRecord;
  /**
   * The compact entry points this build answers (ts/deploy/entryPoints.ts), signature → selector:
   * what the service's solver and quote steps call. Absent in records written before issue 14.
   */
  entryPoints?: Record<string, Hex>;
  /**
   * Multicall3 on this chain, at its canonical address (./multicall3.ts), when the chain has it: the
   * service serves it as `contracts.multicall3` in GET /chains. Absent: the chain has none (yet).
   */
  multicall3?: Address;
};

/** The file name of a chain's record. */
export function deploymentRecordPath(dir: string, chainId: number): string {
  return join(dir, `${chainId}.json`);
}

/** Writes `<dir>/<chainId>.json` (creating `dir`), atomically; returns the path. */
export async function writeDeploymentRecord(dir: string, record: DeploymentRecord): Promise<string> {
  const path = deploymentRecordPath(dir, record.chainId);
  await mkdir(dir, { recursive: true });
  const temporary = `${path}.${process.pid}.tmp`;
  await writeFile(temporary, `${JSON.stringify(record, null, 2)}\n`);
  await rename(temporary, path);
  return path;
}

/** Reads `<dir>/<chainId>.json`; undefined when there is none, DeploymentRecordInvalidError when malformed. */
export async function readDeploymentRecord(dir: string, chainId: number): Promise<DeploymentRecord | undefined> {
  const path = deploymentRecordPath(dir, chainId);
  let text: string;
  try {
    text = await readFile(path, "utf8");
  } catch (cause) {
    if ((cause as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw new DeploymentRecordInvalidError(path, "unreadable", { cause });
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (cause) {
    throw new DeploymentRecordInvalidError(path, "not valid JSON", { cause });
  }
  return parseDeploymentRecord(json, path, chainId);
}

/** Checks the shape of a parsed record (the fields readers rely on) and checksums its addresses. */
export function parseDeploymentRecord(json: unknown, path: string, chainId?: number): DeploymentRecord {
  const fail = (message: string): never => {
    throw new DeploymentRecordInvalidError(path, message);
  };
  if (typeof json !== "object" || json === null) return fail("not an object");
  const record = json as DeploymentRecord;
  if (record.format !== DEPLOYMENT_RECORD_FORMAT) fail(`format is not ${DEPLOYMENT_RECORD_FORMAT}`);
  if (!Number.isSafeInteger(record.chainId)) fail("chainId is not an integer");
  if (chainId !== undefined && record.chainId !== chainId) fail(`chainId is ${record.chainId}, expected ${chainId}`);
  if (!Number.isSafeInteger(record.blockNumber) || record.blockNumber < 0) fail("blockNumber is not a block number");
  const address = (value: unknown, field: string): Address =>
    typeof value === "string" && isAddress(value, { strict: false }) ? getAddress(value) : fail(`${field} is not an address`);
  const addresses = record.addresses ?? fail("addresses missing");
  const configuration = record.configuration ?? fail("configuration missing");
  if (!Array.isArray(configuration.signers)) fail("configuration.signers is not a list");
  if (typeof record.salt !== "string" || !/^0x[0-9a-fA-F]{64}$/.test(record.salt)) fail("salt is not 32 bytes of hex");
  return {
    ...record,
    deployer: address(record.deployer, "deployer"),
    deterministicDeployer: address(record.deterministicDeployer, "deterministicDeployer"),
    addresses: {
      depository: address(addresses.depository, "addresses.depository"),
      attestedReceiver: address(addresses.attestedReceiver, "addresses.attestedReceiver"),
      multicaller: address(addresses.multicaller, "addresses.multicaller"),
      ...(addresses.depositAddressFactory !== undefined
        ? { depositAddressFactory: address(addresses.depositAddressFactory, "addresses.depositAddressFactory") }
        : {}),
    },
    configuration: {
      owner: address(configuration.owner, "configuration.owner"),
      allocator: address(configuration.allocator, "configuration.allocator"),
      signers: configuration.signers.map((signer, i) => address(signer, `configuration.signers[${i}]`)),
      ...(Array.isArray(configuration.currencies)
        ? { currencies: configuration.currencies.map((currency, i) => address(currency, `configuration.currencies[${i}]`)) }
        : {}),
    },
    transactions: record.transactions ?? {},
    ...(record.multicall3 !== undefined ? { multicall3: address(record.multicall3, "multicall3") } : {}),
  };
}

/** Every `<chainId>.json` record in `dir` (none when `dir` does not exist). */
export async function readDeploymentRecords(dir: string): Promise<DeploymentRecord[]> {
  let names: string[];
  try {
    names = await readdir(dir);
  } catch (cause) {
    if ((cause as NodeJS.ErrnoException).code === "ENOENT") return [];
    throw new DeploymentRecordInvalidError(dir, "unreadable", { cause });
  }
  const records: DeploymentRecord[] = [];
  for (const name of names.filter((file) => /^\d+\.json$/.test(file)).sort()) {
    const record = await readDeploymentRecord(dir, Number(name.slice(0, -".json".length)));
    if (record) records.push(record);
  }
  return records;
}

/**
 * A record of the same deployer and salt on another chain whose addresses differ from `addresses`:
 * the build changed since that chain was deployed (sources, compiler settings, or even the set of
 * files compiled together, which enters solc's metadata hash), so this chain would not match it.
 */
export function findAddressDrift(
  records: readonly DeploymentRecord[],
  deployment: { chainId: number; deployer: Address; salt: Hex; addresses: FerryAddresses },
): DeploymentRecord | undefined {
  const { chainId, deployer, salt, addresses } = deployment;
  return records.find(
    (record) =>
      record.chainId !== chainId &&
      record.deployer.toLowerCase() === deployer.toLowerCase() &&
      record.salt.toLowerCase() === salt.toLowerCase() &&
      !sameAddresses(record.addresses, addresses),
  );
}

/**
 * The record after another run on the same deployment: the first deployment's block, time and
 * transactions stay, later transactions are added, the configuration is the latest.
 */
export function mergeDeploymentRecords(previous: DeploymentRecord, next: DeploymentRecord): DeploymentRecord {
  return {
    ...next,
    blockNumber: Math.min(previous.blockNumber, next.blockNumber),
    ...(previous.deployedAt !== undefined ? { deployedAt: previous.deployedAt } : {}),
    transactions: { ...previous.transactions, ...next.transactions },
    ...((next.multicall3 ?? previous.multicall3) ? { multicall3: (next.multicall3 ?? previous.multicall3)! } : {}),
  };
}

/**
 * Whether two sets of Ferry addresses are the same (case-insensitive). The factory is compared only
 * when both have one: a record from before deposit addresses is the same deployment, one contract short.
 */
export function sameAddresses(a: RecordedFerryAddresses, b: RecordedFerryAddresses): boolean {
  const factory = a.depositAddressFactory === undefined || b.depositAddressFactory === undefined || a.depositAddressFactory.toLowerCase() === b.depositAddressFactory.toLowerCase();
  return (
    factory &&
    a.depository.toLowerCase() === b.depository.toLowerCase() &&
    a.attestedReceiver.toLowerCase() === b.attestedReceiver.toLowerCase() &&
    a.multicaller.toLowerCase() === b.multicaller.toLowerCase()
  );
}

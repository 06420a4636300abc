/**
 * Deterministic deployment of Ferry's contracts (Depository, AttestedReceiver, Multicaller,
 * DepositAddressFactory): the same
 * addresses on every chain, CREATE2 through the standard deterministic-deployment proxy, then
 * configuration and the two-step ownership handover. Idempotent: every step reads the chain first and
 * is skipped when its effect is already there, so a second run sends no transaction.
 * The pure parts live in ferryPlan.ts (what to deploy where) and ferryStateCheck.ts (the check).
 */
import {
  BaseError,
  getAddress,
  isAddressEqual,
  keccak256,
  parseAbi,
  zeroAddress,
  type Account,
  type Address,
  type Chain,
  type Hex,
  type PublicClient,
  type TestClient,
  type Transport,
  type WalletClient,
} from "viem";
import { InvalidInputError } from "../core/errors.ts";
import { parseAddress } from "../core/inputParsers.ts";
import { COMPILER_SETTINGS, VIA_IR_SOURCES, solcVersionOfBuild } from "./compilerSettings.ts";
import { AllocatorChangeDelayedError, DeployerNotOwnerError, DeploymentConflictError, DeploymentFailedError } from "./deployErrors.ts";
import { ENTRY_POINT_PROBES, entryPointRecord, entryPointVerdict, type EntryPointProbe } from "./entryPoints.ts";
import { assertEvmSupport, probeEvmSupport } from "./evmSupport.ts";
import { DETERMINISTIC_DEPLOYER, ensureDeterministicDeployer } from "./deterministicDeployer.ts";
import { DEPLOYMENT_RECORD_FORMAT, mergeDeploymentRecords, sameAddresses, type CompilerRecord, type DeploymentRecord } from "./deploymentRecord.ts";
import { FERRY_ABIS, FERRY_ARTIFACTS, FERRY_CONTRACTS, type FerryContractName } from "./ferryArtifacts.ts";
import { DEFAULT_FERRY_SALT, planFerryContracts, type FerryAddresses, type FerryPlan } from "./ferryPlan.ts";
import { compareFerryState, type CheckRow, type ExpectedFerryState, type ObservedFerryState } from "./ferryStateCheck.ts";
import { runtimeCodeFingerprint } from "./runtimeCode.ts";

export type FerryDeployOptions = {
  /** Final owner of Depository and AttestedReceiver; the deployer starts a two-step transfer to it. Default: the deployer. */
  owner?: Address;
  /** The key whose EIP-712 signature releases Depository funds. */
  allocator: Address;
  /** Attestation signers allowed on the AttestedReceiver (added; signers already allowed stay). */
  signers: Address[];
  /** ERC-20 destination currencies listed on the AttestedReceiver (added; listed ones stay). Default none. */
  currencies?: Address[];
  /** CREATE2 salt (32 bytes). Default: DEFAULT_FERRY_SALT. */
  salt?: Hex;
};

/** The contracts an owner holds, with the call the new owner must make to accept them. */
export type PendingOwnership = { newOwner: Address; contracts: Array<{ contract: "Depository" | "AttestedReceiver"; address: Address }> };

export type FerryDeployResult = {
  chainId: number;
  addresses: FerryAddresses;
  /** Every transaction this call sent, in order (empty on a re-run). */
  transactions: Hex[];
  /** True when nothing had to be sent: contracts, configuration and handover were all in place. */
  alreadyDeployed: boolean;
  record: DeploymentRecord;
  /** Set while a handover waits for the new owner's `acceptOwnership()`. */
  pendingOwnership?: PendingOwnership;
};

/** A wallet client with its account: the deployer. */
export type DeployWalletClient = WalletClient<Transport, Chain | undefined, Account>;
type Ownable = "Depository" | "AttestedReceiver";

/**
 * Where the contracts land for `deployer`, `allocator` (the Depository's constructor allocator) and
 * `salt`, on every chain. Pure.
 */
export function predictFerryAddresses(args: { deployer: Address; allocator: Address; salt?: Hex }): FerryAddresses {
  return planFerryContracts(args).addresses;
}

/**
 * Deploys (or completes, or confirms) Ferry on the chain behind the clients. `walletClient.account`
 * is the deployer. `testClient` marks a dev chain where a missing CREATE2 proxy may be installed.
 * `previous` is the chain's earlier record, if any: its block and transactions are kept.
 */
export async function deployFerryContracts(args: {
  publicClient: PublicClient;
  walletClient: DeployWalletClient;
  testClient?: TestClient;
  options: FerryDeployOptions;
  previous?: DeploymentRecord;
  log?: (line: string) => void;
}): Promise<FerryDeployResult> {
  const { publicClient, walletClient, testClient } = args;
  const log = args.log ?? (() => {});
  const deployer = getAddress(walletClient.account.address);
  const options = normalizeOptions(args.options, deployer);
  const chainId = await publicClient.getChainId();
  // Before anything is sent: a chain without PUSH0 / MCOPY / TSTORE would take the deployment and
  // fail at the first deposit or fill.
  await assertEvmSupport(publicClient, chainId);
  // The Depository's address depends on the allocator it was constructed with: a re-run after an
  // allocator change (propose → apply) plans with the record's constructor allocator, not the new one.
  const constructorAllocator = constructorAllocatorOf(args.previous, deployer, options.salt) ?? options.allocator;
  const plan = planFerryContracts({ deployer, salt: options.salt, allocator: constructorAllocator });
  const sent: Hex[] = [];
  const steps: Record<string, Hex> = {};
  const blocks: bigint[] = [];

  const send = async (step: string, request: () => Promise<Hex>): Promise<void> => {
    let hash: Hex;
    try {
      hash = await request();
    } catch (cause) {
      throw new DeploymentFailedError(step, `transaction rejected: ${shortMessage(cause)}`, { cause });
    }
    const receipt = await publicClient.waitForTransactionReceipt({ hash });
    if (receipt.status !== "success") throw new DeploymentFailedError(step, `transaction ${hash} reverted`);
    sent.push(hash);
    steps[step] = hash;
    blocks.push(receipt.blockNumber);
    log(`${step.padEnd(40)} tx ${hash}`);
  };
  const write = (step: string, contract: FerryContractName, functionName: string, callArgs: readonly unknown[]) =>
    send(step, () =>
      walletClient.writeContract({
        address: addressOf(plan.addresses, contract),
        abi: FERRY_ABIS[contract],
        functionName,
        args: callArgs,
        account: walletClient.account,
        chain: walletClient.chain,
      } as Parameters<DeployWalletClient["writeContract"]>[0]),
    );

  // 1. The CREATE2 proxy.
  const proxy = await ensureDeterministicDeployer({ publicClient, walletClient, testClient });
  if (proxy.deployed) {
    log(`deterministic deployer ${DETERMINISTIC_DEPLOYER} installed (${proxy.method})`);
    if (proxy.transaction) {
      sent.push(proxy.transaction);
      steps.DeterministicDeployer = proxy.transaction;
    }
  }

  // 2. The contracts, in order; code already at an address must be this build's.
  for (const contract of plan.contracts) {
    const artifact = FERRY_ARTIFACTS[contract.name];
    const expected = runtimeCodeFingerprint(artifact.deployedBytecode, artifact.immutableReferences);
    const existing = await publicClient.getCode({ address: contract.address });
    if (existing !== undefined && existing !== "0x") {
      if (runtimeCodeFingerprint(existing, artifact.immutableReferences) !== expected) {
        throw new DeploymentConflictError(contract.name, `${contract.address} holds code of another build`);
      }
      log(`${contract.name.padEnd(17)}${contract.address} already deployed`);
      continue;
    }
    await send(contract.name, () =>
      walletClient.sendTransaction({ to: DETERMINISTIC_DEPLOYER, data: contract.calldata, account: walletClient.account, chain: walletClient.chain }),
    );
    const code = await publicClient.getCode({ address: contract.address });
    if (code === undefined || code === "0x" || runtimeCodeFingerprint(code, artifact.immutableReferences) !== expected) {
      throw new DeploymentFailedError(contract.name, `no code of this build at ${contract.address} after deploying it`);
    }
    log(`${contract.name.padEnd(17)}${contract.address} deployed`);
  }

  // 3. Configuration, each change only when it is not in effect yet (owner only: the deployer until the handover).
  const owners = {
    Depository: await readOwnership(publicClient, plan.addresses, "Depository"),
    AttestedReceiver: await readOwnership(publicClient, plan.addresses, "AttestedReceiver"),
  };
  const requireDeployerOwns = (contract: Ownable, field: string, call: string) => {
    if (!isAddressEqual(owners[contract].owner, deployer)) {
      throw new DeployerNotOwnerError(contract, field, `owned by ${owners[contract].owner}, not the deployer ${deployer}: the owner must call ${call}`);
    }
  };
  const depositoryRead = { address: plan.addresses.depository, abi: FERRY_ABIS.Depository } as const;
  // The constructor set and locked the allocator: nothing to send. One that differs (rotated since)
  // changes only through propose → 2 days → apply.
  const allocator = await publicClient.readContract({ ...depositoryRead, functionName: "allocator" });
  if (!isAddressEqual(allocator, options.allocator)) {
    const [pending, eta] = await publicClient.readContract({ ...depositoryRead, functionName: "pendingAllocatorChange" });
    const state = isAddressEqual(pending, options.allocator)
      ? `a change to it is proposed, applicable from ${new Date(Number(eta) * 1000).toISOString()}: the owner then calls applyAllocator()`
      : `the owner calls proposeAllocator(${options.allocator}), then applyAllocator() after the 2-day delay`;
    throw new AllocatorChangeDelayedError(`Depository.allocator is ${allocator}, not ${options.allocator}; ${state}`);
  }
  for (const signer of options.signers) {
    const allowed = await publicClient.readContract({
      address: plan.addresses.attestedReceiver,
      abi: FERRY_ABIS.AttestedReceiver,
      functionName: "isSigner",
      args: [signer],
    });
    if (allowed) continue;
    requireDeployerOwns("AttestedReceiver", `signer ${signer}`, `setSigner(${signer}, true)`);
    await write(`AttestedReceiver.setSigner(${signer})`, "AttestedReceiver", "setSigner", [signer, true]);
  }

  for (const currency of options.currencies) {
    const listed = await publicClient.readContract({
      address: plan.addresses.attestedReceiver,
      abi: FERRY_ABIS.AttestedReceiver,
      functionName: "isCurrencyAllowed",
      args: [currency],
    });
    if (listed) continue;
    requireDeployerOwns("AttestedReceiver", `currency ${currency}`, `setCurrency(${currency}, true)`);
    await write(`AttestedReceiver.setCurrency(${currency})`, "AttestedReceiver", "setCurrency", [currency, true]);
  }

  // 4. The handover: transferOwnership to the final owner, who then accepts.
  const pending: PendingOwnership["contracts"] = [];
  for (const contract of ["Depository", "AttestedReceiver"] as const) {
    const { owner, pendingOwner } = owners[contract];
    if (isAddressEqual(owner, options.owner)) continue;
    if (!isAddressEqual(owner, deployer)) {
      throw new DeployerNotOwnerError(contract, "owner", `owned by ${owner}, neither the deployer nor the requested owner ${options.owner}`);
    }
    if (!isAddressEqual(pendingOwner, options.owner)) {
      await write(`${contract}.transferOwnership`, contract, "transferOwnership", [options.owner]);
    }
    pending.push({ contract, address: addressOf(plan.addresses, contract) });
  }

  const alreadyDeployed = sent.length === 0;
  const previous =
    args.previous && args.previous.chainId === chainId && sameAddresses(args.previous.addresses, plan.addresses) ? args.previous : undefined;
  let record = await buildRecord({ publicClient, chainId, plan, options, steps, blocks, knownBlock: previous?.blockNumber, log });
  if (previous) record = mergeDeploymentRecords(previous, record);
  if (alreadyDeployed) log(`already deployed on chain ${chainId}: no transaction sent`);
  return {
    chainId,
    addresses: plan.addresses,
    transactions: sent,
    alreadyDeployed,
    record,
    ...(pending.length > 0 ? { pendingOwnership: { newOwner: options.owner, contracts: pending } } : {}),
  };
}

/**
 * Reads a deployment back and compares it with `expected`: each contract's runtime code against this
 * build (immutables masked, their values checked through getters), owner and pending owner,
 * allocator, and each expected signer. `ok` is false when any row is off.
 */
export async function checkFerryDeployment(args: {
  publicClient: PublicClient;
  addresses: FerryAddresses;
  expected: ExpectedFerryState;
}): Promise<{ ok: boolean; rows: CheckRow[] }> {
  const { publicClient, addresses, expected } = args;
  const chainId = await publicClient.getChainId();
  const evm = await probeEvmSupport(publicClient);
  const code = {} as Record<FerryContractName, Hex | undefined>;
  for (const name of FERRY_CONTRACTS) code[name] = await publicClient.getCode({ address: addressOf(addresses, name) });
  const hasCode = (name: FerryContractName) => code[name] !== undefined && code[name] !== "0x";
  const observed: ObservedFerryState = { chainId, code, evmSupport: evm.ok ? "ok" : evm.reason };
  observed.entryPoints = await probeEntryPoints(
    publicClient,
    addresses,
    FERRY_CONTRACTS.filter((name) => hasCode(name)),
  );
  if (hasCode("AttestedReceiver")) {
    const receiver = { address: addresses.attestedReceiver, abi: FERRY_ABIS.AttestedReceiver } as const;
    observed.attestedReceiver = {
      ...(await readOwnership(publicClient, addresses, "AttestedReceiver")),
      multicaller: await publicClient.readContract({ ...receiver, functionName: "multicaller" }),
      currencies: await Promise.all(
        (expected.currencies ?? []).map(async (currency) => ({
          currency,
          allowed: await publicClient.readContract({ ...receiver, functionName: "isCurrencyAllowed", args: [currency] }),
        })),
      ),
      signers: await Promise.all(
        expected.signers.map(async (signer) => ({
          signer,
          allowed: await publicClient.readContract({ ...receiver, functionName: "isSigner", args: [signer] }),
        })),
      ),
    };
  }
  if (hasCode("DepositAddressFactory")) {
    const factory = { address: addresses.depositAddressFactory, abi: FERRY_ABIS.DepositAddressFactory } as const;
    observed.depositAddressFactory = {
      depository: await publicClient.readContract({ ...factory, functionName: "depository" }),
      implementation: await publicClient.readContract({ ...factory, functionName: "implementation" }),
    };
  }
  if (hasCode("Depository")) {
    const depository = { address: addresses.depository, abi: FERRY_ABIS.Depository } as const;
    const [, name, version, domainChainId, verifyingContract] = await publicClient.readContract({ ...depository, functionName: "eip712Domain" });
    observed.depository = {
      ...(await readOwnership(publicClient, addresses, "Depository")),
      allocator: await publicClient.readContract({ ...depository, functionName: "allocator" }),
      pendingAllocator: (await publicClient.readContract({ ...depository, functionName: "pendingAllocatorChange" }))[0],
      eip712Domain: { name, version, chainId: domainChainId, verifyingContract },
    };
  }
  const rows = compareFerryState({ addresses, expected, observed });
  return { ok: rows.every((row) => row.ok), rows };
}

/**
 * The compiler settings of this build, for the record (ts/deploy/compilerSettings.ts + the artifacts), with each
 * contract's init code hash (constructor arguments included) for `plan`.
 */
export function compilerRecord(plan: FerryPlan): CompilerRecord {
  const solcVersion = solcVersionOfBuild(FERRY_ARTIFACTS.Depository.buildInfoId);
  const viaIRSources = [...VIA_IR_SOURCES] as string[];
  const contracts = {} as CompilerRecord["contracts"];
  for (const name of FERRY_CONTRACTS) {
    const artifact = FERRY_ARTIFACTS[name];
    contracts[name] = {
      sourceName: artifact.sourceName,
      viaIR: viaIRSources.includes(artifact.sourceName),
      buildInfoId: artifact.buildInfoId,
      initCodeHash: keccak256(plan.contracts.find((contract) => contract.name === name)!.initCode),
      runtimeCodeFingerprint: runtimeCodeFingerprint(artifact.deployedBytecode, artifact.immutableReferences),
    };
  }
  return {
    solcVersion,
    settings: { optimizer: { ...COMPILER_SETTINGS.optimizer }, evmVersion: COMPILER_SETTINGS.evmVersion },
    viaIRSources,
    contracts,
  };
}

// ---------------------------------------------------------------------------------------------- internal

function normalizeOptions(options: FerryDeployOptions, deployer: Address): Required<FerryDeployOptions> {
  const address = (value: Address, path: string): Address => {
    const parsed = parseAddress(value, path);
    if (isAddressEqual(parsed, zeroAddress)) throw new InvalidInputError("may not be the zero address", { path });
    return parsed;
  };
  const salt = options.salt ?? DEFAULT_FERRY_SALT;
  if (!/^0x[0-9a-fA-F]{64}$/.test(salt)) throw new InvalidInputError(`not 32 bytes of hex: ${salt}`, { path: "salt" });
  const signers: Address[] = [];
  for (const [index, value] of options.signers.entries()) {
    const signer = address(value, `signers[${index}]`);
    if (!signers.some((known) => isAddressEqual(known, signer))) signers.push(signer);
  }
  const currencies: Address[] = [];
  for (const [index, value] of (options.currencies ?? []).entries()) {
    const currency = address(value, `currencies[${index}]`);
    if (!currencies.some((known) => isAddressEqual(known, currency))) currencies.push(currency);
  }
  return { owner: address(options.owner ?? deployer, "owner"), allocator: address(options.allocator, "allocator"), signers, currencies, salt };
}

/** The allocator an earlier record of the same deployer and salt constructed its Depository with. */
export function constructorAllocatorOf(previous: DeploymentRecord | undefined, deployer: Address, salt: Hex): Address | undefined {
  if (!previous || !isAddressEqual(previous.deployer, deployer) || previous.salt.toLowerCase() !== salt.toLowerCase()) return undefined;
  const recorded = previous.constructorArgs?.Depository?.[1];
  return recorded === undefined ? undefined : getAddress(recorded);
}

function addressOf(addresses: FerryAddresses, contract: FerryContractName): Address {
  const byName: Record<FerryContractName, Address> = {
    Depository: addresses.depository,
    AttestedReceiver: addresses.attestedReceiver,
    Multicaller: addresses.multicaller,
    DepositAddressFactory: addresses.depositAddressFactory,
  };
  return byName[contract];
}

/** Ownable2Step's two views, shared by Depository and AttestedReceiver. */
const OWNABLE_2STEP_ABI = parseAbi(["function owner() view returns (address)", "function pendingOwner() view returns (address)"]);

async function readOwnership(publicClient: PublicClient, addresses: FerryAddresses, contract: Ownable): Promise<{ owner: Address; pendingOwner: Address }> {
  const target = { address: addressOf(addresses, contract), abi: OWNABLE_2STEP_ABI } as const;
  const owner = await publicClient.readContract({ ...target, functionName: "owner" });
  const pendingOwner = await publicClient.readContract({ ...target, functionName: "pendingOwner" });
  return { owner, pendingOwner };
}

async function buildRecord(args: {
  publicClient: PublicClient;
  chainId: number;
  plan: FerryPlan;
  options: Required<FerryDeployOptions>;
  steps: Record<string, Hex>;
  blocks: bigint[];
  /** The block of an earlier record of this deployment, when there is one. */
  knownBlock: number | undefined;
  log: (line: string) => void;
}): Promise<DeploymentRecord> {
  const { publicClient, plan, options } = args;
  const blockNumber =
    args.blocks.length > 0
      ? args.blocks.reduce((a, b) => (a < b ? a : b))
      : args.knownBlock !== undefined
        ? BigInt(args.knownBlock)
        : await findDeploymentBlock(publicClient, plan.addresses.depository, args.log);
  let deployedAt: string | undefined;
  try {
    const block = await publicClient.getBlock({ blockNumber });
    deployedAt = new Date(Number(block.timestamp) * 1000).toISOString();
  } catch {
    deployedAt = undefined;
  }
  const constructorArgs = {} as DeploymentRecord["constructorArgs"];
  for (const contract of plan.contracts) constructorArgs[contract.name] = [...contract.constructorArgs];
  return {
    format: DEPLOYMENT_RECORD_FORMAT,
    chainId: args.chainId,
    addresses: plan.addresses,
    deployer: plan.deployer,
    salt: plan.salt,
    deterministicDeployer: getAddress(DETERMINISTIC_DEPLOYER),
    blockNumber: Number(blockNumber),
    ...(deployedAt !== undefined ? { deployedAt } : {}),
    transactions: args.steps,
    constructorArgs,
    configuration: {
      owner: options.owner,
      allocator: options.allocator,
      signers: options.signers,
      ...(options.currencies.length > 0 ? { currencies: options.currencies } : {}),
    },
    compiler: compilerRecord(plan),
    entryPoints: entryPointRecord(),
  };
}

/**
 * `--check`'s entry-point rows: each compact entry point of `contracts` (those with code) probed at its
 * address (./entryPoints.ts), with what the deployed code answered.
 */
export async function probeEntryPoints(
  publicClient: PublicClient,
  addresses: FerryAddresses,
  contracts: readonly FerryContractName[],
): Promise<NonNullable<ObservedFerryState["entryPoints"]>> {
  return Promise.all(
    ENTRY_POINT_PROBES.filter((probe) => contracts.includes(probe.contract)).map(async (probe) => ({
      contract: probe.contract,
      signature: probe.signature,
      expected: probe.expectedError.split("(")[0]!,
      verdict: await probeEntryPoint(publicClient, addressOf(addresses, probe.contract), probe),
    })),
  );
}

/** One `--check` probe: an eth_call of the entry point with zero arguments, and what its revert says. */
async function probeEntryPoint(publicClient: PublicClient, to: Address, probe: EntryPointProbe): Promise<string> {
  try {
    await publicClient.call({ to, data: probe.data });
  } catch (error) {
    let data: Hex | undefined;
    if (error instanceof BaseError) {
      error.walk((e) => {
        const candidate = (e as { data?: unknown }).data;
        if (typeof candidate === "string" && /^0x[0-9a-fA-F]*$/.test(candidate)) data = candidate as Hex;
        return data !== undefined;
      });
    }
    return entryPointVerdict(probe, data, true);
  }
  return entryPointVerdict(probe, undefined, false);
}

/**
 * The first block with code at `address` (binary search over eth_getCode at past blocks), for a
 * deployment found onchain without a record. A node without history answers 0: index from genesis.
 */
async function findDeploymentBlock(publicClient: PublicClient, address: Address, log: (line: string) => void): Promise<bigint> {
  let high = await publicClient.getBlockNumber();
  let low = 0n;
  try {
    while (low < high) {
      const middle = (low + high) / 2n;
      const code = await publicClient.getCode({ address, blockNumber: middle });
      if (code !== undefined && code !== "0x") high = middle;
      else low = middle + 1n;
    }
    return low;
  } catch {
    log(`cannot read past state to find the deployment block of ${address}; recording block 0`);
    return 0n;
  }
}

function shortMessage(error: unknown): string {
  const message = (error as { shortMessage?: string }).shortMessage ?? (error instanceof Error ? error.message : String(error));
  return message.split("\n")[0]!;
}

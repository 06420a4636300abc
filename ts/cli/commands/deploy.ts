/**
 * `ferry deploy`: Ferry's contracts at the same addresses on every chain (ts/deploy), and
 * `ferry deploy --check`: what holds onchain. The chain is one of: `--rpc-url <url>` (any node, from
 * any directory, no Hardhat), `--config <ferry.json>` (every chain of the service's config, records
 * written where the service reads them), or `--network <name>` (a network of this repository's
 * hardhat.config.ts, through Hardhat: its config variables and keystore).
 */
import { getAddress, isAddressEqual, type Address, type Hex } from "viem";
import { parseAddress, parseBytes32 } from "../../core/inputParsers.ts";
import { FerryError } from "../../core/errors.ts";
import {
  deploymentRecordPath,
  findAddressDrift,
  readDeploymentRecord,
  readDeploymentRecords,
  writeDeploymentRecord,
  type DeploymentRecord,
} from "../../deploy/deploymentRecord.ts";
import { DeploymentConflictError } from "../../deploy/deployErrors.ts";
import { checkFerryDeployment, constructorAllocatorOf, deployFerryContracts, predictFerryAddresses, type FerryDeployResult } from "../../deploy/ferryDeployment.ts";
import { connectFerryNetwork, DEPLOYER_KEY_ENV, type FerryNetwork } from "../../deploy/ferryNetwork.ts";
import { connectRpcNetwork } from "../../deploy/rpcNetwork.ts";
import { ensureMulticall3, MULTICALL3_ADDRESS } from "../../deploy/multicall3.ts";
import { readConfigFile } from "../../service/config/loadConfig.ts";
import { DEFAULT_FERRY_SALT } from "../../deploy/ferryPlan.ts";
import { formatCheckTable, type CheckRow } from "../../deploy/ferryStateCheck.ts";
import { EXIT, UsageError, jsonReplacer, printError, type CliIo } from "../cliIo.ts";
import type { CommandGroup, GlobalFlags } from "../commandGroup.ts";
import { parseCommandArgs, requiredFlag, type ParsedCommand } from "../parseCommandArgs.ts";

/** `acceptOwnership()`: what the new owner sends to each contract to complete the handover. */
const ACCEPT_OWNERSHIP_CALLDATA = "0x79ba5097";

const HELP = `Usage: ferry deploy --rpc-url <url> | --config <ferry.json> | --network <name> [options]
       ferry deploy --check --rpc-url <url> | --config <ferry.json> | --network <name> [options]

Checks first (one eth_call, nothing sent) that the chain runs PUSH0, MCOPY and TSTORE (the build
targets evm prague); a chain without them fails with UNSUPPORTED_CHAIN. Deploys Depository,
AttestedReceiver and Multicaller through the standard CREATE2 proxy
(0x4e59b44847b379578588920ca78fbf26c0b4956c): the same addresses on every chain for the same
deployer and salt. Re-running sends only what is missing; when nothing is, it says "already
deployed" and sends no transaction. Writes <deployments-dir>/<chainId>.json.

The chain (exactly one of):
  --rpc-url <url>         any JSON-RPC node, from any directory (records: ./deployments)
  --config <ferry.json>   every chain of the service's config (or those named by --chain <id>,
                          repeatable), each checked to answer with its configured id first; records
                          go to the config's deploymentsDir, where ferry serve reads them; the
                          allocator and signer default to the addresses of FERRY_ALLOCATOR_KEY and
                          FERRY_ATTESTER_KEY, the currencies to the chain's erc20Currencies
  --network <name>        a network of this repository's hardhat.config.ts (RPC URL: config variable
                          FERRY_RPC_URL_<NAME>; key: also from the Hardhat keystore)

Options:
  --owner 0x...           final owner: the deployer starts a two-step transfer (default: the deployer)
  --allocator 0x...       Depository allocator (default: the record's; on a dev chain, the deployer)
  --signer 0x...          attestation signer allowed on the AttestedReceiver (repeatable)
  --currency 0x...        ERC-20 destination currency listed on the AttestedReceiver (repeatable)
  --salt 0x...            32-byte CREATE2 salt (default: keccak256("ferry/v1"))
  --deployments-dir <dir> where records live (default: deployments; with --config its deploymentsDir)
  --check                 verify instead of deploy: the chain runs this build's opcodes, code hash
                          of this build, owner, pending owner, allocator (locked, no change pending),
                          signers, currencies; exit 1 naming what is off. Expects the record's
                          configuration unless flags say otherwise.
  --deployer 0x...        --check without a record: the deployer the addresses derive from
  --allow-new-addresses   deploy even though another chain's record (same deployer and salt) has
                          other addresses, i.e. this build differs from the one deployed there
  --multicall3            where Multicall3 is missing at 0xcA11bde05977b3631167028862bE2a173976CA11,
                          fund its keyless deployer with up to 0.1 native from the deployer and
                          broadcast its presigned transaction (a dev chain gets it without the flag).
                          Without it a chain lacking Multicall3 is reported and nothing is sent; the
                          record notes Multicall3 where the chain has it (GET /chains serves it)
  --json                  one JSON object on stdout (progress goes to stderr)

Deployer key: $${DEPLOYER_KEY_ENV} from the environment, else the node's first unlocked account on a
local dev node (Hardhat node, anvil); with --network also the network's configured account (config
variable FERRY_DEPLOYER_KEY, from the environment or the Hardhat keystore). The key is never printed.
An RPC URL that does not answer (RPC_UNREACHABLE), a node on another chain than the config says
(CHAIN_ID_MISMATCH) or a missing key (DEPLOYER_KEY_MISSING) stop the run before anything is sent: exit 2.
`;

const OPTIONS = {
  network: { type: "string" },
  "rpc-url": { type: "string" },
  config: { type: "string" },
  chain: { type: "string", multiple: true },
  owner: { type: "string" },
  allocator: { type: "string" },
  signer: { type: "string", multiple: true },
  currency: { type: "string", multiple: true },
  salt: { type: "string" },
  "deployments-dir": { type: "string" },
  check: { type: "boolean" },
  deployer: { type: "string" },
  "allow-new-addresses": { type: "boolean" },
  multicall3: { type: "boolean" },
} as const;

type Flags = {
  network?: string;
  rpcUrl?: string;
  config?: string;
  chains?: number[];
  owner?: Address;
  allocator?: Address;
  signers?: Address[];
  currencies?: Address[];
  salt?: Hex;
  deploymentsDir?: string;
  deployer?: Address;
  allowNewAddresses: boolean;
  multicall3: boolean;
};

/** What a service config says the deployment should be (`--config`); flags win over it, it wins over a record. */
type ConfigDefaults = { allocator?: Address; signers?: Address[]; currencies?: Address[] };

function flagsOf(parsed: ParsedCommand): Flags {
  const address = (name: string): Address | undefined => {
    const value = parsed.values[name];
    return typeof value === "string" ? parseAddress(value, `--${name}`) : undefined;
  };
  const signerValues = (parsed.values.signer as string[] | undefined) ?? [];
  const currencyValues = (parsed.values.currency as string[] | undefined) ?? [];
  const salt = parsed.values.salt;
  const dir = parsed.values["deployments-dir"];
  const text = (name: string) => (typeof parsed.values[name] === "string" && parsed.values[name] !== "" ? (parsed.values[name] as string) : undefined);
  const chainValues = ((parsed.values.chain as string[] | undefined) ?? []).flatMap((value) => value.split(","));
  for (const value of chainValues) if (!/^[1-9][0-9]{0,15}$/.test(value.trim())) throw new UsageError(`--chain ${JSON.stringify(value)} is not a chain id`);
  return {
    ...(text("network") ? { network: text("network") } : {}),
    ...(text("rpc-url") ? { rpcUrl: text("rpc-url") } : {}),
    ...(text("config") ? { config: text("config") } : {}),
    ...(chainValues.length > 0 ? { chains: chainValues.map((value) => Number(value.trim())) } : {}),
    ...(address("owner") ? { owner: address("owner") } : {}),
    ...(address("allocator") ? { allocator: address("allocator") } : {}),
    ...(signerValues.length > 0
      ? { signers: signerValues.flatMap((value) => value.split(",")).map((value) => parseAddress(value, "--signer")) }
      : {}),
    ...(currencyValues.length > 0
      ? { currencies: currencyValues.flatMap((value) => value.split(",")).map((value) => parseAddress(value, "--currency")) }
      : {}),
    ...(typeof salt === "string" ? { salt: parseBytes32(salt, "--salt") } : {}),
    ...(typeof dir === "string" && dir !== "" ? { deploymentsDir: dir } : {}),
    ...(address("deployer") ? { deployer: address("deployer") } : {}),
    allowNewAddresses: parsed.values["allow-new-addresses"] === true,
    multicall3: parsed.values.multicall3 === true,
  };
}

async function run(args: readonly string[], io: CliIo, globals: GlobalFlags): Promise<number> {
  const parsed = parseCommandArgs(args, OPTIONS, { min: 0, max: 0 });
  if (parsed.help) {
    io.stdout(HELP);
    return EXIT.OK;
  }
  const json = parsed.json || globals.json;
  const flags = flagsOf(parsed);
  if (parsed.values.check !== true && flags.deployer !== undefined) throw new UsageError("--deployer is only for --check (deploying uses the deployer key)");

  const chosen = [flags.network, flags.rpcUrl, flags.config].filter((value) => value !== undefined).length;
  if (chosen !== 1) {
    throw new UsageError("give exactly one of --rpc-url <url>, --config <ferry.json> or --network <name> (a network of this repository's hardhat.config.ts)");
  }
  if (flags.chains && !flags.config) throw new UsageError("--chain picks chains of --config <ferry.json>");
  const mode = parsed.values.check === true ? check : deploy;

  if (flags.rpcUrl !== undefined) {
    const network = await connectRpcNetwork({ rpcUrl: flags.rpcUrl, env: io.env });
    return mode(network, { ...flags, deploymentsDir: flags.deploymentsDir ?? "deployments" }, io, json, {});
  }
  if (flags.config !== undefined) return deployConfiguredChains(flags, flags.config, mode, io, json);

  // Loaded here, not at the top: Hardhat (and the project config) is heavy and only --network needs it.
  let hre: typeof import("hardhat").default;
  try {
    hre = (await import("hardhat")).default;
  } catch (error) {
    throw new UsageError(
      `--network needs Hardhat and this repository's hardhat.config.ts (${(error as Error).message.split("\n")[0]!.slice(0, 160)}): from anywhere else use --rpc-url <url> or --config <ferry.json>`,
    );
  }
  const name = flags.network!;
  if (!Object.hasOwn(hre.config.networks, name)) {
    throw new UsageError(`unknown network "${name}"; hardhat.config.ts has: ${Object.keys(hre.config.networks).join(", ")} (or use --rpc-url <url>)`);
  }
  const network = await connectFerryNetwork({ network: hre.network, name, env: io.env });
  try {
    return await mode(network, { ...flags, deploymentsDir: flags.deploymentsDir ?? "deployments" }, io, json, {});
  } finally {
    await network.close();
  }
}

type Mode = (network: FerryNetwork, flags: Flags & { deploymentsDir: string }, io: CliIo, json: boolean, defaults: ConfigDefaults) => Promise<number>;

/**
 * `--config`: every (enabled, or `--chain`-picked) chain of the service's configuration. All chains are
 * reached and their ids checked before anything is sent to any of them; then each is deployed (or
 * checked) in turn. The exit code is the worst of the chains'.
 */
async function deployConfiguredChains(flags: Flags, path: string, mode: Mode, io: CliIo, json: boolean): Promise<number> {
  const config = await readConfigFile({ env: { ...io.env, FERRY_CONFIG: path } });
  const unknown = (flags.chains ?? []).filter((id) => !config.chains.some((chain) => chain.id === id));
  if (unknown.length > 0) throw new UsageError(`--chain ${unknown.join(", ")}: not in ${path} (it has ${config.chains.map((chain) => chain.id).join(", ") || "no chains"})`);
  const picked = config.chains
    .map((chain, index) => ({ chain, index }))
    .filter(({ chain }) => (flags.chains ? flags.chains.includes(chain.id) : !chain.disabled));
  if (picked.length === 0) throw new UsageError(`${path} has no chain to deploy to (chains[] is empty or every chain is disabled)`);

  const networks: { network: FerryNetwork; currencies: Address[] }[] = [];
  for (const { chain, index } of picked) {
    const network = await connectRpcNetwork({
      rpcUrl: chain.rpcUrl,
      env: io.env,
      name: chain.name,
      source: `chains[${index}].rpcUrl of ${path}`,
      expectedChainId: chain.id,
    });
    networks.push({ network, currencies: chain.erc20Currencies.map((currency) => currency.address) });
  }
  const deploymentsDir = flags.deploymentsDir ?? config.deploymentsDir;
  let worst: number = EXIT.OK;
  for (const { network, currencies } of networks) {
    const defaults: ConfigDefaults = {
      ...(config.accounts.allocator ? { allocator: config.accounts.allocator } : {}),
      ...(config.accounts.attester ? { signers: [config.accounts.attester] } : {}),
      ...(currencies.length > 0 ? { currencies } : {}),
    };
    worst = Math.max(worst, await mode(network, { ...flags, deploymentsDir }, io, json, defaults));
  }
  return worst;
}

async function deploy(network: FerryNetwork, flags: Flags & { deploymentsDir: string }, io: CliIo, json: boolean, defaults: ConfigDefaults): Promise<number> {
  const progress = (line: string) => (json ? io.stderr : io.stdout)(`${line}\n`);
  const walletClient = await network.deployer();
  const deployer = getAddress(walletClient.account.address);
  const salt = flags.salt ?? DEFAULT_FERRY_SALT;
  const stored = await readDeploymentRecord(flags.deploymentsDir, network.chainId);
  // The record's configuration is the default only for the same deployment (same deployer and salt).
  const previous = stored && isAddressEqual(stored.deployer, deployer) && stored.salt.toLowerCase() === salt.toLowerCase() ? stored : undefined;
  const allocator = flags.allocator ?? defaults.allocator ?? previous?.configuration.allocator ?? (network.testClient ? deployer : undefined);
  if (allocator === undefined) throw new UsageError("missing --allocator (required on a chain without a deployment record; with --config, FERRY_ALLOCATOR_KEY gives it)");
  const options = {
    allocator,
    signers: flags.signers ?? defaults.signers ?? previous?.configuration.signers ?? [],
    currencies: flags.currencies ?? defaults.currencies ?? previous?.configuration.currencies ?? [],
    owner: flags.owner ?? previous?.configuration.owner ?? deployer,
    salt,
  };

  // Same addresses everywhere: refuse a build that would put this chain elsewhere than the others.
  // The Depository's address depends on its constructor allocator (the record's, once deployed).
  const predicted = predictFerryAddresses({ deployer, salt, allocator: constructorAllocatorOf(previous, deployer, salt) ?? getAddress(allocator) });
  const drift = findAddressDrift(await readDeploymentRecords(flags.deploymentsDir), { chainId: network.chainId, deployer, salt, addresses: predicted });
  if (drift && !flags.allowNewAddresses) {
    throw new DeploymentConflictError(
      "build",
      `this build puts Depository at ${predicted.depository}, but chain ${drift.chainId} has it at ${drift.addresses.depository} for the same deployer and salt ` +
        `(${deploymentRecordPath(flags.deploymentsDir, drift.chainId)}): the bytecode changed since; rebuild that version or pass --allow-new-addresses`,
    );
  }

  progress(`network ${network.networkName} (chain ${network.chainId}), deployer ${deployer}`);
  const result = await deployFerryContracts({
    publicClient: network.publicClient,
    walletClient,
    ...(network.testClient ? { testClient: network.testClient } : {}),
    options,
    ...(previous ? { previous } : {}),
    log: progress,
  });

  const multicall3 = await ensureMulticall3({
    publicClient: network.publicClient,
    walletClient,
    ...(network.testClient ? { testClient: network.testClient } : {}),
    fund: flags.multicall3,
  });
  progress(multicall3.status === "absent" ? `Multicall3: absent — ${multicall3.reason}` : `Multicall3 ${MULTICALL3_ADDRESS}: ${multicall3.status}`);
  const record = multicall3.status === "absent" ? result.record : { ...result.record, multicall3: MULTICALL3_ADDRESS };
  const path = deploymentRecordPath(flags.deploymentsDir, result.chainId);
  const unchanged = result.alreadyDeployed && previous !== undefined && previous.multicall3 === record.multicall3;
  if (!unchanged) await writeDeploymentRecord(flags.deploymentsDir, record);

  if (json) {
    io.stdout(
      `${JSON.stringify(
        {
          network: network.networkName,
          chainId: result.chainId,
          deployer,
          status: result.alreadyDeployed ? "already deployed" : "deployed",
          alreadyDeployed: result.alreadyDeployed,
          addresses: result.addresses,
          transactions: result.transactions,
          record: path,
          pendingOwnership: pendingOwnershipJson(result),
          multicall3: multicall3.status === "absent" ? multicall3 : { ...multicall3, address: MULTICALL3_ADDRESS },
        },
        jsonReplacer,
      )}\n`,
    );
    return EXIT.OK;
  }
  io.stdout(`record: ${path}${unchanged ? " (unchanged)" : ""}\n`);
  if (result.pendingOwnership) io.stdout(pendingOwnershipText(result.pendingOwnership));
  return EXIT.OK;
}

function pendingOwnershipJson(result: FerryDeployResult) {
  const pending = result.pendingOwnership;
  if (!pending) return undefined;
  return {
    newOwner: pending.newOwner,
    calls: pending.contracts.map(({ contract, address }) => ({ contract, to: address, function: "acceptOwnership()", data: ACCEPT_OWNERSHIP_CALLDATA })),
  };
}

function pendingOwnershipText(pending: NonNullable<FerryDeployResult["pendingOwnership"]>): string {
  const lines = pending.contracts.map(({ contract, address }) => `  ${contract.padEnd(17)}${address}  acceptOwnership()  (calldata ${ACCEPT_OWNERSHIP_CALLDATA})\n`);
  return `ownership: transfer to ${pending.newOwner} pending; the new owner must call, from ${pending.newOwner}:\n${lines.join("")}`;
}

async function check(network: FerryNetwork, flags: Flags & { deploymentsDir: string }, io: CliIo, json: boolean, defaults: ConfigDefaults): Promise<number> {
  const record: DeploymentRecord | undefined = await readDeploymentRecord(flags.deploymentsDir, network.chainId);
  const deployer = flags.deployer ?? record?.deployer;
  if (deployer === undefined) {
    throw new UsageError(`no ${deploymentRecordPath(flags.deploymentsDir, network.chainId)}: pass --deployer (and --allocator, --signer, --owner)`);
  }
  const salt = flags.salt ?? record?.salt ?? DEFAULT_FERRY_SALT;
  const sameDeployment = record !== undefined && isAddressEqual(record.deployer, deployer) && record.salt.toLowerCase() === salt.toLowerCase();
  const configuration = sameDeployment ? record.configuration : undefined;
  const allocator = flags.allocator ?? defaults.allocator ?? configuration?.allocator;
  if (allocator === undefined) throw new UsageError("missing --allocator (no deployment record for this deployer and salt)");
  const owner = flags.owner ?? configuration?.owner ?? deployer;
  const addresses = predictFerryAddresses({ deployer, salt, allocator: constructorAllocatorOf(record, getAddress(deployer), salt) ?? getAddress(allocator) });
  const result = await checkFerryDeployment({
    publicClient: network.publicClient,
    addresses,
    expected: {
      owner,
      allocator,
      signers: flags.signers ?? defaults.signers ?? configuration?.signers ?? [],
      currencies: flags.currencies ?? defaults.currencies ?? configuration?.currencies ?? [],
      handoverFrom: deployer,
    },
  });

  const failed = result.rows.filter((row) => !row.ok);
  if (json) {
    io.stdout(`${JSON.stringify({ ok: result.ok, network: network.networkName, chainId: network.chainId, addresses, rows: result.rows })}\n`);
  } else {
    io.stdout(`network ${network.networkName} (chain ${network.chainId})\n${formatCheckTable(result.rows)}\n`);
    const pending = result.rows.filter((row) => row.field === "owner" && row.ok && row.expected.endsWith("(handover pending)"));
    for (const row of pending) io.stdout(`${row.contract}: handover to ${owner} pending: ${owner} must call acceptOwnership()\n`);
  }
  if (result.ok) return EXIT.OK;
  printError(io, json, new FerryError("CHECK_FAILED", failed.map(describeFailure).join("; ")));
  return EXIT.INVALID;
}

function describeFailure(row: CheckRow): string {
  return `${row.contract}.${row.field}: expected ${row.expected}, actual ${row.actual}`;
}

export const deployCommand: CommandGroup = { help: HELP, run };

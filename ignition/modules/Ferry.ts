/**
 * Ferry's contracts through Hardhat Ignition, at the same addresses as `ferry deploy`:
 *
 *   FERRY_ALLOCATOR=0x… FERRY_SIGNERS=0x…,0x… FERRY_OWNER=0x… \
 *     npx hardhat ignition deploy ignition/modules/Ferry.ts --network <name>
 *
 * The deployer is the network's first account (Ignition's default sender; do not pass
 * --default-sender). The inputs are environment variables, not Ignition parameters, because they
 * shape the module itself (the init code holds the deployer; one future per signer):
 *   FERRY_ALLOCATOR  Depository allocator (default: the deployer; set it for any real chain)
 *   FERRY_SIGNERS    comma-separated attestation signers (default: none)
 *   FERRY_OWNER      final owner, gets a two-step transfer (default: the deployer keeps ownership)
 *   FERRY_SALT       32-byte CREATE2 salt (default: keccak256("ferry/v1"))
 *   FERRY_DEPLOYMENTS_DIR  records checked for address drift (default: deployments)
 * The standard CREATE2 proxy must be on the chain (on a fresh local node, run `ferry deploy` first,
 * which installs it). See ts/deploy/README.md.
 */
import hre from "hardhat";
import { getAddress, type Address, type Hex } from "viem";
import { findAddressDrift, readDeploymentRecords } from "../../ts/deploy/deploymentRecord.ts";
import { predictFerryAddresses } from "../../ts/deploy/ferryDeployment.ts";
import { buildFerryIgnitionModule } from "../../ts/deploy/ferryIgnitionModule.ts";
import { DEFAULT_FERRY_SALT } from "../../ts/deploy/ferryPlan.ts";

const env = process.env;
const list = (value: string | undefined): Address[] =>
  (value ?? "").split(",").map((item) => item.trim()).filter((item) => item !== "") as Address[];

// The network Ignition deploys to (`--network`): its first account is the sender.
const connection = await hre.network.getOrCreate();
const [deployer] = (await connection.provider.request({ method: "eth_accounts" })) as Address[];
if (deployer === undefined) throw new Error("the network has no account to deploy from (set FERRY_DEPLOYER_KEY)");

const salt = (env.FERRY_SALT || DEFAULT_FERRY_SALT) as Hex;

// Same addresses everywhere: this build must land where `ferry deploy` put Ferry on other chains
// (deployments/<chainId>.json). A different build (sources, settings, build profile) would not.
const chainId = Number(await connection.provider.request({ method: "eth_chainId" }));
const addresses = predictFerryAddresses({ deployer: getAddress(deployer), salt });
const drift = findAddressDrift(await readDeploymentRecords(env.FERRY_DEPLOYMENTS_DIR || "deployments"), { chainId, deployer, salt, addresses });
if (drift) {
  throw new Error(
    `this build puts Depository at ${addresses.depository}, but chain ${drift.chainId} has it at ${drift.addresses.depository}: the bytecode differs from the build deployed there (see "Known limits" in ts/deploy/README.md)`,
  );
}

export default buildFerryIgnitionModule({
  deployer,
  allocator: (env.FERRY_ALLOCATOR || deployer) as Address,
  signers: list(env.FERRY_SIGNERS),
  ...(env.FERRY_OWNER ? { owner: env.FERRY_OWNER as Address } : {}),
  salt,
});

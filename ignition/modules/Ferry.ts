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
 * The standard CREATE2 proxy must be on the chain: the module checks first and stops with
 * DETERMINISTIC_DEPLOYER_MISSING and the fix (on a fresh local node, run `ferry deploy` once, which
 * installs it). See ts/deploy/README.md.
 */
import hre from "hardhat";
import { prepareFerryIgnitionModule } from "../../ts/deploy/ferryIgnitionEntry.ts";

// The network Ignition deploys to (`--network`): its first account is the sender.
const connection = await hre.network.getOrCreate();

export default await prepareFerryIgnitionModule({ provider: connection.provider, env: process.env });

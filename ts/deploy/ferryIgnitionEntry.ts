/**
 * What ignition/modules/Ferry.ts runs before Ignition plans anything: the network's first account is
 * the deployer, the standard CREATE2 proxy must be on the chain (DETERMINISTIC_DEPLOYER_MISSING with
 * the fix otherwise — Ignition cannot install it, and a send to an empty address would "succeed"
 * deploying nothing), and this build must land where other chains' records say (DEPLOYMENT_CONFLICT).
 * Inputs are environment variables (see the module file), because they shape the module itself.
 */
import { getAddress, type Address, type Hex } from "viem";
import { DeployerKeyMissingError, DeploymentConflictError } from "./deployErrors.ts";
import { findAddressDrift, readDeploymentRecords } from "./deploymentRecord.ts";
import { requireDeterministicDeployer, type RequestProvider } from "./deterministicDeployer.ts";
import { predictFerryAddresses } from "./ferryDeployment.ts";
import { buildFerryIgnitionModule } from "./ferryIgnitionModule.ts";
import { DEFAULT_FERRY_SALT } from "./ferryPlan.ts";

const list = (value: string | undefined): Address[] =>
  (value ?? "").split(",").map((item) => item.trim()).filter((item) => item !== "") as Address[];

export async function prepareFerryIgnitionModule(args: { provider: RequestProvider; env: Readonly<Record<string, string | undefined>> }) {
  const { provider, env } = args;
  const [deployer] = (await provider.request({ method: "eth_accounts" })) as Address[];
  if (deployer === undefined) throw new DeployerKeyMissingError("the network has no account to deploy from (set FERRY_DEPLOYER_KEY)");
  await requireDeterministicDeployer(provider);

  const salt = (env.FERRY_SALT || DEFAULT_FERRY_SALT) as Hex;
  // Same addresses everywhere: this build must land where `ferry deploy` put Ferry on other chains.
  const chainId = Number(await provider.request({ method: "eth_chainId" }));
  const allocator = getAddress((env.FERRY_ALLOCATOR || deployer) as Address);
  const addresses = predictFerryAddresses({ deployer: getAddress(deployer), allocator, salt });
  const drift = findAddressDrift(await readDeploymentRecords(env.FERRY_DEPLOYMENTS_DIR || "deployments"), { chainId, deployer, salt, addresses });
  if (drift) {
    throw new DeploymentConflictError(
      "build",
      `this build puts Depository at ${addresses.depository}, but chain ${drift.chainId} has it at ${drift.addresses.depository}: the bytecode differs from the build deployed there (see "Known limits" in ts/deploy/README.md)`,
    );
  }
  return buildFerryIgnitionModule({
    deployer,
    allocator,
    signers: list(env.FERRY_SIGNERS),
    ...(env.FERRY_OWNER ? { owner: env.FERRY_OWNER as Address } : {}),
    salt,
  });
}

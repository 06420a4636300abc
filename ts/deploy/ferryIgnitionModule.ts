/**
 * The Hardhat Ignition form of the deterministic deployment, for people who deploy with
 * `npx hardhat ignition deploy` (module file: ignition/modules/Ferry.ts). It yields the SAME addresses
 * as `ferry deploy`: each contract is a `m.send` to the standard CREATE2 proxy with the very calldata
 * of ferryPlan.ts (salt ‖ init code), then `m.contractAt` the predicted address.
 *
 * Why not Ignition's own `create2` strategy: it deploys through CreateX (0xba5E…ba5Ed) with CreateX's
 * salt guarding, not through the standard proxy, so its addresses differ from every other tool's;
 * strategies are a closed list (ignition-core resolveStrategy), so a custom one cannot be plugged in.
 * The init code must be known when the module is built (Ignition cannot splice runtime values into
 * raw calldata), hence the deployer address is an input of the builder, not a module parameter.
 *
 * What Ignition does not do here: install a missing proxy (run `ferry deploy` once, or put the proxy
 * there yourself; the `owner` static calls below fail loudly when the proxy was missing and nothing
 * was deployed), or skip steps whose effect is already onchain (its journal makes a re-run a no-op on
 * the machine that ran it; without the journal a re-run reverts in the proxy: the address is taken).
 */
import { buildModule } from "@nomicfoundation/hardhat-ignition/modules";
import { getAddress, isAddressEqual, type Address } from "viem";
import { DETERMINISTIC_DEPLOYER } from "./deterministicDeployer.ts";
import type { FerryDeployOptions } from "./ferryDeployment.ts";
import { planFerryContracts } from "./ferryPlan.ts";

export type FerryIgnitionPlan = FerryDeployOptions & {
  /** The account Ignition sends from (its default sender): initial owner, part of every address. */
  deployer: Address;
};

export function buildFerryIgnitionModule(plan: FerryIgnitionPlan, id = "Ferry") {
  const deployer = getAddress(plan.deployer);
  const owner = getAddress(plan.owner ?? deployer);
  const allocator = getAddress(plan.allocator);
  const signers = [...new Set(plan.signers.map((signer) => getAddress(signer)))];
  const contracts = planFerryContracts({ deployer, allocator, ...(plan.salt ? { salt: plan.salt } : {}) });
  const byName = Object.fromEntries(contracts.contracts.map((contract) => [contract.name, contract]));

  return buildModule(id, (m) => {
    const from = deployer;
    const deployMulticaller = m.send("DeployMulticaller", DETERMINISTIC_DEPLOYER, 0n, byName.Multicaller!.calldata, { from });
    const deployReceiver = m.send("DeployAttestedReceiver", DETERMINISTIC_DEPLOYER, 0n, byName.AttestedReceiver!.calldata, {
      from,
      after: [deployMulticaller],
    });
    const deployDepository = m.send("DeployDepository", DETERMINISTIC_DEPLOYER, 0n, byName.Depository!.calldata, { from, after: [deployReceiver] });
    const deployFactory = m.send("DeployDepositAddressFactory", DETERMINISTIC_DEPLOYER, 0n, byName.DepositAddressFactory!.calldata, {
      from,
      after: [deployDepository],
    });

    const multicaller = m.contractAt("Multicaller", contracts.addresses.multicaller, { after: [deployMulticaller] });
    const attestedReceiver = m.contractAt("AttestedReceiver", contracts.addresses.attestedReceiver, { after: [deployReceiver] });
    const depository = m.contractAt("Depository", contracts.addresses.depository, { after: [deployDepository] });
    const depositAddressFactory = m.contractAt("DepositAddressFactory", contracts.addresses.depositAddressFactory, { after: [deployFactory] });

    // An address without code answers "0x": decoding it as the owner fails, so a missing proxy stops here.
    const depositoryOwner = m.staticCall(depository, "owner", [], 0, { id: "DepositoryOwner", from });
    const receiverOwner = m.staticCall(attestedReceiver, "owner", [], 0, { id: "AttestedReceiverOwner", from });

    // The allocator is the Depository's constructor argument (set and locked there): nothing to call.
    const configured: ReturnType<typeof m.call>[] = [];
    signers.forEach((signer, index) => {
      configured.push(m.call(attestedReceiver, "setSigner", [signer, true], { id: `SetSigner${index}`, from, after: [receiverOwner] }));
    });
    if (!isAddressEqual(owner, deployer)) {
      const after = [depositoryOwner, receiverOwner, ...configured];
      m.call(depository, "transferOwnership", [owner], { id: "DepositoryTransferOwnership", from, after });
      m.call(attestedReceiver, "transferOwnership", [owner], { id: "AttestedReceiverTransferOwnership", from, after });
    }
    return { depository, attestedReceiver, multicaller, depositAddressFactory };
  });
}

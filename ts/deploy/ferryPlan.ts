/**
 * What the deterministic deployment deploys, pure: for each contract its constructor arguments, init
 * code, proxy calldata and address. The addresses depend only on (deployer, salt, allocator, this
 * build): constructor arguments are the deployer, the allocator and addresses derived from them.
 *  - Multicaller()                                  no arguments
 *  - AttestedReceiver(deployer, multicaller)         owner = deployer until the handover
 *  - Depository(deployer, allocator)                 owner = deployer; the allocator is set and locked
 *    by the constructor (there is no immediate `setAllocator`: a Depository is never left with a
 *    placeholder its owner could swap at once), so the Depository's address depends on the allocator:
 *    the same allocator on every chain gives the same address everywhere. A later allocator change
 *    (propose → 2 days → apply) does not move it: plan with the allocator the Depository was
 *    constructed with (the deployment record's `constructorAllocator`).
 *  - DepositAddressFactory(depository)              deposit addresses of that Depository; its
 *    constructor creates the DepositForwarder implementation (CREATE, nonce 1), so both addresses
 *    follow from the Depository's: the same on every chain, and so is every deposit address.
 */
import { encodeDeployData, keccak256, stringToBytes, type Address, type Hex } from "viem";
import { deterministicAddress, deterministicDeployCalldata } from "./create2.ts";
import { FERRY_ABIS, FERRY_ARTIFACTS, FERRY_CONTRACTS, type FerryContractName } from "./ferryArtifacts.ts";

/** Where the four contracts are (or will be) on a chain: the plan computes them. */
export type FerryAddresses = { depository: Address; attestedReceiver: Address; multicaller: Address; depositAddressFactory: Address };

/**
 * The addresses of a deployment record: records written before deposit addresses have no
 * `depositAddressFactory` (such a chain serves no deposit addresses until `ferry deploy` runs again).
 */
export type RecordedFerryAddresses = Omit<FerryAddresses, "depositAddressFactory"> & { depositAddressFactory?: Address };

/** The salt when none is given: keccak256("ferry/v1"). */
export const DEFAULT_FERRY_SALT: Hex = keccak256(stringToBytes("ferry/v1"));

export type FerryContractPlan = {
  name: FerryContractName;
  constructorArgs: readonly Address[];
  initCode: Hex;
  /** Calldata of the deterministic-deployment proxy call: salt ‖ initCode. */
  calldata: Hex;
  address: Address;
};

export type FerryPlan = {
  deployer: Address;
  /** The Depository's constructor allocator. */
  allocator: Address;
  salt: Hex;
  /** In deployment order (the receiver's constructor needs the Multicaller's address, the factory the Depository's). */
  contracts: readonly FerryContractPlan[];
  addresses: FerryAddresses;
};

export function planFerryContracts(args: { deployer: Address; allocator: Address; salt?: Hex }): FerryPlan {
  const deployer = args.deployer;
  const salt = args.salt ?? DEFAULT_FERRY_SALT;
  const plans = {} as Record<FerryContractName, FerryContractPlan>;
  const plan = (name: FerryContractName, constructorArgs: readonly Address[]): FerryContractPlan => {
    const initCode = encodeDeployData({
      abi: FERRY_ABIS[name],
      bytecode: FERRY_ARTIFACTS[name].bytecode,
      args: constructorArgs,
    } as Parameters<typeof encodeDeployData>[0]);
    return { name, constructorArgs, initCode, calldata: deterministicDeployCalldata({ salt, initCode }), address: deterministicAddress({ salt, initCode }) };
  };
  plans.Multicaller = plan("Multicaller", []);
  plans.AttestedReceiver = plan("AttestedReceiver", [deployer, plans.Multicaller.address]);
  plans.Depository = plan("Depository", [deployer, args.allocator]);
  plans.DepositAddressFactory = plan("DepositAddressFactory", [plans.Depository.address]);
  return {
    deployer,
    allocator: args.allocator,
    salt,
    contracts: FERRY_CONTRACTS.map((name) => plans[name]),
    addresses: {
      depository: plans.Depository.address,
      attestedReceiver: plans.AttestedReceiver.address,
      multicaller: plans.Multicaller.address,
      depositAddressFactory: plans.DepositAddressFactory.address,
    },
  };
}

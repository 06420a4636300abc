/**
 * This build's bytecode of the four deployed contracts (from `artifacts/`, written by
 * `npx hardhat build`) and their typed ABIs (from ts/abi). Static data: importing this module reads
 * no file at call time, so everything computed from it stays pure.
 */
import type { Hex } from "viem";
import attestedReceiverArtifact from "../../artifacts/contracts/AttestedReceiver.sol/AttestedReceiver.json" with { type: "json" };
import depositAddressFactoryArtifact from "../../artifacts/contracts/DepositAddressFactory.sol/DepositAddressFactory.json" with { type: "json" };
import depositoryArtifact from "../../artifacts/contracts/Depository.sol/Depository.json" with { type: "json" };
import multicallerArtifact from "../../artifacts/contracts/Multicaller.sol/Multicaller.json" with { type: "json" };
import { attestedReceiverAbi } from "../abi/AttestedReceiver.ts";
import { depositAddressFactoryAbi } from "../abi/DepositAddressFactory.ts";
import { depositoryAbi } from "../abi/Depository.ts";
import { multicallerAbi } from "../abi/Multicaller.ts";

/** Byte ranges of immutables in the runtime code, by AST id (solc's `immutableReferences`). */
export type ImmutableReferences = Record<string, ReadonlyArray<{ start: number; length: number }>>;

export type FerryArtifact = {
  contractName: string;
  sourceName: string;
  buildInfoId: string;
  bytecode: Hex;
  deployedBytecode: Hex;
  immutableReferences: ImmutableReferences;
};

function artifact(json: {
  contractName: string;
  sourceName: string;
  buildInfoId?: string;
  bytecode: string;
  deployedBytecode: string;
  immutableReferences?: unknown;
}): FerryArtifact {
  return {
    contractName: json.contractName,
    sourceName: json.sourceName,
    buildInfoId: json.buildInfoId ?? "",
    bytecode: json.bytecode as Hex,
    deployedBytecode: json.deployedBytecode as Hex,
    immutableReferences: (json.immutableReferences ?? {}) as ImmutableReferences,
  };
}

/**
 * The contracts `ferry deploy` puts on every chain, in deployment order. The DepositAddressFactory
 * comes last: its constructor takes the Depository's address (and creates its DepositForwarder
 * implementation at CREATE nonce 1, so that one is deterministic too).
 */
export const FERRY_CONTRACTS = ["Multicaller", "AttestedReceiver", "Depository", "DepositAddressFactory"] as const;
export type FerryContractName = (typeof FERRY_CONTRACTS)[number];

export const FERRY_ARTIFACTS: Readonly<Record<FerryContractName, FerryArtifact>> = {
  Multicaller: artifact(multicallerArtifact),
  AttestedReceiver: artifact(attestedReceiverArtifact),
  Depository: artifact(depositoryArtifact),
  DepositAddressFactory: artifact(depositAddressFactoryArtifact),
};

export const FERRY_ABIS = {
  Multicaller: multicallerAbi,
  AttestedReceiver: attestedReceiverAbi,
  Depository: depositoryAbi,
  DepositAddressFactory: depositAddressFactoryAbi,
} as const;

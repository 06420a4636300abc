/**
 * Deposit addresses, pure: the address of a deposit address from its public parameters, and the
 * EIP-712 instruction the Depository's allocator signs to move funds out of it. TypeScript twin of
 * `DepositAddressFactory.predict` / `instructionDigest` and of `ForwarderCloneLib.initCode`; a mocha
 * test checks both against the contracts on an EDR chain.
 *
 * Address = CREATE2(factory, salt, keccak256(initCode)) with
 *  - salt = keccak256(abi.encode(depository, refundTo, uint8 mode, orderId, currency, amount, route)),
 *  - initCode = the forwarder clone of the factory's implementation (CREATE address of the factory at
 *    nonce 1) with `refundTo` as its only immutable arg.
 * Nothing here depends on the chain: the same factory address gives the same deposit address on
 * every chain.
 */
import {
  concat,
  encodeAbiParameters,
  getContractAddress,
  hashTypedData,
  keccak256,
  numberToHex,
  type Address,
  type Hex,
  type LocalAccount,
} from "viem";

export const DEPOSIT_ADDRESS_MODE = { strict: 0, open: 1 } as const;
export type DepositAddressMode = keyof typeof DEPOSIT_ADDRESS_MODE;

export const FORWARD_ACTION = { deposit: 0, refund: 1 } as const;
export type ForwardAction = keyof typeof FORWARD_ACTION;

const ZERO_WORD: Hex = `0x${"00".repeat(32)}`;
const ZERO_ADDRESS: Address = "0x0000000000000000000000000000000000000000";

/** `IDepositAddressFactory.DepositAddress`: what a deposit address is derived from. */
export type DepositAddressParams = {
  refundTo: Address;
  mode: DepositAddressMode;
  /** Strict: the bound order, origin currency (zero address = native) and amount; open: zero. */
  orderId: Hex;
  currency: Address;
  amount: bigint;
  /** Open: `routeKey(...)`; strict: zero. */
  route: Hex;
};

/** An open address's route: keccak256(abi.encode(destinationChainId, destinationCurrency, recipient)). */
export function routeKey(route: { destinationChainId: bigint | number; destinationCurrency: Hex; recipient: Hex }): Hex {
  return keccak256(
    encodeAbiParameters([{ type: "uint256" }, { type: "bytes32" }, { type: "bytes32" }], [BigInt(route.destinationChainId), route.destinationCurrency, route.recipient]),
  );
}

/** A strict address's parameters: one order (the quote's orderId, origin currency and amount). */
export function strictDepositAddress(args: { refundTo: Address; orderId: Hex; currency: Address; amount: bigint }): DepositAddressParams {
  return { ...args, mode: "strict", route: ZERO_WORD };
}

/** An open address's parameters: one reusable address per refund recipient and route. */
export function openDepositAddress(args: {
  refundTo: Address;
  destinationChainId: bigint | number;
  destinationCurrency: Hex;
  recipient: Hex;
}): DepositAddressParams {
  return { refundTo: args.refundTo, mode: "open", orderId: ZERO_WORD, currency: ZERO_ADDRESS, amount: 0n, route: routeKey(args) };
}

/** The CREATE2 salt of `params` under `depository`. */
export function depositAddressSalt(depository: Address, params: DepositAddressParams): Hex {
  return keccak256(
    encodeAbiParameters(
      [{ type: "address" }, { type: "address" }, { type: "uint8" }, { type: "bytes32" }, { type: "address" }, { type: "uint256" }, { type: "bytes32" }],
      [depository, params.refundTo, DEPOSIT_ADDRESS_MODE[params.mode], params.orderId, params.currency, params.amount, params.route],
    ),
  );
}

/** The factory's DepositForwarder implementation: created by its constructor, at CREATE nonce 1. */
export function forwarderImplementation(factory: Address): Address {
  return getContractAddress({ from: factory, nonce: 1n });
}

/** Runtime size before the args (ForwarderCloneLib.RUNTIME_SIZE). */
const RUNTIME_SIZE = 0x33;

/** The clone's init code (ForwarderCloneLib.initCode) with `refundTo` as its immutable arg. */
export function forwarderInitCode(implementation: Address, refundTo: Address): Hex {
  return concat([
    "0x61",
    numberToHex(RUNTIME_SIZE + 20, { size: 2 }),
    "0x3d81600a3d39f3",
    "0x36600557005b",
    "0x363d3d373d3d3d363d73",
    implementation,
    "0x5af43d82803e903d91603157fd5bf3",
    refundTo,
  ]);
}

/** The deposit address of `params` for the factory at `factory` serving `depository`. */
export function predictDepositAddress(args: { factory: Address; depository: Address; params: DepositAddressParams }): Address {
  return getContractAddress({
    opcode: "CREATE2",
    from: args.factory,
    salt: depositAddressSalt(args.depository, args.params),
    bytecode: forwarderInitCode(forwarderImplementation(args.factory), args.params.refundTo),
  });
}

/** `IDepositAddressFactory.ForwardInstruction`. */
export type ForwardInstruction = { action: ForwardAction; orderId: Hex; token: Address; amount: bigint; id: Hex; deadline: bigint };

export const FORWARD_INSTRUCTION_TYPES = {
  ForwardInstruction: [
    { name: "forwarder", type: "address" },
    { name: "action", type: "uint8" },
    { name: "orderId", type: "bytes32" },
    { name: "token", type: "address" },
    { name: "amount", type: "uint256" },
    { name: "id", type: "bytes32" },
    { name: "deadline", type: "uint256" },
  ],
} as const;

/** The instruction as EIP-712 typed data (domain "FerryDepositAddressFactory"/"1", chain, factory). */
export function forwardInstructionTypedData(args: { chainId: bigint | number; factory: Address; forwarder: Address; instruction: ForwardInstruction }) {
  const { instruction } = args;
  return {
    domain: { name: "FerryDepositAddressFactory", version: "1", chainId: BigInt(args.chainId), verifyingContract: args.factory },
    types: FORWARD_INSTRUCTION_TYPES,
    primaryType: "ForwardInstruction" as const,
    message: {
      forwarder: args.forwarder,
      action: FORWARD_ACTION[instruction.action],
      orderId: instruction.orderId,
      token: instruction.token,
      amount: instruction.amount,
      id: instruction.id,
      deadline: instruction.deadline,
    },
  };
}

/** What the allocator signs (`DepositAddressFactory.instructionDigest`). */
export function forwardInstructionDigest(args: { chainId: bigint | number; factory: Address; forwarder: Address; instruction: ForwardInstruction }): Hex {
  return hashTypedData(forwardInstructionTypedData(args));
}

/** The allocator's signature of an instruction (the `signature` of `deployAndForward`). */
export async function signForwardInstruction(args: {
  account: LocalAccount;
  chainId: bigint | number;
  factory: Address;
  forwarder: Address;
  instruction: ForwardInstruction;
}): Promise<Hex> {
  const { account, ...rest } = args;
  return account.signTypedData(forwardInstructionTypedData(rest));
}

/** The instruction as the contract's ABI tuple (enum as its uint8). */
export function forwardInstructionArgs(instruction: ForwardInstruction) {
  return { ...instruction, action: FORWARD_ACTION[instruction.action] };
}

/** The parameters as the contract's ABI tuple (enum as its uint8). */
export function depositAddressArgs(params: DepositAddressParams) {
  return { ...params, mode: DEPOSIT_ADDRESS_MODE[params.mode] };
}

/**
 * CREATE2 through the standard deterministic-deployment proxy, the pure part: what to send and where
 * the contract lands. The proxy's calldata is `salt (32 bytes) ‖ initCode`; it deploys with CREATE2
 * and returns the new address (reverting when the address is taken).
 */
import { concat, getContractAddress, size, type Address, type Hex } from "viem";
import { DETERMINISTIC_DEPLOYER } from "./deterministicDeployer.ts";

/** Where `initCode` deployed with `salt` through the proxy lands, on every chain. */
export function deterministicAddress(args: { salt: Hex; initCode: Hex }): Address {
  assertSalt(args.salt);
  return getContractAddress({ opcode: "CREATE2", from: DETERMINISTIC_DEPLOYER, salt: args.salt, bytecode: args.initCode });
}

/** The calldata of the proxy call that deploys `initCode` with `salt`. */
export function deterministicDeployCalldata(args: { salt: Hex; initCode: Hex }): Hex {
  assertSalt(args.salt);
  return concat([args.salt, args.initCode]);
}

function assertSalt(salt: Hex): void {
  if (!/^0x[0-9a-fA-F]{64}$/.test(salt) || size(salt) !== 32) throw new TypeError(`salt must be 32 bytes of hex, got ${salt}`);
}

/**
 * The devnet's 6-decimal test stablecoin (contracts/mocks/MockStablecoin.sol, open `mint`), deployed
 * through the standard CREATE2 proxy so that it has the same address on every chain.
 */
import mockStablecoinArtifact from "../../artifacts/contracts/mocks/MockStablecoin.sol/MockStablecoin.json" with { type: "json" };
import { encodeAbiParameters, keccak256, stringToBytes, type Address, type Hex, type PublicClient } from "viem";
import { mockStablecoinAbi } from "../abi/MockStablecoin.ts";
import { deterministicAddress, deterministicDeployCalldata } from "../deploy/create2.ts";
import { DETERMINISTIC_DEPLOYER } from "../deploy/deterministicDeployer.ts";
import type { DeployWalletClient } from "../deploy/ferryDeployment.ts";

export const DEVNET_STABLECOIN = { name: "Ferry Test USD", symbol: "fUSD", decimals: 6 } as const;
export const DEVNET_STABLECOIN_SALT: Hex = keccak256(stringToBytes("ferry/devnet/stablecoin"));

/** 1,000,000 fUSD per funded account. */
export const DEVNET_STABLECOIN_MINT = 1_000_000n * 10n ** 6n;

export function stablecoinInitCode(): Hex {
  const args = encodeAbiParameters([{ type: "string" }, { type: "string" }], [DEVNET_STABLECOIN.name, DEVNET_STABLECOIN.symbol]);
  return `${mockStablecoinArtifact.bytecode as Hex}${args.slice(2)}` as Hex;
}

/** Where the stablecoin lands, on every chain. Pure. */
export function stablecoinAddress(): Address {
  return deterministicAddress({ salt: DEVNET_STABLECOIN_SALT, initCode: stablecoinInitCode() });
}

/**
 * Deploys the stablecoin (unless already there; the CREATE2 proxy must be on the chain) and mints
 * `DEVNET_STABLECOIN_MINT` to each of `holders`. Returns its address.
 */
export async function deployStablecoin(args: {
  publicClient: PublicClient;
  walletClient: DeployWalletClient;
  holders: readonly Address[];
}): Promise<Address> {
  const { publicClient, walletClient } = args;
  const address = stablecoinAddress();
  const code = await publicClient.getCode({ address });
  if (code === undefined || code === "0x") {
    const hash = await walletClient.sendTransaction({
      chain: walletClient.chain,
      to: DETERMINISTIC_DEPLOYER,
      data: deterministicDeployCalldata({ salt: DEVNET_STABLECOIN_SALT, initCode: stablecoinInitCode() }),
    });
    const receipt = await publicClient.waitForTransactionReceipt({ hash });
    if (receipt.status !== "success") throw new Error(`stablecoin deployment ${hash} reverted`);
  }
  const hashes: Hex[] = [];
  for (const holder of args.holders) {
    hashes.push(await walletClient.writeContract({ address, abi: mockStablecoinAbi, functionName: "mint", args: [holder, DEVNET_STABLECOIN_MINT], chain: walletClient.chain }));
  }
  for (const hash of hashes) {
    const receipt = await publicClient.waitForTransactionReceipt({ hash });
    if (receipt.status !== "success") throw new Error(`stablecoin mint ${hash} reverted`);
  }
  return address;
}

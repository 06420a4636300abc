/**
 * The devnet's market on the destination chain: a real Uniswap V2 pool and an ERC-4626 vault.
 * - WETH (contracts/devnet/DevnetWrappedNative.sol) and the Uniswap V2 factory and pair, deployed from
 *   `@uniswap/v2-core`'s published build (the audited 0.5.16 bytecode, not recompiled); the pair
 *   WETH/fUSD seeded with 100 ETH and 300,000 fUSD (3,000 fUSD per ETH). Ferry's `uniswapV2` price
 *   source reads it and checks its spot against the pair's own TWAP over `DEVNET_TWAP_WINDOW_SECONDS`:
 *   so that a devnet started a moment ago already has that much price history, the seeding is
 *   followed by a block `DEVNET_TWAP_WINDOW_SECONDS` later (`evm_increaseTime`, then `evm_mine`: the
 *   chain's clock runs that far ahead of the wall clock, which quotes allow for). A swap on the pool
 *   moves the quotes' spot at once and the fill-time reference as it is held over the window.
 * - DevnetVault (contracts/devnet/DevnetVault.sol, OpenZeppelin ERC4626 over fUSD, deposits capped at
 *   10,000 fUSD per call): the target of the bridge-and-call example.
 */
import factoryArtifact from "@uniswap/v2-core/build/UniswapV2Factory.json" with { type: "json" };
import vaultArtifact from "../../artifacts/contracts/devnet/DevnetVault.sol/DevnetVault.json" with { type: "json" };
import wethArtifact from "../../artifacts/contracts/devnet/DevnetWrappedNative.sol/DevnetWrappedNative.json" with { type: "json" };
import { erc20Abi, parseAbi, parseEther, type Abi, type Address, type Hex, type PublicClient } from "viem";
import { mockStablecoinAbi } from "../abi/MockStablecoin.ts";
import type { DeployWalletClient } from "../deploy/ferryDeployment.ts";

export const DEVNET_POOL_SEED = { eth: parseEther("100"), stablecoin: 300_000n * 10n ** 6n } as const;
/** The TWAP window of the devnet pool's price source: short, so a price held on the devnet shows in a minute. */
export const DEVNET_TWAP_WINDOW_SECONDS = 60;
/** The vault's per-deposit cap (fUSD units): a larger deposit reverts ERC4626ExceededMaxDeposit. */
export const DEVNET_VAULT_CAP = 10_000n * 10n ** 6n;

export const UNISWAP_V2_FACTORY_ABI = parseAbi([
  "function createPair(address tokenA, address tokenB) returns (address pair)",
  "function getPair(address tokenA, address tokenB) view returns (address pair)",
]);
export const UNISWAP_V2_PAIR_MINT_ABI = parseAbi(["function mint(address to) returns (uint256 liquidity)"]);
export const WRAPPED_NATIVE_ABI = [...erc20Abi, ...parseAbi(["function deposit() payable", "function withdraw(uint256 amount)"])] as const;

export type DevnetMarket = { wrappedNative: Address; uniswapV2Factory: Address; uniswapV2Pair: Address; vault: Address };

export async function deployDevnetMarket(args: { publicClient: PublicClient; walletClient: DeployWalletClient; stablecoin: Address }): Promise<DevnetMarket> {
  const { publicClient, walletClient, stablecoin } = args;
  const chain = walletClient.chain;
  const account = walletClient.account!;
  const mined = async (hash: Hex, what: string) => {
    const receipt = await publicClient.waitForTransactionReceipt({ hash });
    if (receipt.status !== "success") throw new Error(`devnet market: ${what} (${hash}) reverted`);
    return receipt;
  };
  const deploy = async (abi: Abi, bytecode: Hex, what: string, constructorArgs: readonly unknown[] = []) => {
    const hash = await walletClient.deployContract({ abi, bytecode, args: constructorArgs, chain, account });
    const receipt = await mined(hash, what);
    return receipt.contractAddress!;
  };
  const wrappedNative = await deploy(wethArtifact.abi as Abi, wethArtifact.bytecode as Hex, "WETH");
  const uniswapV2Factory = await deploy(factoryArtifact.abi as Abi, `0x${factoryArtifact.bytecode.replace(/^0x/, "")}` as Hex, "UniswapV2Factory", [account.address]);
  await mined(await walletClient.writeContract({ address: uniswapV2Factory, abi: UNISWAP_V2_FACTORY_ABI, functionName: "createPair", args: [wrappedNative, stablecoin], chain, account }), "createPair");
  const uniswapV2Pair = await publicClient.readContract({ address: uniswapV2Factory, abi: UNISWAP_V2_FACTORY_ABI, functionName: "getPair", args: [wrappedNative, stablecoin] });
  // Seed: wrap ETH and mint fUSD straight into the pair, then mint the liquidity to the deployer.
  await mined(await walletClient.writeContract({ address: wrappedNative, abi: WRAPPED_NATIVE_ABI, functionName: "deposit", value: DEVNET_POOL_SEED.eth, chain, account }), "wrap");
  await mined(await walletClient.writeContract({ address: wrappedNative, abi: WRAPPED_NATIVE_ABI, functionName: "transfer", args: [uniswapV2Pair, DEVNET_POOL_SEED.eth], chain, account }), "seed WETH");
  await mined(await walletClient.writeContract({ address: stablecoin, abi: mockStablecoinAbi, functionName: "mint", args: [uniswapV2Pair, DEVNET_POOL_SEED.stablecoin], chain, account }), "seed fUSD");
  await mined(await walletClient.writeContract({ address: uniswapV2Pair, abi: UNISWAP_V2_PAIR_MINT_ABI, functionName: "mint", args: [account.address], chain, account }), "mint liquidity");
  const vault = await deploy(vaultArtifact.abi as Abi, vaultArtifact.bytecode as Hex, "DevnetVault", [stablecoin, DEVNET_VAULT_CAP]);
  // The pool's price history: one window passes at the seeded price before anything else happens.
  const request = publicClient.request as unknown as (args: { method: string; params: unknown[] }) => Promise<unknown>;
  await request({ method: "evm_increaseTime", params: [DEVNET_TWAP_WINDOW_SECONDS] });
  await request({ method: "evm_mine", params: [] });
  return { wrappedNative, uniswapV2Factory, uniswapV2Pair, vault };
}

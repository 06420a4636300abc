/**
 * ERC-4337 on a local chain: the EntryPoint v0.8 of `@account-abstraction/contracts` 0.8.0 (eth-infinitism's
 * own compiled artifact, shipped in the package) deployed through the deterministic deployer with
 * eth-infinitism's salt, which lands it at its canonical address `0x4337084D9E255Ff0702461CF8895CE9E3b5Ff108`
 * as on every public chain; beside it, through the same deployer and salt, the package's
 * `SimpleAccountFactory` (for that EntryPoint) and `Simple7702Account` (the EIP-7702 delegate whose
 * EntryPoint is that canonical address). The addresses are fixed by the artifacts: each is checked
 * after deployment, so a different package version fails loudly instead of deploying elsewhere.
 */
import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { concatHex, encodeAbiParameters, getContractAddress, type Address, type Hex, type PublicClient, type WalletClient } from "viem";
import { DETERMINISTIC_DEPLOYER } from "../deploy/deterministicDeployer.ts";

/** eth-infinitism's CREATE2 salt for the v0.8 deployment. */
export const ACCOUNT_ABSTRACTION_SALT: Hex = "0x0a59dbff790c23c976a548690c27297883cc66b4c67024f9117b0238995e35e9";

/** EntryPoint v0.8's canonical address. */
export const ENTRY_POINT_V08: Address = "0x4337084D9E255Ff0702461CF8895CE9E3b5Ff108";

export type DevnetAccountAbstraction = { entryPoint: Address; simpleAccountFactory: Address; simple7702Account: Address };

type Artifact = { abi: readonly unknown[]; bytecode: Hex };

export async function accountAbstractionArtifact(name: "EntryPoint" | "SimpleAccountFactory" | "Simple7702Account" | "SimpleAccount"): Promise<Artifact> {
  const path = createRequire(import.meta.url).resolve(`@account-abstraction/contracts/artifacts/${name}.json`);
  return JSON.parse(await readFile(path, "utf8")) as Artifact;
}

/** Deploys (unless already there) the EntryPoint, the SimpleAccountFactory and the Simple7702Account. */
export async function deployAccountAbstraction(args: { publicClient: PublicClient; walletClient: WalletClient }): Promise<DevnetAccountAbstraction> {
  const entryPoint = await deployDeterministic(args, (await accountAbstractionArtifact("EntryPoint")).bytecode);
  if (entryPoint !== ENTRY_POINT_V08) throw new Error(`EntryPoint landed at ${entryPoint}, not at the canonical ${ENTRY_POINT_V08}: another @account-abstraction/contracts build?`);
  const factoryCode = concatHex([(await accountAbstractionArtifact("SimpleAccountFactory")).bytecode, encodeAbiParameters([{ type: "address" }], [entryPoint])]);
  const simpleAccountFactory = await deployDeterministic(args, factoryCode);
  const simple7702Account = await deployDeterministic(args, (await accountAbstractionArtifact("Simple7702Account")).bytecode);
  return { entryPoint, simpleAccountFactory, simple7702Account };
}

async function deployDeterministic({ publicClient, walletClient }: { publicClient: PublicClient; walletClient: WalletClient }, initCode: Hex): Promise<Address> {
  const address = getContractAddress({ opcode: "CREATE2", from: DETERMINISTIC_DEPLOYER, salt: ACCOUNT_ABSTRACTION_SALT, bytecode: initCode });
  const existing = await publicClient.getCode({ address });
  if (existing && existing !== "0x") return address;
  const hash = await walletClient.sendTransaction({ account: walletClient.account!, chain: walletClient.chain, to: DETERMINISTIC_DEPLOYER, data: concatHex([ACCOUNT_ABSTRACTION_SALT, initCode]), gas: 8_000_000n });
  const receipt = await publicClient.waitForTransactionReceipt({ hash });
  const code = await publicClient.getCode({ address });
  if (receipt.status !== "success" || !code || code === "0x") throw new Error(`deterministic deployment to ${address} failed (${hash})`);
  return address;
}

/**
 * The hostile test contracts of contracts/mocks deployed on a devnet chain, for the solver's attack
 * tests: a worthless ERC-20 (a token nobody configured), payees that burn gas or reject native
 * currency, and a token with a blocklist. Each is deployed from its compiled artifact by an attacker
 * account of its own (not a service key), so the service's nonces are untouched.
 */
import { type Abi, type Address, type Hex } from "viem";
import blocklistTokenArtifact from "../../../artifacts/contracts/mocks/BlocklistToken.sol/BlocklistToken.json" with { type: "json" };
import gasBurningRecipientArtifact from "../../../artifacts/contracts/mocks/GasBurningRecipient.sol/GasBurningRecipient.json" with { type: "json" };
import mockStablecoinArtifact from "../../../artifacts/contracts/mocks/MockStablecoin.sol/MockStablecoin.json" with { type: "json" };
import revertingRecipientArtifact from "../../../artifacts/contracts/mocks/RevertingRecipient.sol/RevertingRecipient.json" with { type: "json" };
import { hardhatTestAccount } from "../../../ts/devnet/devnetAccounts.ts";
import type { DevnetChain } from "../../../ts/devnet/devnetChain.ts";

/** A funded test account that is none of the service's keys nor the tests' user (index 7). */
export const ATTACKER = hardhatTestAccount(9);

type Artifact = { abi: unknown; bytecode: string };

async function deploy(chain: DevnetChain, artifact: Artifact, args: readonly unknown[]): Promise<Address> {
  const wallet = chain.walletClient(ATTACKER.privateKey);
  const hash = await wallet.deployContract({ abi: artifact.abi as Abi, bytecode: artifact.bytecode as Hex, args: args as unknown[], chain: wallet.chain, account: wallet.account });
  const receipt = await chain.publicClient.waitForTransactionReceipt({ hash });
  if (receipt.status !== "success" || !receipt.contractAddress) throw new Error(`deploying ${hash} failed`);
  return receipt.contractAddress.toLowerCase() as Address;
}

/** A 6-decimal ERC-20 that anyone can mint: worthless, and not configured on any chain. */
export async function deployWorthlessToken(chain: DevnetChain): Promise<Address> {
  return deploy(chain, mockStablecoinArtifact, ["Worthless", "WRTH"]);
}

/** A payee whose `receive` burns `burn` gas before accepting. */
export async function deployGasBurningRecipient(chain: DevnetChain, burn: bigint): Promise<Address> {
  return deploy(chain, gasBurningRecipientArtifact, [burn]);
}

/** A payee that rejects every native transfer. */
export async function deployRevertingRecipient(chain: DevnetChain): Promise<Address> {
  return deploy(chain, revertingRecipientArtifact, []);
}

/** A 6-decimal ERC-20 whose transfers to or from a blocked address revert (`setBlocked`, anyone). */
export async function deployBlocklistToken(chain: DevnetChain): Promise<Address> {
  return deploy(chain, blocklistTokenArtifact, []);
}

/** Sends a contract write from the attacker account and waits for success. */
export async function attackerWrite(chain: DevnetChain, args: { address: Address; abi: Abi; functionName: string; args: readonly unknown[]; value?: bigint }): Promise<Hex> {
  const wallet = chain.walletClient(ATTACKER.privateKey);
  const hash = await wallet.writeContract({ ...args, args: args.args as unknown[], chain: wallet.chain, account: wallet.account } as Parameters<typeof wallet.writeContract>[0]);
  const receipt = await chain.publicClient.waitForTransactionReceipt({ hash });
  if (receipt.status !== "success") throw new Error(`${args.functionName} ${hash} reverted`);
  return hash;
}

/** BlocklistToken's ABI (mint, setBlocked, ERC-20). */
export const blocklistTokenAbi = blocklistTokenArtifact.abi as Abi;

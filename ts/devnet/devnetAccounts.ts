/**
 * The devnet's accounts: Hardhat's standard test accounts (the public "test test … junk" mnemonic,
 * funded with 10,000 ETH each by every Hardhat/EDR chain). Their private keys are PUBLIC test keys,
 * known to everyone: never use them on a real chain.
 */
import { bytesToHex, type Address, type Hex } from "viem";
import { mnemonicToAccount } from "viem/accounts";

/** Hardhat's default mnemonic (public). */
export const HARDHAT_TEST_MNEMONIC = "test test test test test test test test test test test junk";

/** How many accounts Hardhat funds by default. */
export const HARDHAT_FUNDED_ACCOUNTS = 20;

export type DevnetRole = "deployer" | "allocator" | "attester" | "solver" | "user";

export type DevnetAccount = { address: Address; privateKey: Hex; role: DevnetRole };

/** Roles of the first accounts; every other listed account is a "user". */
const ROLES: readonly DevnetRole[] = ["deployer", "allocator", "attester", "solver"];

/** The test account at `index` of the mnemonic (m/44'/60'/0'/0/index). */
export function hardhatTestAccount(index: number): { address: Address; privateKey: Hex } {
  const account = mnemonicToAccount(HARDHAT_TEST_MNEMONIC, { addressIndex: index });
  const key = account.getHdKey().privateKey;
  if (key === null) throw new Error(`no private key for test account ${index}`);
  return { address: account.address, privateKey: bytesToHex(key) };
}

/** The first `count` test accounts with their devnet roles (deployer, allocator, attester, solver, users). */
export function devnetAccounts(count = 10): DevnetAccount[] {
  return Array.from({ length: count }, (_, i) => ({ ...hardhatTestAccount(i), role: ROLES[i] ?? "user" }));
}

/** The one account with `role` (the first, for "user"). */
export function accountWithRole(accounts: readonly DevnetAccount[], role: DevnetRole): DevnetAccount {
  const account = accounts.find((a) => a.role === role);
  if (account === undefined) throw new Error(`no devnet account with role ${role}`);
  return account;
}

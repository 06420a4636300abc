/**
 * `.devnet/devnet.json`: what a client needs to use the devnet (DESIGN "Devnet — the main command"):
 * `{ apiUrl, chains: [{ id, name, rpcUrl, contracts }], accounts: [{ address, privateKey, role }], apiKey }`.
 * It holds the (public) Hardhat test keys; the terminal never shows them.
 */
import { mkdir, writeFile } from "node:fs/promises";
import { dirname } from "node:path";
import type { Address } from "viem";
import type { DevnetAccount } from "./devnetAccounts.ts";

export type DevnetFileChain = { id: number; name: string; rpcUrl: string; contracts: Record<string, Address> };

export type DevnetFile = {
  apiUrl: string;
  chains: DevnetFileChain[];
  accounts: DevnetAccount[];
  /** An API key for the service; null while the store offers no API-key creation. */
  apiKey: string;
};

export async function writeDevnetFile(path: string, file: DevnetFile): Promise<void> {
  await mkdir(dirname(path), { recursive: true });
  await writeFile(path, `${JSON.stringify(file, null, 2)}\n`, { mode: 0o600 });
}

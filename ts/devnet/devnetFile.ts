/**
 * `.devnet/devnet.json`: what a client needs to use the devnet (docs/architecture.md "Devnet — the main command"):
 * `{ apiUrl, websocketUrl, chains: [{ id, name, rpcUrl, contracts }], accounts: [{ address, privateKey, role }], apiKey, webhookUrl? }`.
 * It holds the (public) Hardhat test keys; the terminal never shows them.
 */
import { mkdir, writeFile } from "node:fs/promises";
import { dirname } from "node:path";
import type { Address } from "viem";
import type { DevnetAccount } from "./devnetAccounts.ts";

export type DevnetFileChain = { id: number; name: string; rpcUrl: string; contracts: Record<string, Address> };

export type DevnetFile = {
  apiUrl: string;
  /** The websocket status stream (ts/service/websocket): apiUrl with ws:// and the websocket path. */
  websocketUrl: string;
  chains: DevnetFileChain[];
  accounts: DevnetAccount[];
  /** A real API key of the service (only its hash is stored there). */
  apiKey: string;
  /** The apiKey's webhook endpoint, when the devnet was started with one (FERRY_DEVNET_WEBHOOK_URL). */
  webhookUrl?: string;
};

export async function writeDevnetFile(path: string, file: DevnetFile): Promise<void> {
  await mkdir(dirname(path), { recursive: true });
  await writeFile(path, `${JSON.stringify(file, null, 2)}\n`, { mode: 0o600 });
}

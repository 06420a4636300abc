/**
 * `.devnet/devnet.json`: what a client needs to use the devnet (docs/architecture.md "Devnet — the main command"):
 * `{ apiUrl, websocketUrl, chains: [{ id, name, rpcUrl, contracts }], accounts: [{ address, privateKey, role }], apiKey, adminToken, webhookUrl? }`.
 * It holds the (public) Hardhat test keys and the devnet service's admin token (mode 0600); the
 * terminal never shows them. The `ferry` CLI reads it (ts/cli/devnetJson.ts).
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
  /** A real API key of the service (only its hash is stored there); FERRY_DEVNET_API_KEY pins it. */
  apiKey: string;
  /** The service's admin token (FERRY_ADMIN_TOKEN; random per run unless set): `ferry keys|webhooks|requests` use it. */
  adminToken: string;
  /** The apiKey's webhook endpoint, when the devnet was started with one (FERRY_DEVNET_WEBHOOK_URL). */
  webhookUrl?: string;
};

export async function writeDevnetFile(path: string, file: DevnetFile): Promise<void> {
  await mkdir(dirname(path), { recursive: true });
  await writeFile(path, `${JSON.stringify(file, null, 2)}\n`, { mode: 0o600 });
}

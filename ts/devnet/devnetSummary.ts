/** The terminal summary of a running devnet: addresses only, never a private key. Pure. */
import type { DevnetFile } from "./devnetFile.ts";

export function devnetSummary(file: DevnetFile, args: { devnetFilePath: string; stablecoinSymbol: string; elapsedMs: number }): string {
  const lines: string[] = [];
  lines.push("", `Ferry devnet ready in ${(args.elapsedMs / 1000).toFixed(1)} s`, `  API        ${file.apiUrl}`, `  websocket  ${file.websocketUrl}`);
  for (const chain of file.chains) {
    lines.push(`  chain ${chain.id} (${chain.name})  ${chain.rpcUrl}`);
    for (const [name, address] of Object.entries(chain.contracts)) lines.push(`    ${name.padEnd(17)}${address}`);
  }
  lines.push(`  stablecoin ${args.stablecoinSymbol} (6 decimals), same address on both chains`);
  lines.push("  accounts (Hardhat's public test keys, in the file below; never use them on a real chain):");
  for (const account of file.accounts) lines.push(`    ${account.role.padEnd(10)}${account.address}`);
  lines.push("  apiKey     a real key of the service (higher rate limit), in the file below (FERRY_DEVNET_API_KEY pins it)");
  lines.push("  admin      ferry keys|webhooks|requests act on this devnet (admin token in the file below)");
  lines.push(
    file.webhookUrl
      ? `  webhooks   status changes of requests quoted with the apiKey → ${file.webhookUrl}`
      : "  webhooks   none (FERRY_DEVNET_WEBHOOK_URL=<url> npm start posts the apiKey's events there)",
  );
  lines.push(`  details    ${args.devnetFilePath}`, "Ctrl-C stops everything.", "");
  return lines.join("\n");
}

/** The terminal summary of a running devnet: addresses and the devnet API key, never a private key. Pure. */
import type { DevnetFile } from "./devnetFile.ts";

/**
 * `serviceLog`: where the service's log goes (FERRY_DEVNET_LOG), shown so that nobody has to guess.
 * The API key is shown: it is a devnet credential (a key of this devnet's own store) that the recipes
 * in the README send as `x-api-key`; private keys stay in the file.
 */
export function devnetSummary(
  file: DevnetFile,
  args: { devnetFilePath: string; stablecoinSymbol: string; elapsedMs: number; serviceLog?: "stdout" | { file: string } },
): string {
  const lines: string[] = [];
  lines.push("", `Ferry devnet ready in ${(args.elapsedMs / 1000).toFixed(1)} s`, `  API        ${file.apiUrl}`, `  websocket  ${file.websocketUrl}`);
  for (const chain of file.chains) {
    lines.push(`  chain ${chain.id} (${chain.name})  ${chain.rpcUrl}`);
    for (const [name, address] of Object.entries(chain.contracts)) lines.push(`    ${name.padEnd(Math.max(17, name.length + 1))}${address}`);
  }
  lines.push(`  stablecoin ${args.stablecoinSymbol} (6 decimals), same address on both chains`);
  lines.push("  accounts (Hardhat's public test keys, in the file below; never use them on a real chain):");
  for (const account of file.accounts) lines.push(`    ${account.role.padEnd(10)}${account.address}`);
  lines.push(`  apiKey     ${file.apiKey}  (send as x-api-key: higher rate limit, webhooks; FERRY_DEVNET_API_KEY pins it)`);
  lines.push("  admin      ferry keys|webhooks|requests act on this devnet (admin token in the file below)");
  lines.push(
    file.webhookUrl
      ? `  webhooks   status changes of requests quoted with the apiKey → ${file.webhookUrl}`
      : "  webhooks   none (FERRY_DEVNET_WEBHOOK_URL=<url> npm start posts the apiKey's events there)",
  );
  lines.push(
    args.serviceLog === undefined
      ? "  log        the service's log is off (FERRY_DEVNET_LOG=stdout or FERRY_DEVNET_LOG=<file> writes it)"
      : `  log        the service's log → ${args.serviceLog === "stdout" ? "this terminal (stdout)" : args.serviceLog.file}`,
  );
  lines.push(`  details    ${args.devnetFilePath}`);
  lines.push(`Try this next: curl -s ${file.apiUrl}/chains — then a bridge in two commands (README.md, "Try this next").`);
  lines.push("Ctrl-C stops everything.", "");
  return lines.join("\n");
}

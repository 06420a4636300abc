/**
 * The typed client (`ferry/client`) on the devnet: 25 fUSD from chain 31337 to 31338. The quote has
 * two steps (approve, deposit); `executeQuote` checks the quote, sends each step from the wallet and
 * follows the request to `success`.
 *
 *   npm start                             # in another terminal: writes .devnet/devnet.json
 *   npx node examples/devnet/client.ts    # FERRY_DEVNET_DIR if the devnet is elsewhere
 */
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { createWalletClient, defineChain, http, type Hex } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { createFerryClient } from "ferry/client";

const devnet = JSON.parse(await readFile(join(process.env.FERRY_DEVNET_DIR ?? ".devnet", "devnet.json"), "utf8"));
const origin = devnet.chains.find((chain: { id: number }) => chain.id === 31337);
const fUSD = origin.contracts.stablecoin as Hex;
const user = devnet.accounts.find((account: { role: string }) => account.role === "user");
const chain = defineChain({ id: 31337, name: origin.name, nativeCurrency: { name: "Ether", symbol: "ETH", decimals: 18 }, rpcUrls: { default: { http: [origin.rpcUrl] } } });
const walletClient = createWalletClient({ account: privateKeyToAccount(user.privateKey), chain, transport: http() });

const client = createFerryClient({ baseUrl: devnet.apiUrl, apiKey: devnet.apiKey });
const quote = await client.getQuote({
  user: user.address,
  originChainId: 31337,
  destinationChainId: 31338,
  originCurrency: fUSD,
  destinationCurrency: fUSD,
  amount: "25000000", // 25.00 fUSD (6 decimals)
  tradeType: "EXACT_INPUT",
});
const result = await client.executeQuote({
  quote,
  walletClient,
  onProgress: ({ phase, step, status }) => console.log(`${phase} ${step.id}${status ? ` → ${status.status}` : ""}`),
  pollIntervalMs: 250,
});
console.log(`request ${result.requestId}: ${result.status.status}, received ${quote.details.currencyOut.amount} (6 decimals)`);
if (result.status.status !== "success") process.exit(1);

/**
 * Bridges native currency across Ferry's devnet with the typed client (ferry/client): quote
 * 31337 → 31338, send the quote's steps from a devnet user's wallet, follow the request to `success`.
 *
 *   (in Ferry's repository) npm start                 # writes .devnet/devnet.json
 *   node scripts/bridge.ts <path/to/.devnet/devnet.json> [amount in wei]
 *
 * Prints one JSON line: requestId, status, the deposit and fill transactions, the amount received.
 */
import { readFile } from "node:fs/promises";
import { createPublicClient, createWalletClient, defineChain, http, type Address, type Hex, type PublicClient } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { createFerryClient } from "ferry/client";

type DevnetFile = {
  apiUrl: string;
  apiKey: string;
  chains: { id: number; name: string; rpcUrl: string }[];
  accounts: { address: Address; privateKey: Hex; role: string }[];
};

const path = process.argv[2] ?? process.env.FERRY_DEVNET_FILE;
if (!path) {
  process.stderr.write("usage: node scripts/bridge.ts <path/to/.devnet/devnet.json> [amount in wei]\n");
  process.exit(2);
}
const devnet = JSON.parse(await readFile(path, "utf8")) as DevnetFile;
const amount = BigInt(process.argv[3] ?? 10n ** 16n);
const [origin, destination] = [31337, 31338].map((id) => {
  const file = devnet.chains.find((chain) => chain.id === id);
  if (!file) throw new Error(`devnet.json has no chain ${id}`);
  const chain = defineChain({ id, name: file.name, nativeCurrency: { name: "Ether", symbol: "ETH", decimals: 18 }, rpcUrls: { default: { http: [file.rpcUrl] } } });
  return { chain, publicClient: createPublicClient({ chain, transport: http(file.rpcUrl), pollingInterval: 100 }) as PublicClient };
}) as [{ chain: ReturnType<typeof defineChain>; publicClient: PublicClient }, { chain: ReturnType<typeof defineChain>; publicClient: PublicClient }];

// The last funded "user" account, so the script does not race a test that uses the first ones.
const user = devnet.accounts.filter((account) => account.role === "user").at(-1);
if (!user) throw new Error("devnet.json has no user account");
const recipient = privateKeyToAccount(`0x${"ab".repeat(32)}`).address;
const walletClient = createWalletClient({ account: privateKeyToAccount(user.privateKey), chain: origin.chain, transport: http(), pollingInterval: 100 });

const client = createFerryClient({ baseUrl: devnet.apiUrl, apiKey: devnet.apiKey });
const before = await destination.publicClient.getBalance({ address: recipient });
const quote = await client.getQuote({
  user: user.address,
  recipient,
  originChainId: origin.chain.id,
  destinationChainId: destination.chain.id,
  originCurrency: "0x0000000000000000000000000000000000000000",
  destinationCurrency: "0x0000000000000000000000000000000000000000",
  amount: amount.toString(),
  tradeType: "EXACT_INPUT",
});
const result = await client.executeQuote({
  quote,
  walletClient,
  publicClients: { [origin.chain.id]: origin.publicClient, [destination.chain.id]: destination.publicClient },
  onProgress: ({ phase, step, status }) => process.stderr.write(`${phase} ${step.id}${status ? ` ${status.status}` : ""}\n`),
  pollIntervalMs: 250,
  timeoutMs: 120_000,
});
const received = (await destination.publicClient.getBalance({ address: recipient })) - before;
process.stdout.write(
  `${JSON.stringify({ requestId: result.requestId, status: result.status.status, txHashes: result.txHashes, quoted: quote.details.currencyOut.amount, received: received.toString() })}\n`,
);
if (result.status.status !== "success") process.exit(1);

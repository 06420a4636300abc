/**
 * The official client of the public service, `@relayprotocol/relay-sdk`, pointed at the devnet:
 * bridge 0.01 ETH from 31337 to 31338. `configureDynamicChains` (from the `chain-utils` subpath)
 * reads the devnet's chains from GET /chains; `getQuote` needs `user` (the account that deposits);
 * `execute` sends the steps with a viem wallet and follows the request (by polling) to `success`.
 *
 *   npm start                                # in another terminal: writes .devnet/devnet.json
 *   npx node examples/devnet/relay-sdk.ts    # FERRY_DEVNET_DIR if the devnet is elsewhere
 */
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { adaptViemWallet, createClient, getClient, LogLevel } from "@relayprotocol/relay-sdk";
import { configureDynamicChains } from "@relayprotocol/relay-sdk/chain-utils";
import { createWalletClient, defineChain, http, parseEther, zeroAddress } from "viem";
import { privateKeyToAccount } from "viem/accounts";

const devnet = JSON.parse(await readFile(join(process.env.FERRY_DEVNET_DIR ?? ".devnet", "devnet.json"), "utf8"));
const origin = devnet.chains.find((chain: { id: number }) => chain.id === 31337);
const user = devnet.accounts.find((account: { role: string }) => account.role === "user");
const chain = defineChain({ id: 31337, name: origin.name, nativeCurrency: { name: "Ether", symbol: "ETH", decimals: 18 }, rpcUrls: { default: { http: [origin.rpcUrl] } } });
const wallet = createWalletClient({ account: privateKeyToAccount(user.privateKey), chain, transport: http() });

createClient({ baseApiUrl: devnet.apiUrl, source: "ferry-devnet-example", logLevel: LogLevel.None, pollingInterval: 500 });
await configureDynamicChains();
const quote = await getClient().actions.getQuote({
  chainId: 31337,
  toChainId: 31338,
  currency: zeroAddress,
  toCurrency: zeroAddress,
  amount: parseEther("0.01").toString(),
  tradeType: "EXACT_INPUT",
  wallet,
  user: user.address,
  recipient: user.address,
});
const requestId = quote.steps?.[0]?.requestId;
const { data } = await getClient().actions.execute({
  quote,
  wallet: adaptViemWallet(wallet),
  onProgress: ({ currentStep }) => currentStep && console.log(`${currentStep.id}: ${currentStep.items?.map((item) => item.status).join(", ")}`),
});
const status = data.steps?.at(-1)?.items?.at(-1)?.checkStatus;
console.log(`request ${requestId}: ${status}`);
if (status !== "success") process.exit(1);

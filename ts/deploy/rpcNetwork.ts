/**
 * A chain reached by its RPC URL alone, for `ferry deploy --rpc-url <url>` and `--config <file>`: no
 * Hardhat, no project configuration, so it works from any directory and from the installed package.
 * The deployer is $FERRY_DEPLOYER_KEY, else — on a local dev node (Hardhat node, anvil: they answer
 * their client version so) — the node's first unlocked account. The key is never printed, logged or
 * put into an error. An URL that does not answer is RPC_UNREACHABLE; with `expectedChainId`, another
 * chain behind the URL is CHAIN_ID_MISMATCH — both before anything is sent.
 */
import { createPublicClient, createTestClient, createWalletClient, defineChain, http, type Hex, type PublicClient, type TestClient } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { ChainIdMismatchError, DeployerKeyMissingError, RpcUnreachableError } from "./deployErrors.ts";
import type { DeployWalletClient } from "./ferryDeployment.ts";
import { DEPLOYER_KEY_ENV, socketCode, type FerryNetwork } from "./ferryNetwork.ts";

export async function connectRpcNetwork(args: {
  rpcUrl: string;
  env: Readonly<Record<string, string | undefined>>;
  /** A name for output (the config's chain name; default the URL's host). */
  name?: string;
  /** Where the URL came from, for errors (`--rpc-url`, `chains[1].rpcUrl`). */
  source?: string;
  expectedChainId?: number;
  timeoutMs?: number;
}): Promise<FerryNetwork> {
  const source = args.source ?? "--rpc-url";
  let parsedUrl: URL;
  try {
    parsedUrl = new URL(args.rpcUrl);
    if (parsedUrl.protocol !== "http:" && parsedUrl.protocol !== "https:") throw new Error("not http");
  } catch {
    throw new RpcUnreachableError(source, JSON.stringify(args.rpcUrl.slice(0, 200)), "not an http:// or https:// URL");
  }
  // The URL may carry a provider's API key in its path or query: errors show the origin only.
  const shownUrl = parsedUrl.origin;
  const transport = http(args.rpcUrl, { timeout: args.timeoutMs ?? 20_000, retryCount: 1 });
  const probe = createPublicClient({ transport });
  let chainId: number;
  try {
    chainId = await probe.getChainId();
  } catch (error) {
    throw new RpcUnreachableError(source, shownUrl, reasonOf(error as { shortMessage?: string; details?: string; cause?: unknown }));
  }
  if (args.expectedChainId !== undefined && chainId !== args.expectedChainId) {
    throw new ChainIdMismatchError(source, shownUrl, args.expectedChainId, chainId);
  }
  const chain = defineChain({ id: chainId, name: args.name ?? parsedUrl.host, nativeCurrency: { name: "Ether", symbol: "ETH", decimals: 18 }, rpcUrls: { default: { http: [args.rpcUrl] } } });
  const publicClient = createPublicClient({ chain, transport, pollingInterval: 200 }) as PublicClient;
  const clientVersion = await publicClient.request({ method: "web3_clientVersion" }).catch(() => "");
  const devMode = /hardhat/i.test(String(clientVersion)) ? "hardhat" : /anvil/i.test(String(clientVersion)) ? "anvil" : undefined;
  const testClient = devMode ? (createTestClient({ chain, transport, mode: devMode }) as TestClient) : undefined;

  const deployer = async (): Promise<DeployWalletClient> => {
    const key = args.env[DEPLOYER_KEY_ENV];
    if (key !== undefined && key !== "") return createWalletClient({ account: accountFromKey(key), chain, transport }) as DeployWalletClient;
    if (devMode) {
      const [first] = await createWalletClient({ chain, transport }).getAddresses();
      if (first !== undefined) return createWalletClient({ account: first, chain, transport }) as DeployWalletClient;
    }
    throw new DeployerKeyMissingError(`no deployer key for chain ${chainId}: set ${DEPLOYER_KEY_ENV} (a 0x-prefixed private key) in the environment`);
  };

  return { networkName: args.name ?? parsedUrl.host, chainId, publicClient, ...(testClient ? { testClient } : {}), deployer, close: async () => {} };
}

function reasonOf(error: { shortMessage?: string; details?: string; cause?: unknown }): string {
  // The socket's code sits a few causes down (viem's HttpRequestError → fetch's TypeError → the socket error).
  const code = socketCode(error);
  if (code) return code;
  const text = `${error.details ?? ""} ${error.shortMessage ?? ""}`;
  if (/timed out|took too long/i.test(text)) return "timed out";
  return (error.shortMessage ?? "no JSON-RPC answer").split("\n")[0]!.slice(0, 120);
}

function accountFromKey(key: string) {
  if (!/^0x[0-9a-fA-F]{64}$/.test(key)) throw new DeployerKeyMissingError(`${DEPLOYER_KEY_ENV} is not a 0x-prefixed 32-byte private key`);
  try {
    return privateKeyToAccount(key as Hex);
  } catch {
    // No cause: the underlying error could quote the key.
    throw new DeployerKeyMissingError(`${DEPLOYER_KEY_ENV} is not a valid secp256k1 private key`);
  }
}

/**
 * Connects to a network named in hardhat.config.ts for `ferry deploy`: the same names and RPC URLs
 * (configuration variables) as `npx hardhat … --network <name>`. The deployer is, in order:
 *  1. the network's configured account (remote networks: the config variable FERRY_DEPLOYER_KEY,
 *     resolved by Hardhat from the environment or the keystore plugin);
 *  2. $FERRY_DEPLOYER_KEY, for a network configured without accounts (e.g. localhost);
 *  3. the node's first unlocked account (a local dev node).
 * The key is never printed, logged or put into an error (errors carry no cause that could quote it).
 */
import type { NetworkManager } from "hardhat/types/network";
import { createWalletClient, custom, type Hex, type PublicClient, type TestClient } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { DeployerKeyMissingError, RpcUnreachableError } from "./deployErrors.ts";
import type { DeployWalletClient } from "./ferryDeployment.ts";

/** Where `ferry deploy` reads the deployer key when the network does not configure one. */
export const DEPLOYER_KEY_ENV = "FERRY_DEPLOYER_KEY";

export type FerryNetwork = {
  networkName: string;
  chainId: number;
  publicClient: PublicClient;
  /** Set on a local dev chain (simulated, Hardhat node, anvil): may install the CREATE2 proxy. */
  testClient?: TestClient;
  /** The deployer's wallet client; resolves the key only when called (`--check` never does). */
  deployer: () => Promise<DeployWalletClient>;
  close: () => Promise<void>;
};

export async function connectFerryNetwork(args: {
  network: NetworkManager;
  name: string;
  env: Readonly<Record<string, string | undefined>>;
}): Promise<FerryNetwork> {
  const connection = await args.network.create(args.name);
  let publicClient: PublicClient;
  let chainId: number;
  try {
    // hardhat-viem asks the node for its chain id here already (HHE703 when it does not answer).
    publicClient = (await connection.viem.getPublicClient()) as unknown as PublicClient;
    chainId = await publicClient.getChainId();
  } catch (error) {
    await connection.close().catch(() => {});
    const variable = `FERRY_RPC_URL_${args.name.replace(/[A-Z]/g, (c) => `_${c}`).toUpperCase()}`;
    throw new RpcUnreachableError(`network ${args.name} (URL: ${variable})`, "", socketCode(error) ?? "no JSON-RPC answer");
  }
  const config = connection.networkConfig;
  const devChain = config.type === "edr-simulated" || (await isDevNode(publicClient));
  const testClient = devChain ? ((await connection.viem.getTestClient()) as unknown as TestClient) : undefined;

  const deployer = async (): Promise<DeployWalletClient> => {
    const configuredAccounts = config.type === "http" && Array.isArray(config.accounts) && config.accounts.length > 0;
    const envKey = args.env[DEPLOYER_KEY_ENV];
    if (!configuredAccounts && envKey !== undefined && envKey !== "") {
      return createWalletClient({ account: accountFromKey(envKey), chain: publicClient.chain, transport: custom(connection.provider) });
    }
    let clients;
    try {
      clients = await connection.viem.getWalletClients();
    } catch (error) {
      // Hardhat's HHE7 (configuration variable not found) names the variable, never a value.
      throw new DeployerKeyMissingError(`no deployer key for network ${args.name}: ${(error as Error).message.split("\n")[0]}`);
    }
    const first = clients[0];
    if (first === undefined) {
      throw new DeployerKeyMissingError(`network ${args.name} has no account: set ${DEPLOYER_KEY_ENV} (environment or Hardhat keystore)`);
    }
    return first as unknown as DeployWalletClient;
  };

  return { networkName: args.name, chainId, publicClient, ...(testClient ? { testClient } : {}), deployer, close: () => connection.close() };
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

/** A Hardhat node or anvil (they answer hardhat_* / anvil_* test methods). */
async function isDevNode(publicClient: PublicClient): Promise<boolean> {
  try {
    const version = await publicClient.request({ method: "web3_clientVersion" });
    return /hardhat|anvil/i.test(String(version));
  } catch {
    return false;
  }
}

/** The socket error's code (ECONNREFUSED, …) a few causes down an RPC client's error, if any. */
export function socketCode(error: unknown): string | undefined {
  for (let cause: unknown = error, depth = 0; cause && depth < 6; cause = (cause as { cause?: unknown }).cause, depth++) {
    const code = (cause as { code?: unknown }).code;
    if (typeof code === "string" && /^E[A-Z_]+$/.test(code)) return code;
  }
  return undefined;
}
